/// Strict base64 decoding (RFC 4648): one alphabet, no whitespace, canonical encodings only
/// (the unused low bits of the last character are zero, RFC 4648 §3.5), so every byte string has
/// exactly one accepted text.
enum Base64 {
    /// RFC 4648 §5 (URL and filename safe, `-` `_`) without padding, as JWS uses it (RFC 7515 §2).
    static func decodeURL(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        decode(text, values: urlValues)
    }

    /// RFC 4648 §4 (`+` `/`) with `=` padding to a multiple of four characters, as `x5c` entries
    /// are written (RFC 7515 §4.1.6).
    static func decodeStandard(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        // Padding completes the last group of four characters, so it is at most two `=` (§4).
        guard text.count % 4 == 0 else { return nil }
        var body = text
        var padding = 0
        while padding < 2, body.last == UInt8(ascii: "=") {
            body = body.dropLast()
            padding += 1
        }
        return decode(body, values: standardValues)
    }

    /// Each byte's sextet in the URL alphabet (RFC 4648 Table 2), `invalid` for any other byte.
    private static let urlValues = values(character62: UInt8(ascii: "-"), character63: UInt8(ascii: "_"))
    /// Each byte's sextet in the standard alphabet (RFC 4648 Table 1), `invalid` for any other byte.
    private static let standardValues = values(character62: UInt8(ascii: "+"), character63: UInt8(ascii: "/"))
    /// A table entry for a byte outside the alphabet: the one bit no sextet has.
    private static let invalid: UInt8 = 0x80

    private static func values(character62: UInt8, character63: UInt8) -> [UInt8] {
        var table = [UInt8](repeating: invalid, count: 256)
        for (offset, first) in [UInt8(ascii: "A"), UInt8(ascii: "a"), UInt8(ascii: "0")].enumerated() {
            for index in 0 ..< (offset == 2 ? 10 : 26) { table[Int(first) + index] = UInt8(26 * offset + index) }
        }
        table[Int(character62)] = 62
        table[Int(character63)] = 63
        return table
    }

    /// Decodes unpadded text in one alphabet (`values`); `nil` on any other character or a
    /// non-canonical end. Four characters give three bytes; a last group of two or three gives
    /// one or two, and the bits it leaves over must be zero (RFC 4648 §3.5). Every character is
    /// looked up and its table entries OR-ed together, so one test at the end finds any byte
    /// outside the alphabet; the time is linear whatever the input.
    private static func decode(_ text: ArraySlice<UInt8>, values: [UInt8]) -> [UInt8]? {
        let groups = text.count / 4, tail = text.count % 4
        guard tail != 1 else { return nil }
        let outputCount = groups * 3 + max(0, tail - 1)
        var flags: UInt8 = 0, leftover: UInt32 = 0
        let output = [UInt8](unsafeUninitializedCapacity: outputCount) { output, initialized in
            text.withUnsafeBufferPointer { input in
                values.withUnsafeBufferPointer { values in
                    @inline(__always) func sextet(_ index: Int) -> UInt32 {
                        let value = values[Int(input[index])]
                        flags |= value
                        return UInt32(value)
                    }
                    var index = 0, out = 0
                    for _ in 0 ..< groups {
                        let bits = sextet(index) << 18 | sextet(index + 1) << 12 | sextet(index + 2) << 6 | sextet(index + 3)
                        output[out] = UInt8(truncatingIfNeeded: bits >> 16)
                        output[out + 1] = UInt8(truncatingIfNeeded: bits >> 8)
                        output[out + 2] = UInt8(truncatingIfNeeded: bits)
                        index += 4
                        out += 3
                    }
                    if tail == 2 {   // 12 bits: one byte, 4 left over
                        let bits = sextet(index) << 6 | sextet(index + 1)
                        output[out] = UInt8(truncatingIfNeeded: bits >> 4)
                        leftover = bits & 0xF
                    } else if tail == 3 {   // 18 bits: two bytes, 2 left over
                        let bits = sextet(index) << 12 | sextet(index + 1) << 6 | sextet(index + 2)
                        output[out] = UInt8(truncatingIfNeeded: bits >> 10)
                        output[out + 1] = UInt8(truncatingIfNeeded: bits >> 2)
                        leftover = bits & 0x3
                    }
                }
            }
            initialized = outputCount
        }
        return flags & invalid == 0 && leftover == 0 ? output : nil
    }
}
