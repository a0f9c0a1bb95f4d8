// DERWriter → ASN1Reader round trips. Expected octets are from X.690 (§8.1.2 identifiers, §8.1.3
// lengths, §8.14 tagging examples, §8.9.3 SEQUENCE example) or from pyasn1 0.6.3's DER encoder
// (SET OF ordering), run when this file was written.

import Testing
@testable import DER
import TestHelpers

@Suite("DERWriter round trips")
struct WriterTests {
    struct TagCase: Sendable, CustomTestStringConvertible {
        let tag: ASN1Tag
        let identifier: String
        var testDescription: String { "\(tag) = \(identifier)" }
    }

    static let tags: [TagCase] = [
        TagCase(tag: .integer, identifier: "02"),
        TagCase(tag: .sequence, identifier: "30"),
        TagCase(tag: ASN1Tag.contextSpecific(0), identifier: "A0"),
        TagCase(tag: ASN1Tag.contextSpecific(3, constructed: false), identifier: "83"),
        TagCase(tag: ASN1Tag(.application, number: 3, constructed: false), identifier: "43"),
        TagCase(tag: ASN1Tag(.application, number: 30, constructed: true), identifier: "7E"),
        TagCase(tag: ASN1Tag(.private, number: 1, constructed: false), identifier: "C1"),
        TagCase(tag: ASN1Tag(.contextSpecific, number: 31, constructed: false), identifier: "9F 1F"),
        TagCase(tag: ASN1Tag(.universal, number: 31, constructed: false), identifier: "1F 1F"),
        TagCase(tag: ASN1Tag(.application, number: 127, constructed: false), identifier: "5F 7F"),
        TagCase(tag: ASN1Tag(.contextSpecific, number: 128, constructed: true), identifier: "BF 81 00"),
        TagCase(tag: ASN1Tag(.private, number: 16383, constructed: false), identifier: "DF FF 7F"),
        TagCase(tag: ASN1Tag(.private, number: 16384, constructed: true), identifier: "FF 81 80 00"),
        TagCase(tag: ASN1Tag(.contextSpecific, number: 2_097_151, constructed: false), identifier: "9F FF FF 7F"),
        TagCase(tag: ASN1Tag(.contextSpecific, number: (1 << 29) - 1, constructed: false), identifier: "9F 81 FF FF FF 7F"),
    ]

    @Test("Identifier octets written and read back", arguments: tags)
    func tagRoundTrip(_ c: TagCase) throws {
        var identifier: [UInt8] = []
        DERWriter.appendIdentifier(c.tag, to: &identifier)
        #expect(identifier == Hex.bytes(c.identifier))
        var writer = DERWriter()
        writer.append(c.tag, content: [0x05, 0x00])
        #expect(writer.bytes == Hex.bytes(c.identifier) + [0x02, 0x05, 0x00])
        for rules in [EncodingRules.der, .ber] {
            let tag = try withElement(writer.bytes, rules) { e in e.tag }
            #expect(tag == c.tag)
        }
    }

