// Character strings (X.680 §41, X.690 §8.23). Allowed characters per type from X.680 §41.4
// (PrintableString), §41.2 Table 8 (NumericString, VisibleString, IA5String); BMPString is UCS-2
// and UniversalString UCS-4, big-endian (X.690 §8.23.7–8.23.8).

import Testing
@testable import DER
import TestHelpers

@Suite("Character strings")
struct StringTests {
    struct StringVector: Sendable, CustomTestStringConvertible {
        let name: String
        let kind: ASN1StringKind
        let content: String
        /// Expected text, or nil when the type does not allow the bytes.
        let text: String?
        var testDescription: String { "\(kind) \(name)" }
    }

    static let vectors: [StringVector] = [
        // UTF8String: well-formed UTF-8 only (RFC 3629).
        StringVector(name: "ASCII", kind: .utf8, content: "48 69", text: "Hi"),
        StringVector(name: "two-byte é", kind: .utf8, content: "68 C3 A9 6C 6C 6F", text: "héllo"),
        StringVector(name: "four-byte U+1F600", kind: .utf8, content: "F0 9F 98 80", text: "\u{1F600}"),
        StringVector(name: "empty", kind: .utf8, content: "", text: ""),
        StringVector(name: "truncated sequence C3", kind: .utf8, content: "41 C3", text: nil),
        StringVector(name: "bad continuation C3 28", kind: .utf8, content: "C3 28", text: nil),
        StringVector(name: "overlong C0 AF", kind: .utf8, content: "C0 AF", text: nil),
        StringVector(name: "surrogate ED A0 80", kind: .utf8, content: "ED A0 80", text: nil),
        StringVector(name: "beyond U+10FFFF F4 90 80 80", kind: .utf8, content: "F4 90 80 80", text: nil),
        StringVector(name: "lone continuation 80", kind: .utf8, content: "80", text: nil),
        // IA5String: 00–7F.
        StringVector(name: "mail address", kind: .ia5, content: "61 40 62 2E 63", text: "a@b.c"),
        StringVector(name: "control and DEL", kind: .ia5, content: "00 09 7F", text: "\u{0}\t\u{7F}"),
        StringVector(name: "high bit 80", kind: .ia5, content: "41 80", text: nil),
        StringVector(name: "Latin-1 E9", kind: .ia5, content: "E9", text: nil),
        // PrintableString: A–Z a–z 0–9 space ' ( ) + , - . / : = ?
        StringVector(
            name: "all punctuation", kind: .printable, content: "41 62 39 20 27 28 29 2B 2C 2D 2E 2F 3A 3D 3F",
            text: "Ab9 '()+,-./:=?"),
        StringVector(name: "Apple Inc.", kind: .printable, content: "41 70 70 6C 65 20 49 6E 63 2E", text: "Apple Inc."),
        StringVector(name: "at sign", kind: .printable, content: "61 40 62", text: nil),
        StringVector(name: "asterisk", kind: .printable, content: "2A", text: nil),
        StringVector(name: "ampersand", kind: .printable, content: "26", text: nil),
        StringVector(name: "underscore", kind: .printable, content: "5F", text: nil),
        StringVector(name: "semicolon", kind: .printable, content: "3B", text: nil),
        StringVector(name: "non-ASCII", kind: .printable, content: "C3 A9", text: nil),
        // T61String: read as Latin-1 (every byte maps to U+00xx).
        StringVector(name: "Latin-1 é", kind: .t61, content: "63 61 66 E9", text: "café"),
        StringVector(name: "byte FF", kind: .t61, content: "FF", text: "\u{FF}"),
        // VisibleString: 20–7E.
        StringVector(name: "printable ASCII", kind: .visible, content: "48 65 6C 6C 6F 20 7E", text: "Hello ~"),
        StringVector(name: "X.690 §8.14 'Jones'", kind: .visible, content: "4A 6F 6E 65 73", text: "Jones"),
        StringVector(name: "DEL", kind: .visible, content: "7F", text: nil),
        StringVector(name: "tab", kind: .visible, content: "09", text: nil),
        StringVector(name: "high bit", kind: .visible, content: "A0", text: nil),
        // NumericString: digits and space.
        StringVector(name: "digits and space", kind: .numeric, content: "30 31 32 20 39", text: "012 9"),
        StringVector(name: "letter", kind: .numeric, content: "31 32 61", text: nil),
        StringVector(name: "minus", kind: .numeric, content: "2D 31", text: nil),
        // BMPString: UCS-2 big-endian, no surrogates.
        StringVector(name: "Hé", kind: .bmp, content: "00 48 00 E9", text: "Hé"),
        StringVector(name: "CJK U+4E2D", kind: .bmp, content: "4E 2D", text: "中"),
        StringVector(name: "odd length", kind: .bmp, content: "00 48 00", text: nil),
        StringVector(name: "lone surrogate D800", kind: .bmp, content: "D8 00", text: nil),
        StringVector(name: "surrogate pair (not UCS-2)", kind: .bmp, content: "D8 3D DE 00", text: nil),
        // UniversalString: UCS-4 big-endian.
        StringVector(name: "U+1F600", kind: .universal, content: "00 01 F6 00", text: "\u{1F600}"),
        StringVector(name: "A", kind: .universal, content: "00 00 00 41", text: "A"),
        StringVector(name: "beyond U+10FFFF", kind: .universal, content: "00 11 00 00", text: nil),
        StringVector(name: "surrogate code point", kind: .universal, content: "00 00 D8 00", text: nil),
        StringVector(name: "length not a multiple of 4", kind: .universal, content: "00 00 41", text: nil),
    ]

