// OBJECT IDENTIFIER (X.690 §8.19). Encodings were produced with pyasn1 0.6.3's DER encoder and
// checked against `openssl asn1parse -genstr OID:<dotted>` when this file was written; 2.999.3 is
// the example of X.690 §8.19.5 and 1.2.840.113549 the classic RSADSI arc.

import Testing
@testable import DER
import TestHelpers

@Suite("OBJECT IDENTIFIER")
struct ObjectIdentifierTests {
    struct OIDVector: Sendable, CustomTestStringConvertible {
        let dotted: String
        let encoding: String
        var testDescription: String { dotted }
    }

    static let vectors: [OIDVector] = [
        OIDVector(dotted: "1.2.840.113549", encoding: "06 06 2A 86 48 86 F7 0D"),
        OIDVector(dotted: "1.2.840.113549.1.7.2", encoding: "06 09 2A 86 48 86 F7 0D 01 07 02"),
        OIDVector(dotted: "2.5.4.3", encoding: "06 03 55 04 03"),
        OIDVector(dotted: "1.2.840.113635.100.6.11.1", encoding: "06 0A 2A 86 48 86 F7 63 64 06 0B 01"),
        OIDVector(dotted: "1.3.6.1.4.1.311.60.2.1.3", encoding: "06 0B 2B 06 01 04 01 82 37 3C 02 01 03"),
        OIDVector(dotted: "2.999.3", encoding: "06 03 88 37 03"),
        OIDVector(dotted: "2.999", encoding: "06 02 88 37"),
        OIDVector(dotted: "0.0", encoding: "06 01 00"),
        OIDVector(dotted: "0.39", encoding: "06 01 27"),
        OIDVector(
            dotted: "1.39.128.16383.16384.2097151.2097152",
            encoding: "06 0F 4F 81 00 FF 7F 81 80 00 FF FF 7F 81 80 80 00"),
        OIDVector(dotted: "1.2.18446744073709551615", encoding: "06 0B 2A 81 FF FF FF FF FF FF FF FF 7F"),
        OIDVector(dotted: "2.18446744073709551535", encoding: "06 0A 81 FF FF FF FF FF FF FF FF 7F"),
    ]

    @Test("Dotted text ↔ encoding ↔ reader, both ways", arguments: vectors)
    func roundTrip(_ v: OIDVector) throws {
        let encoding = Hex.bytes(v.encoding)
        let oid = try #require(ASN1ObjectIdentifier(dotted: v.dotted))
        #expect(oid.encodedContent == Array(encoding.dropFirst(2)))
        #expect(ASN1ObjectIdentifier(v.dotted) == oid)
        #expect(oid.description == v.dotted)
        var writer = DERWriter()
        writer.appendObjectIdentifier(oid)
        #expect(writer.bytes == encoding)
        for rules in [EncodingRules.der, .ber] {
            let read = try withElement(encoding, rules) { e throws(ASN1Error) in
                (try e.objectIdentifierValue(), oid.matches(try e.objectIdentifierBytes()))
            }
            #expect(read.0 == oid)
            #expect(read.0.description == v.dotted)
            #expect(read.1)
            try ASN1Reader.parse(encoding, rules: rules) { (r: inout ASN1Reader) throws(ASN1Error) in
                try r.readObjectIdentifier(oid)
            }
        }
    }

    /// Arcs beyond 64 bits: `description` prints any size. Encodings from pyasn1. 2.25.<UUID> is the
    /// example of X.667 / RFC 4122 §B (f81d4fae-7dec-11d0-a765-00a0c91e6bf6).
    @Test("Dotted text of arcs wider than 64 bits")
    func largeArcs() {
        let uuid = ASN1ObjectIdentifier(validatedContent: Hex.bytes("69 83 F0 9D A7 EB CF DE E0 C7 A1 A7 B2 C0 94 8C C8 F9 D7 76"))
        #expect(uuid.description == "2.25.329800735698586629295641978511506172918")
        // First sub-identifier 80 + 10^24: 2.10^24 (pyasn1: 06 0C 86 CF 84 9B E7 B3 9D DA 88 80 80 50).
        let huge = ASN1ObjectIdentifier(validatedContent: Hex.bytes("86 CF 84 9B E7 B3 9D DA 88 80 80 50"))
        #expect(huge.description == "2.1000000000000000000000000")
        // 2.(10^18 - 1): the subtraction of 80 borrows across base-10^9 limbs.
        let borrow = ASN1ObjectIdentifier("2.999999999999999999")
        #expect(borrow.encodedContent == Hex.bytes("8D F0 AD D6 BA BB 90 80 4F"))   // pyasn1
        #expect(borrow.description == "2.999999999999999999")
        // Texts too wide for the 64-bit dotted parser are refused, not truncated.
        #expect(ASN1ObjectIdentifier(dotted: "2.25.329800735698586629295641978511506172918") == nil)
        #expect(ASN1ObjectIdentifier(dotted: "1.2.18446744073709551616") == nil)
    }