    @Test("Length octets written and read back", arguments: [0, 1, 127, 128, 201, 255, 256, 65535, 65536, 16_777_215, 16_777_216])
    func lengthRoundTrip(_ length: Int) throws {
        var octets: [UInt8] = []
        DERWriter.appendLength(length, to: &octets)
        #expect(octets == lengthOctets(length))
        // X.690 §8.1.3: spot checks written out by hand.
        let known: [Int: String] = [
            0: "00", 127: "7F", 128: "81 80", 201: "81 C9", 255: "81 FF", 256: "82 01 00",
            65535: "82 FF FF", 65536: "83 01 00 00", 16_777_216: "84 01 00 00 00",
        ]
        if let hex = known[length] { #expect(octets == Hex.bytes(hex)) }
        var writer = DERWriter()
        writer.appendOctetString([UInt8](repeating: 0x42, count: length))
        let (headerLength, contentLength) = try withElement(writer.bytes, .der) { e in (e.headerLength, e.contentLength) }
        #expect(headerLength == 1 + octets.count)
        #expect(contentLength == length)
    }

    /// X.690 §8.14 (tagging examples; the values of Type1…Type5 are all "Jones").
    @Test("X.690 §8.14 tagging examples")
    func taggingExamples() throws {
        let jones = Array("Jones".utf8)
        let app3 = ASN1Tag(.application, number: 3, constructed: false)
        var w1 = DERWriter(); w1.appendString("Jones", as: .visible)
        var w2 = DERWriter(); w2.append(app3, content: jones)
        var w3 = DERWriter(); w3.appendConstructed(.contextSpecific(2)) { $0.append(app3, content: jones) }
        var w4 = DERWriter(); w4.appendConstructed(ASN1Tag(.application, number: 7, constructed: true)) { $0.append(app3, content: jones) }
        var w5 = DERWriter(); w5.append(.contextSpecific(2, constructed: false), content: jones)
        #expect(w1.bytes == Hex.bytes("1A 05 4A 6F 6E 65 73"))
        #expect(w2.bytes == Hex.bytes("43 05 4A 6F 6E 65 73"))
        #expect(w3.bytes == Hex.bytes("A2 07 43 05 4A 6F 6E 65 73"))
        #expect(w4.bytes == Hex.bytes("67 07 43 05 4A 6F 6E 65 73"))
        #expect(w5.bytes == Hex.bytes("82 05 4A 6F 6E 65 73"))
        // Reading back Type3 ::= [2] Type2 (explicit around an implicit VisibleString).
        let text = try ASN1Reader.parse(w3.bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) -> String in
            var explicit = try r.read(.contextSpecific(2)).children()
            let value = try explicit.read(app3).stringValue(.visible)
            try explicit.finish()
            return value
        }
        #expect(text == "Jones")
        let text5 = try withElement(w5.bytes, .der) { e throws(ASN1Error) in try e.stringValue(.visible) }
        #expect(text5 == "Jones")
    }

    @Test("X.690 §8.9.3 SEQUENCE example written by the writer")
    func sequenceExample() {
        var w = DERWriter()
        w.appendSequence { s in
            s.appendString("Smith", as: .ia5)
            s.appendBool(true)
        }
        #expect(w.bytes == Hex.bytes("30 0A 16 05 53 6D 69 74 68 01 01 FF"))
    }

    @Test("Every value type round-trips through a nested structure")
    func everyType() throws {
        let oid = ASN1ObjectIdentifier("1.2.840.113635.100.6.11.1")
        var w = DERWriter()
        w.appendSequence { s in
            s.appendBool(false)
            s.appendInteger(-129)
            s.appendUnsignedInteger([0xFF, 0xEE])
            s.appendNull()
            s.appendObjectIdentifier(oid)
            s.appendOctetString([1, 2, 3])
            s.appendBitString([0xF0], unusedBits: 4)
            s.appendString("é", as: .utf8)
            s.appendUTCTime(1_672_574_400)
            s.appendGeneralizedTime(253_402_300_799)
            s.appendConstructed(.contextSpecific(0)) { e in e.appendInteger(2) }
            s.appendInteger(5, tag: .contextSpecific(1, constructed: false))
            s.appendOctetString([9], tag: .contextSpecific(2, constructed: false))
            s.appendSetOf { set in
                set.appendInteger(2); set.appendInteger(1)
            }
            s.appendEncoded(Hex.bytes("05 00"))
        }
        try ASN1Reader.parse(w.bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
            var s = try r.readSequence()
            #expect(try s.readBool() == false)
            #expect(try s.readInt64() == -129)
            #expect(Array(try s.read(.integer).unsignedIntegerBytes()) == [0xFF, 0xEE])
            try s.readNull()
            try s.readObjectIdentifier(oid)
            #expect(try s.readOctetString().copyBytes() == [1, 2, 3])
            let bits = try s.readBitString()
            #expect(bits.unusedBitCount == 4 && Array(bits.bytes) == [0xF0])
            #expect(try s.readString(.utf8) == "é")
            #expect(try s.readTime() == 1_672_574_400)
            #expect(try s.readTime() == 253_402_300_799)
            var explicit = try s.read(.contextSpecific(0)).children()
            #expect(try explicit.readInt64() == 2)
            try explicit.finish()
            #expect(try s.read(.contextSpecific(1, constructed: false)).int64Value() == 5)
            #expect(try s.read(.contextSpecific(2, constructed: false)).octetStringValue().copyBytes() == [9])
            var set = try s.read(.set).setOfChildren()
            #expect(try set.readInt64() == 1)
            #expect(try set.readInt64() == 2)
            try set.finish()
            try s.readNull()
            try s.finish()
        }
        #expect(caught { try decodeSingle(w.bytes, .der) } == nil)
    }

