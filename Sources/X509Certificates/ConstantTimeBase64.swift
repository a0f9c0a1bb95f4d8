/// Base64 decoding (RFC 4648 §4, the standard alphabet with `=` padding, as PEM uses it,
/// RFC 7468 §3) whose time and memory accesses do not depend on the characters: each sextet is
/// computed by range masks instead of a table lookup (BoringSSL `EVP_DecodeBase64` does the
/// same), because the text is a private key.
enum ConstantTimeBase64 {
    /// The bytes of `text` (no whitespace), or nil when it is not canonical base64: a length
    /// that is not a multiple of four, a character outside the alphabet, padding other than at
    /// the end, nonzero leftover bits. Validity is collected in a flag and tested once at the end.
    static func decode(_ text: [UInt8]) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var padding = 0
        if text.last == UInt8(ascii: "=") { padding += 1 }
        if text.count >= 2 && text[text.count - 2] == UInt8(ascii: "=") { padding += 1 }
        var invalid: UInt32 = 0
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var group = 0
        while group < text.count {
            var bits: UInt32 = 0
            for offset in 0 ..< 4 {
                let index = group + offset
                let isPadding = index >= text.count - padding
                let value = isPadding ? 0 : sextet(text[index])
                invalid |= value >> 8   // bit 8: not in the alphabet
                bits = bits << 6 | (value & 0x3f)
            }
            output.append(UInt8(truncatingIfNeeded: bits >> 16))
            output.append(UInt8(truncatingIfNeeded: bits >> 8))
            output.append(UInt8(truncatingIfNeeded: bits))
            group += 4
        }
        // Canonical end (RFC 4648 §3.5): the bits the padding leaves over are zero.
        if padding > 0 {
            let last = output.count - padding
            for index in last ..< output.count { invalid |= UInt32(output[index]) }
            output.removeLast(padding)
        }
        return invalid == 0 ? output : nil
    }

    /// The sextet of a base64 character, or 0x100 (an invalid flag) for any other byte: the
    /// sum over the five ranges of (mask of c in range) & (c + offset), all arithmetic.
    @inline(__always)
    static func sextet(_ character: UInt8) -> UInt32 {
        let c = UInt32(character)
        let upper = inRange(c, 0x41, 0x5a) & (c &- 0x41)
        let lower = inRange(c, 0x61, 0x7a) & (c &- 0x61 &+ 26)
        let digit = inRange(c, 0x30, 0x39) & (c &- 0x30 &+ 52)
        let plus = inRange(c, 0x2b, 0x2b) & 62
        let slash = inRange(c, 0x2f, 0x2f) & 63
        let valid = inRange(c, 0x41, 0x5a) | inRange(c, 0x61, 0x7a) | inRange(c, 0x30, 0x39) | inRange(c, 0x2b, 0x2b) | inRange(c, 0x2f, 0x2f)
        return upper | lower | digit | plus | slash | (~valid & 0x100)
    }

    /// All ones when low ≤ c ≤ high (values below 256): the differences' sign bits, no compare.
    @inline(__always)
    static func inRange(_ c: UInt32, _ low: UInt32, _ high: UInt32) -> UInt32 {
        let belowLow = (c &- low) >> 31   // 1 when c < low
        let aboveHigh = (high &- c) >> 31   // 1 when c > high
        return (belowLow | aboveHigh) &- 1
    }
}
