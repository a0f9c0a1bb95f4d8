// UTF8Validation (RFC 3629 §4; the Unicode Standard's Table 3-7) against a table of well-formed and
// ill-formed sequences, and against the standard library's String(validating:as:) (Linux has it;
// Apple platforms only from macOS 15 / iOS 18, which is why the package has its own) over random
// byte strings.

import DER
import ReceiptTestSupport
import Testing

@Suite struct UTF8ValidationTests {
    /// The standard library's answer, the oracle.
    static func oracle(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }

    static let valid: [[UInt8]] = [
        [],
        Array("plain ASCII, longer than eight bytes".utf8),
        [0x00],   // U+0000 is a character like any other
        [0x7F],
        [0xC2, 0x80], [0xDF, 0xBF],   // U+0080, U+07FF
        [0xE0, 0xA0, 0x80], [0xEF, 0xBF, 0xBF],   // U+0800, U+FFFF
        [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],   // U+D7FF, U+E000: either side of the surrogates
        [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],   // U+10000, U+10FFFF
        Array("Zoë, Ελληνικά, 日本語, 🧾".utf8),
        Array("12345678🧾12345678é".utf8),   // a multi-byte sequence after and before an ASCII run
    ]

    static let invalid: [(name: String, bytes: [UInt8])] = [
        ("overlong NUL", [0xC0, 0x80]),
        ("overlong two-byte", [0xC1, 0xBF]),
        ("overlong three-byte NUL", [0xE0, 0x80, 0x80]),
        ("overlong three-byte U+07FF", [0xE0, 0x9F, 0xBF]),
        ("overlong four-byte", [0xF0, 0x80, 0x80, 0x80]),
        ("overlong four-byte U+FFFF", [0xF0, 0x8F, 0xBF, 0xBF]),
        ("surrogate U+D800", [0xED, 0xA0, 0x80]),
        ("surrogate U+DFFF", [0xED, 0xBF, 0xBF]),
        ("surrogate pair (CESU-8)", [0xED, 0xA0, 0xBD, 0xED, 0xB2, 0xA9]),
        ("U+110000", [0xF4, 0x90, 0x80, 0x80]),
        ("lead F5", [0xF5, 0x80, 0x80, 0x80]),
        ("lead FF", [0xFF, 0xBF, 0xBF, 0xBF]),
        ("truncated two-byte", [0xC3]),
        ("truncated three-byte", [0xE2, 0x82]),
        ("truncated four-byte", [0xF0, 0x9F, 0xA7]),
        ("truncated at the end of ASCII", Array("abcdefgh".utf8) + [0xE2, 0x82]),
        ("continuation missing", [0xE2, 0x41, 0x82]),
        ("third byte not a continuation", [0xF0, 0x9F, 0xC2, 0xBE]),
        ("lone continuation after ASCII", Array("abc".utf8) + [0x80]),
        ("too many continuations", [0xC3, 0xA9, 0xA9]),
    ]

    @Test func wellFormedSequences() {
        for bytes in Self.valid {
            #expect(UTF8Validation.isValid(bytes), "\(bytes)")
            #expect(UTF8Validation.string(bytes) == Self.oracle(bytes), "\(bytes)")
            #expect(Self.oracle(bytes) != nil, "the oracle disagrees with the table: \(bytes)")
        }
    }

    @Test func illFormedSequences() {
        for (name, bytes) in Self.invalid {
            #expect(!UTF8Validation.isValid(bytes), "\(name)")
            #expect(UTF8Validation.string(bytes) == nil, "\(name)")
            #expect(Self.oracle(bytes) == nil, "the oracle disagrees with the table: \(name)")
        }
    }

    /// No byte from 0x80 up is a character by itself, alone or after ASCII; below 0x80 each is.
    @Test func everySingleByte() {
        for byte in UInt8.min ... UInt8.max {
            for bytes in [[byte], Array("12345678".utf8) + [byte]] {
                #expect(UTF8Validation.isValid(bytes) == (byte < 0x80), "\(byte)")
                #expect(UTF8Validation.string(bytes) == Self.oracle(bytes), "\(byte)")
            }
        }
    }

    /// Every lead byte followed by every second byte (then continuations to its length): the
    /// second byte's range is where overlongs, surrogates and values past U+10FFFF are told apart.
    @Test func everyLeadAndSecondByte() {
        for lead in UInt8(0xC0) ... 0xFF {
            for second in UInt8.min ... UInt8.max {
                let bytes = [lead, second, 0x80, 0x80]
                #expect(UTF8Validation.isValid(bytes) == (Self.oracle(bytes) != nil), "\(lead) \(second)")
            }
        }
    }

    /// Random strings built from pieces that make both answers likely: ASCII runs, encodings of
    /// random scalars, random bytes and lone continuation bytes.
    @Test func randomStringsAgreeWithTheStandardLibrary() {
        var generator = SplitMix64(seed: 0x07F8)
        var validCount = 0
        for _ in 0 ..< 20_000 {
            var bytes: [UInt8] = []
            for _ in 0 ..< generator.below(8) {
                switch generator.below(5) {
                case 0: bytes += (0 ..< generator.below(12)).map { _ in UInt8(generator.below(0x80)) }
                case 1, 2:
                    let value = UInt32(truncatingIfNeeded: generator.next() % 0x11_0000)
                    if let scalar = Unicode.Scalar(value) { bytes += Array(String(Character(scalar)).utf8) }
                case 3: bytes.append(UInt8(truncatingIfNeeded: generator.next()))
                default: bytes.append(0x80 | UInt8(generator.below(0x40)))
                }
            }
            let expected = Self.oracle(bytes)
            #expect(UTF8Validation.string(bytes) == expected, "\(bytes)")
            bytes.withUnsafeBytes { #expect(UTF8Validation.isValid($0) == (expected != nil)) }
            if expected != nil { validCount += 1 }
        }
        // Both answers were exercised.
        #expect(validCount > 2_000 && validCount < 18_000, "\(validCount) valid")
    }
}
