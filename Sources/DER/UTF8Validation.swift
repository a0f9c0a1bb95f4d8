/// UTF-8 validation to RFC 3629 (§3, §4: no overlong forms, no surrogates U+D800–U+DFFF, nothing
/// above U+10FFFF), the byte ranges of the Unicode Standard's Table 3-7 ("Well-Formed UTF-8 Byte
/// Sequences", §3.9), for every module of this package.
///
/// The standard library's `String.init(validating:as:)` does the same but needs macOS 15 / iOS 18,
/// and this package builds for SwiftPM's default Apple targets (macOS 10.13, iOS 12). Validating first
/// and then decoding with `String(decoding:as:)`, which never fails, gives the same strings on every
/// platform (the tests compare the two on Linux, over tables and random bytes).
public enum UTF8Validation {
    /// Whether `bytes` are well-formed UTF-8. ASCII runs are skipped eight bytes at a time.
    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < bytes.count {
            if index + 8 <= bytes.count, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
            } else if bytes[index] < 0x80 {
                index += 1
            } else {
                guard let length = multibyteLength(bytes, at: index) else { return false }
                index += length
            }
        }
        return true
    }

    /// Whether `bytes` are well-formed UTF-8.
    public static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isValid($0) }
    }

    /// The string `bytes` spell, or `nil` when they are not well-formed UTF-8 (what
    /// `String.init(validating:as:)` gives, with `UTF8.self`, where it is available).
    public static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
        isValid(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The string `bytes` spell, or `nil` when they are not well-formed UTF-8.
    public static func string(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { string($0) }
    }

    /// The length of the well-formed multi-byte sequence at `index` (its lead byte ≥ 0x80), or
    /// `nil`. Table 3-7: the lead byte fixes the length and the second byte's range (narrower after
    /// E0 and F0, which would otherwise allow overlong forms, after ED, whose A0–BF would encode
    /// surrogates, and after F4, whose 90–BF would pass U+10FFFF); the other bytes are 80–BF. Lead
    /// bytes 80–C1 (continuations, overlong two-byte forms) and F5–FF never start a sequence.
    @inline(__always)
    static func multibyteLength(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int? {
        let length: Int, secondLow: UInt8, secondHigh: UInt8
        switch bytes[index] {
        case 0xC2 ... 0xDF: (length, secondLow, secondHigh) = (2, 0x80, 0xBF)
        case 0xE0: (length, secondLow, secondHigh) = (3, 0xA0, 0xBF)
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: (length, secondLow, secondHigh) = (3, 0x80, 0xBF)
        case 0xED: (length, secondLow, secondHigh) = (3, 0x80, 0x9F)
        case 0xF0: (length, secondLow, secondHigh) = (4, 0x90, 0xBF)
        case 0xF1 ... 0xF3: (length, secondLow, secondHigh) = (4, 0x80, 0xBF)
        case 0xF4: (length, secondLow, secondHigh) = (4, 0x80, 0x8F)
        default: return nil
        }
        guard bytes.count - index >= length, (secondLow ... secondHigh).contains(bytes[index + 1]) else { return nil }
        for offset in 2 ..< length where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        return length
    }
}
