/// Strict base64 decoding (RFC 4648): one alphabet, no whitespace, canonical encodings only
/// (the unused low bits of the last character are zero, RFC 4648 §3.5), so every byte string has
/// exactly one accepted text.
enum Base64 {
    /// RFC 4648 §5 (URL and filename safe, `-` `_`) without padding, as JWS uses it (RFC 7515 §2).
    static func decodeURL(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        decode(text, url: true)
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
        return decode(body, url: false)
    }

    /// Decodes unpadded text in one alphabet; `nil` on any other character or a non-canonical end.
    private static func decode(_ text: ArraySlice<UInt8>, url: Bool) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            guard let value = sextet(character, url: url) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // 2 or 4 bits left over: they must be zero (RFC 4648 §3.5).
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }

    private static func sextet(_ character: UInt8, url: Bool) -> UInt8? {
        switch character {
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a") ... UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-") where url, UInt8(ascii: "+") where !url: 62
        case UInt8(ascii: "_") where url, UInt8(ascii: "/") where !url: 63
        default: nil
        }
    }
}