    @Test("SET OF: the writer sorts (X.690 §11.6) as pyasn1 does, and the DER reader accepts it")
    func setOfSorting() throws {
        var w = DERWriter()
        w.appendSetOf { s in
            for v: Int64 in [5, 1, 256, -1, 0, 128] { s.appendInteger(v) }
        }
        // pyasn1: SetOf(Integer) of [5, 1, 256, -1, 0, 128].
        #expect(w.bytes == Hex.bytes("31 14 02 01 00 02 01 01 02 01 05 02 01 FF 02 02 00 80 02 02 01 00"))
        let order = try ASN1Reader.parse(w.bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) -> [Int64] in
            var set = try r.read(.set).setOfChildren()
            var out: [Int64] = []
            while !set.isAtEnd { out.append(try set.readInt64()) }
            return out
        }
        #expect(order == [0, 1, 5, -1, 128, 256])

        // OCTET STRINGs of different lengths, one with a long-form length (pyasn1).
        var w2 = DERWriter()
        w2.appendSetOf { s in
            for content: [UInt8] in [[0x02, 0x03], [0x01], [], [0x01, 0x00], [UInt8](repeating: 0xFF, count: 130)] {
                s.appendOctetString(content)
            }
        }
        let expected = Hex.bytes("31 81 92 04 00 04 01 01 04 02 01 00 04 02 02 03 04 81 82") + [UInt8](repeating: 0xFF, count: 130)
        #expect(w2.bytes == expected)
        #expect(caught { try decodeSingle(w2.bytes, .der) } == nil)

        // Mixed element types sort by their whole encoding (tag first); nested constructed elements
        // are single elements; an implicit [1] SET OF tag is kept.
        var w3 = DERWriter()
        w3.appendSetOf(tag: .contextSpecific(1)) { s in
            s.appendSequence { $0.appendInteger(1) }
            s.appendNull()
            s.appendBool(true)
            s.appendString("a", as: .utf8)
        }
        #expect(w3.bytes == Hex.bytes("A1 0D 01 01 FF 05 00 0C 01 61 30 03 02 01 01"))
        try ASN1Reader.parse(w3.bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
            var set = try r.read(.contextSpecific(1)).setOfChildren()
            while !set.isAtEnd { try set.skipElement() }
        }
        // Empty SET OF.
        var w4 = DERWriter()
        w4.appendSetOf { _ in }
        #expect(w4.bytes == [0x31, 0x00])
    }

    @Test("Writer output is canonical: everything it writes passes the strict DER reader")
    func canonicalOutput() {
        var w = DERWriter()
        w.appendSequence { s in
            for v: Int64 in [0, -1, 127, 128, -128, -129, .max, .min] { s.appendInteger(v) }
            s.appendOctetString([UInt8](repeating: 7, count: 70_000))
            s.appendSetOf { set in
                for i in (0 ..< 50).reversed() { set.appendOctetString([UInt8](repeating: UInt8(i), count: i)) }
            }
            s.appendBitString([0x80], unusedBits: 7)
            s.appendTime(0)
            s.appendTime(4_102_444_800)   // 2100-01-01: GeneralizedTime
        }
        #expect(caught { try decodeSingle(w.bytes, .der) } == nil)
        #expect(w.bytes[0 ..< 2] == [0x30, 0x83])   // 70,000+ bytes: three length octets
    }
}