    @Test(
        "Malformed dotted text is refused",
        arguments: [
            "", "1", "1.", ".1", "1..2", "1.2.", "3.1", "1.40", "0.40", "1.a", "1.-2", "1.+2", " 1.2", "1.2 ", "1,2",
            "１.２",   // full-width digits
            "2.18446744073709551536",   // 80 + Y overflows 64 bits
        ])
    func malformedDotted(_ text: String) {
        #expect(ASN1ObjectIdentifier(dotted: text) == nil)
    }

    @Test("Second arc of 2 is unrestricted; of 0 and 1 below 40 (X.660)")
    func secondArcRange() {
        #expect(ASN1ObjectIdentifier(dotted: "2.40")?.encodedContent == [0x78])
        #expect(ASN1ObjectIdentifier(dotted: "2.47")?.encodedContent == [0x7F])
        #expect(ASN1ObjectIdentifier(dotted: "2.48")?.encodedContent == [0x81, 0x00])
        #expect(ASN1ObjectIdentifier(dotted: "1.39")?.encodedContent == [0x4F])
    }

    @Test("matches compares content octets exactly")
    func matches() throws {
        let oid = ASN1ObjectIdentifier("1.2.840.113549.1.7.2")
        let cases: [(String, Bool)] = [
            ("2A 86 48 86 F7 0D 01 07 02", true),
            ("2A 86 48 86 F7 0D 01 07", false),   // prefix
            ("2A 86 48 86 F7 0D 01 07 02 01", false),   // longer
            ("2A 86 48 86 F7 0D 01 07 01", false),   // last octet differs
            ("AA 86 48 86 F7 0D 01 07 02", false),   // first octet differs
            ("", false),
        ]
        for (hex, expected) in cases {
            let bytes = Hex.bytes(hex)
            #expect(bytes.withUnsafeBytes { oid.matches($0) } == expected, "\(hex)")
        }
        // Hashable/Equatable by content.
        #expect(ASN1ObjectIdentifier("1.2.3") == ASN1ObjectIdentifier(validatedContent: [0x2A, 0x03]))
        #expect(Set([ASN1ObjectIdentifier("1.2.3"), ASN1ObjectIdentifier("1.2.3"), ASN1ObjectIdentifier("1.2.4")]).count == 2)
    }

    @Test("readObjectIdentifier: another OID is unexpectedObjectIdentifier at the element")
    func unexpectedObjectIdentifier() {
        let bytes = Hex.bytes("30 0D 05 00 06 09 2A 86 48 86 F7 0D 01 07 01")   // pkcs7-data
        #expect(
            caught {
                try ASN1Reader.parse(bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
                    var s = try r.readSequence()
                    try s.readNull()
                    try s.readObjectIdentifier(ASN1ObjectIdentifier("1.2.840.113549.1.7.2"))
                }
            } == ASN1Error(.unexpectedObjectIdentifier, at: 4))
    }

    static let rejections: [Rejection] = {
        var cases: [Rejection] = []
        for rules in [EncodingRules.der, .ber] {
            cases.append(Rejection("§8.19.2 first sub-identifier with leading 80", "06 02 80 01", rules, .invalidObjectIdentifier, at: 0))
            cases.append(Rejection("§8.19.2 later sub-identifier with leading 80", "06 03 2A 80 01", rules, .invalidObjectIdentifier, at: 0))
            cases.append(Rejection("§8.19.2 sub-identifier 80 80 01", "06 04 2A 80 80 01", rules, .invalidObjectIdentifier, at: 0))
            cases.append(Rejection("empty OBJECT IDENTIFIER", "06 00", rules, .invalidObjectIdentifier, at: 0))
            cases.append(Rejection("last sub-identifier unfinished", "06 02 2A 86", rules, .invalidObjectIdentifier, at: 0))
            cases.append(Rejection("single unfinished octet", "06 01 80", rules, .invalidObjectIdentifier, at: 0))
            cases.append(Rejection("leading 80 nested", "30 07 06 01 2A 06 02 80 01", rules, .invalidObjectIdentifier, at: 5))
        }
        return cases
    }()

    @Test("OBJECT IDENTIFIER rules: rejected with the right kind and offset", arguments: rejections)
    func rejected(_ c: Rejection) {
        #expect(caught { try decodeSingle(c.bytes, c.rules) } == c.expected)
    }

    @Test("Sub-identifier 80 inside a multi-octet arc (e.g. 86 80 01) is fine")
    func innerZeroOctet() throws {
        // 1.2.98305: 98305 = 6·128² + 0·128 + 1 → 86 80 01.
        let bytes = Hex.bytes("06 04 2A 86 80 01")
        let text = try withElement(bytes, .der) { e throws(ASN1Error) in try e.objectIdentifierValue().description }
        #expect(text == "1.2.98305")
        #expect(ASN1ObjectIdentifier("1.2.98305").encodedContent == Hex.bytes("2A 86 80 01"))
    }
}
