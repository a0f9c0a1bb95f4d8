#if canImport(Foundation)
    import Foundation
#endif

/// Base64 decoding (RFC 4648 §4, `+` `/` and `=` padding) of receipts given as text and of the
/// values of iOS 6 transaction receipts: Foundation's `Data(base64Encoded:)` where Foundation
/// exists, and without it (Embedded Swift) text whose length is a multiple of four, with at most
/// two `=` and only at the end, the unused low bits of the last character ignored, as Foundation
/// ignores them. (Foundation also accepts some odd paddings, such as `QQ=A`; without it they
/// are refused.)
package enum Base64Text {
    /// The bytes of base64 `text`, or nil when it is not base64.
    package static func decode(_ text: [UInt8]) -> [UInt8]? {
        #if canImport(Foundation)
            Data(base64Encoded: Data(text)).map { [UInt8]($0) }
        #else
            decodePadded(text)
        #endif
    }

    /// The bytes of `text`, or nil when it is not padded base64 (Foundation-free).
    static func decodePadded(_ text: [UInt8]) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var padding = 0
        while padding < 2, padding < text.count, text[text.count - 1 - padding] == UInt8(ascii: "=") { padding += 1 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        var group: UInt32 = 0
        var count = 0
        for character in text[..<(text.count - padding)] {
            guard let value = sextet(character) else { return nil }
            group = group << 6 | value
            count += 1
            if count == 4 {
                bytes.append(UInt8(truncatingIfNeeded: group >> 16))
                bytes.append(UInt8(truncatingIfNeeded: group >> 8))
                bytes.append(UInt8(truncatingIfNeeded: group))
                group = 0
                count = 0
            }
        }
        switch count {
        case 0: break
        case 2: bytes.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            bytes.append(UInt8(truncatingIfNeeded: group >> 10))
            bytes.append(UInt8(truncatingIfNeeded: group >> 2))
        default: return nil
        }
        return bytes
    }

    /// The value of one character of the standard alphabet, nil for any other byte.
    private static func sextet(_ character: UInt8) -> UInt32? {
        switch character {
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"): return UInt32(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a") ... UInt8(ascii: "z"): return UInt32(character - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return UInt32(character - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