    @Test("Allowed and refused characters per string type", arguments: vectors)
    func decode(_ v: StringVector) throws {
        let content = Hex.bytes(v.content)
        let tagByte = UInt8(v.kind.tag.number)
        let bytes = tlv(tagByte, content)
        for rules in [EncodingRules.der, .ber] {
            let result = caught {
                try ASN1Reader.parse(bytes, rules: rules) { (r: inout ASN1Reader) throws(ASN1Error) -> String in
                    try r.readString(v.kind)
                }
            }
            if let text = v.text {
                #expect(result == nil)
                let read = try ASN1Reader.parse(bytes, rules: rules) { (r: inout ASN1Reader) throws(ASN1Error) -> String in
                    try r.readString(v.kind)
                }
                #expect(read == text)
            } else {
                #expect(result == ASN1Error(.invalidString, at: 0))
            }
        }
        #expect(content.withUnsafeBytes { v.kind.decode($0) } == v.text)
        // The allocation-free check agrees with decoding.
        #expect(content.withUnsafeBytes { v.kind.isValid($0) } == (v.text != nil))
    }

    @Test(
        "Writer → reader round trip for every string type",
        arguments: [
            (ASN1StringKind.utf8, "Grüße, 世界 \u{1F600}"),
            (.ia5, "user@example.com\t"),
            (.printable, "Apple Worldwide Developer Relations (US)"),
            (.t61, "Zürich"),
            (.visible, "Visible ~ string"),
            (.numeric, "0123 456789"),
            (.bmp, "BMP é 中"),
            (.universal, "UCS-4 \u{1F600} \u{10FFFF}"),
        ])
    func roundTrip(_ kind: ASN1StringKind, _ text: String) throws {
        var writer = DERWriter()
        writer.appendString(text, as: kind)
        #expect(writer.bytes.first == UInt8(kind.tag.number))
        let read = try ASN1Reader.parse(writer.bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) -> String in
            try r.readString(kind)
        }
        #expect(read == text)
    }

    @Test("Writer content octets: BMP is UCS-2 BE, Universal UCS-4 BE, T61 Latin-1")
    func writerEncodings() {
        var w = DERWriter()
        w.appendString("Hé", as: .bmp)
        w.appendString("A\u{1F600}", as: .universal)
        w.appendString("é", as: .t61)
        w.appendString("é", as: .utf8)
        #expect(w.bytes == Hex.bytes("1E 04 00 48 00 E9  1C 08 00 00 00 41 00 01 F6 00  14 01 E9  0C 02 C3 A9"))
    }

    @Test("String kinds and tags correspond (X.680 §8.4)")
    func kindTags() {
        let expected: [(ASN1StringKind, UInt32)] = [
            (.utf8, 12), (.numeric, 18), (.printable, 19), (.t61, 20), (.ia5, 22), (.visible, 26), (.universal, 28), (.bmp, 30),
        ]
        #expect(ASN1StringKind.allCases.count == expected.count)
        for (kind, number) in expected {
            #expect(kind.tag == ASN1Tag(.universal, number: number, constructed: false))
            #expect(ASN1StringKind(tag: kind.tag) == kind)
            #expect(ASN1StringKind(tag: kind.tag.asConstructed) == kind)
        }
        #expect(ASN1StringKind(tag: .octetString) == nil)
        #expect(ASN1StringKind(tag: ASN1Tag.contextSpecific(12, constructed: false)) == nil)
    }

    @Test("readString checks the tag; stringValue serves implicit tags")
    func tags() throws {
        #expect(
            caught {
                try ASN1Reader.parse(Hex.bytes("13 02 41 42"), rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
                    _ = try r.readString(.utf8)
                }
            } == ASN1Error(.unexpectedTag(expected: .utf8String, found: .printableString), at: 0))
        // [2] IMPLICIT IA5String
        let text = try withElement(Hex.bytes("82 03 61 62 63"), .der) { e throws(ASN1Error) in try e.stringValue(.ia5) }
        #expect(text == "abc")
        // Invalid characters nested: the offset is the string's.
        #expect(caught { try decodeSingle(Hex.bytes("30 07 0C 01 41 13 02 40 41"), .der) } == ASN1Error(.invalidString, at: 5))
    }

    @Test("BER constructed strings are joined from OCTET STRING segments (X.690 §8.23.6, §8.7.3)")
    func constructedStrings() throws {
        // UTF8String "hé" split inside the two-byte é: segments 68 C3 | A9.
        let split = Hex.bytes("2C 80 04 02 68 C3 04 01 A9 00 00")
        let text = try ASN1Reader.parse(split, rules: .ber) { (r: inout ASN1Reader) throws(ASN1Error) -> String in
            try r.readString(.utf8)
        }
        #expect(text == "hé")
        #expect(
            caught {
                try ASN1Reader.parse(split, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in _ = try r.readString(.utf8) }
            } == ASN1Error(.indefiniteLength, at: 0))
        // Definite-length constructed IA5String.
        let ia5 = Hex.bytes("36 08 04 02 61 62 04 02 63 64")
        #expect(try ASN1Reader.parse(ia5, rules: .ber) { (r: inout ASN1Reader) throws(ASN1Error) -> String in try r.readString(.ia5) } == "abcd")
        #expect(caught { try decodeSingle(ia5, .der) } == ASN1Error(.constructedStringInDER, at: 0))
        // Invalid characters after joining: reported at the constructed string.
        let bad = Hex.bytes("36 06 04 01 61 04 01 80")
        #expect(caught { try decodeSingle(bad, .ber) } == ASN1Error(.invalidString, at: 0))
        // A segment that is neither OCTET STRING nor the string type is refused (X.690 §8.7.3.2).
        let wrongTag = Hex.bytes("2C 06 04 01 61 02 01 62")
        #expect(
            caught { try decodeSingle(wrongTag, .ber) }
                == ASN1Error(.unexpectedTag(expected: .octetString, found: .integer), at: 5))
    }
}
