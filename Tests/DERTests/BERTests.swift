// What BER allows and DER refuses (X.690 §8 vs §10–11), and what BER still refuses. Structures were
// checked with `openssl asn1parse -inform DER -i` when this file was written.

import Testing
@testable import DER
import TestHelpers

@Suite("BER: accepted where BER allows it")
struct BERTests {
    struct BERVector: Sendable, CustomTestStringConvertible {
        let name: String
        let hex: String
        /// What strict DER reports for the same bytes.
        let derKind: ASN1Error.Kind
        let derOffset: Int
        var testDescription: String { name }
    }

    static let berOnly: [BERVector] = [
        BERVector(name: "§8.1.3.6 indefinite length", hex: "30 80 02 01 01 00 00", derKind: .indefiniteLength, derOffset: 0),
        BERVector(name: "nested indefinite lengths", hex: "30 80 30 80 05 00 00 00 31 80 00 00 00 00", derKind: .indefiniteLength, derOffset: 0),
        BERVector(name: "indefinite inside definite", hex: "30 06 30 80 05 00 00 00", derKind: .indefiniteLength, derOffset: 2),
        BERVector(name: "empty indefinite SEQUENCE", hex: "30 80 00 00", derKind: .indefiniteLength, derOffset: 0),
        BERVector(name: "indefinite [0] EXPLICIT", hex: "A0 80 02 01 05 00 00", derKind: .indefiniteLength, derOffset: 0),
        BERVector(
            name: "definite child containing 00 00 inside an indefinite parent",
            hex: "30 80 04 02 00 00 00 00", derKind: .indefiniteLength, derOffset: 0),
        BERVector(
            name: "§8.7.3 constructed OCTET STRING, definite", hex: "24 09 04 01 AA 24 04 04 02 BB CC",
            derKind: .constructedStringInDER, derOffset: 0),
        BERVector(
            name: "§8.7.3 constructed OCTET STRING, indefinite", hex: "24 80 04 01 AA 00 00",
            derKind: .indefiniteLength, derOffset: 0),
        BERVector(name: "§8.1.3.5 non-minimal length 81 01", hex: "04 81 01 AA", derKind: .nonMinimalLength, derOffset: 0),
        BERVector(name: "§8.1.3.5 leading zero length octet", hex: "04 82 00 01 AA", derKind: .nonMinimalLength, derOffset: 0),
        BERVector(name: "non-minimal length nested", hex: "30 05 04 81 02 AA BB", derKind: .nonMinimalLength, derOffset: 2),
        BERVector(name: "§8.2.2 BOOLEAN 01 is true", hex: "01 01 01", derKind: .invalidBoolean, derOffset: 0),
        BERVector(name: "§8.11 SET OF in any order", hex: "31 06 02 01 02 02 01 01", derKind: .setNotSorted, derOffset: 5),
        BERVector(name: "§8.6.2 BIT STRING padding bits set", hex: "03 02 04 FF", derKind: .invalidBitString, derOffset: 0),
        BERVector(
            name: "UTCTime without seconds", hex: "17 0B " + Hex.string(Array("2301011200Z".utf8)),
            derKind: .invalidTime, derOffset: 0),
        BERVector(
            name: "UTCTime with offset", hex: "17 11 " + Hex.string(Array("230101120000+0100".utf8)),
            derKind: .invalidTime, derOffset: 0),
        BERVector(
            name: "GeneralizedTime with comma fraction", hex: "18 11 " + Hex.string(Array("20230101120000,5Z".utf8)),
            derKind: .invalidTime, derOffset: 0),
        BERVector(
            name: "GeneralizedTime with offset", hex: "18 13 " + Hex.string(Array("20230101120000+0100".utf8)),
            derKind: .invalidTime, derOffset: 0),
        BERVector(name: "§8.23 constructed UTF8String", hex: "2C 06 04 01 61 04 01 62", derKind: .constructedStringInDER, derOffset: 0),
    ]

    @Test("Accepted in BER, rejected in DER with the right kind and offset", arguments: berOnly)
    func acceptedOnlyInBER(_ v: BERVector) {
        let bytes = Hex.bytes(v.hex)
        #expect(caught { try decodeSingle(bytes, .ber) } == nil)
        #expect(caught { try decodeSingle(bytes, .der) } == ASN1Error(v.derKind, at: v.derOffset))
    }

    static let berRejections: [Rejection] = [
        Rejection("§8.1.3.2 a indefinite length on a primitive", "04 80 00 00", .ber, .indefiniteLengthPrimitive, at: 0),
        Rejection("indefinite primitive nested", "30 80 02 80 00 00 00 00", .ber, .indefiniteLengthPrimitive, at: 2),
        Rejection("missing end-of-contents", "30 80 02 01 00", .ber, .missingEndOfContents, at: 0),
        Rejection("missing end-of-contents, nested indefinite closed", "30 80 30 80 00 00", .ber, .missingEndOfContents, at: 0),
        Rejection("missing end-of-contents inside a definite parent", "30 04 30 80 05 00", .ber, .missingEndOfContents, at: 2),
        Rejection("end-of-contents with non-zero length (00 01 00)", "30 80 00 01 00 00 00", .ber, .unexpectedEndOfContents, at: 2),
        Rejection("end-of-contents cut short (single 00)", "30 80 05 00 00", .ber, .unexpectedEndOfContents, at: 4),
        Rejection("end-of-contents inside a definite child", "30 80 30 02 00 00 00 00", .ber, .unexpectedEndOfContents, at: 4),
        Rejection("end-of-contents at top level", "00 00", .ber, .unexpectedEndOfContents, at: 0),
        Rejection("length past end inside an indefinite element", "30 80 04 05 01 02 00 00", .ber, .lengthPastEnd, at: 2),
        Rejection(
            "§8.7.3.2 segment of constructed OCTET STRING is an INTEGER", "24 80 02 01 00 00 00", .ber,
            .unexpectedTag(expected: .octetString, found: .integer), at: 2),
        Rejection(
            "§8.7.3.2 second segment is a UTF8String", "24 80 04 01 AA 0C 01 41 00 00", .ber,
            .unexpectedTag(expected: .octetString, found: .utf8String), at: 5),
        Rejection(
            "§8.7.3.2 nested segment has a wrong tag", "24 80 04 01 AA 24 80 05 00 00 00 00 00", .ber,
            .unexpectedTag(expected: .octetString, found: .null), at: 7),
        Rejection("constructed BIT STRING is not supported", "23 80 03 02 00 AA 00 00", .ber, .unsupportedConstructedEncoding, at: 0),
        Rejection("constructed INTEGER stays refused", "22 80 02 01 00 00 00", .ber, .constructedPrimitiveType, at: 0),
        Rejection("§8.3.2 non-minimal INTEGER stays refused", "30 80 02 02 00 01 00 00", .ber, .nonMinimalInteger, at: 2),
        Rejection("trailing bytes after an indefinite element", "30 80 00 00 00", .ber, .trailingBytes, at: 4),
    ]

    @Test("BER rejections: right kind and offset", arguments: berRejections)
    func berRejected(_ c: Rejection) {
        #expect(caught { try decodeSingle(c.bytes, c.rules) } == c.expected)
    }

    @Test("Indefinite-length element: ranges, encoded bytes and children")
    func indefiniteElement() throws {
        let bytes = Hex.bytes("30 80 02 01 05 30 80 05 00 00 00 00 00")
        try ASN1Reader.parse(bytes, rules: .ber) { (r: inout ASN1Reader) throws(ASN1Error) in
            let outer = try r.read(.sequence)
            #expect(outer.isIndefiniteLength)
            #expect(outer.offset == 0)
            #expect(outer.headerLength == 2)
            #expect(outer.contentOffset == 2)
            #expect(outer.contentLength == 9)   // up to, not including, the EOC at 11
            #expect(outer.encodedLength == 13)
            #expect(outer.range == 0 ..< 13)
            #expect(outer.contentRange == 2 ..< 11)
            #expect(Array(outer.encoded) == bytes)
            #expect(Array(outer.content) == Array(bytes[2 ..< 11]))
            var children = try outer.children()
            #expect(try children.readInt64() == 5)
            let inner = try children.read(.sequence)
            #expect(inner.isIndefiniteLength && inner.offset == 5 && inner.contentLength == 2 && inner.encodedLength == 6)
            #expect(inner.depth == 1)
            var grandchildren = try inner.children()
            try grandchildren.readNull()
            try grandchildren.finish()
            try children.finish()
        }
    }

    @Test("Constructed OCTET STRING: segments in order, count, copyBytes, no contiguous view")
    func constructedOctetString() throws {
        // Segments 01 02 | (nested: 03 | empty) | 04 05 06 — openssl asn1parse shows the same tree.
        let bytes = Hex.bytes("24 80 04 02 01 02 24 80 04 01 03 04 00 00 00 04 03 04 05 06 00 00")
        try ASN1Reader.parse(bytes, rules: .ber) { (r: inout ASN1Reader) throws(ASN1Error) in
            let os = try r.readOctetString()
            #expect(os.count == 6)
            #expect(os.contiguousBytes == nil)
            #expect(os.contiguousRange == nil)
            var segments: [[UInt8]] = []
            try os.forEachSegment { segments.append(Array($0)) }
            #expect(segments == [[0x01, 0x02], [0x03], [], [0x04, 0x05, 0x06]])
            #expect(try os.copyBytes() == [1, 2, 3, 4, 5, 6])
        }
        // Definite-length constructed form.
        let definite = Hex.bytes("24 09 04 01 AA 24 04 04 02 BB CC")
        let copied = try withElement(definite, .ber) { e throws(ASN1Error) in
            let os = try e.octetStringValue()
            return (os.count, try os.copyBytes())
        }
        #expect(copied.0 == 3 && copied.1 == [0xAA, 0xBB, 0xCC])
        // Implicitly tagged constructed OCTET STRING ([0] IMPLICIT, as eContent may be): segments are 04.
        let implicit = Hex.bytes("A0 80 04 02 61 62 04 01 63 00 00")
        let text = try withElement(implicit, .ber) { e throws(ASN1Error) in try e.octetStringValue().copyBytes() }
        #expect(text == Array("abc".utf8))
        // Empty constructed string.
        let empty = try withElement(Hex.bytes("24 80 00 00"), .ber) { e throws(ASN1Error) in
            let os = try e.octetStringValue()
            return (os.count, try os.copyBytes())
        }
        #expect(empty.0 == 0 && empty.1 == [])
        // The same bytes under DER.
        #expect(
            caught { try withElement(definite, .der) { e throws(ASN1Error) in try e.octetStringValue() } }
                == ASN1Error(.constructedStringInDER, at: 0))
    }

    @Test("Constructed OCTET STRING nested past the depth limit is tooDeep")
    func deepSegments() {
        // Definite-length segments nested 40 deep around one primitive segment.
        var bytes = Hex.bytes("04 01 AA")
        for _ in 0 ..< 40 { bytes = [0x24] + lengthOctets(bytes.count) + bytes }
        let error = caught { try withElement(bytes, .ber) { e throws(ASN1Error) in try e.octetStringValue() } }
        #expect(error?.kind == .tooDeep)
        // The segment at depth maxDepth + 1 is the first past the limit.
        #expect(error?.offset == 2 * (ASN1Limits.maxDepth + 1))
    }

    @Test("Unsorted SET OF: setOfChildren accepts any order in BER, refuses it in DER")
    func unsortedSetOf() throws {
        let bytes = Hex.bytes("31 09 02 01 03 02 01 01 02 01 02")
        let values = try ASN1Reader.parse(bytes, rules: .ber) { (r: inout ASN1Reader) throws(ASN1Error) -> [Int64] in
            var set = try r.read(.set).setOfChildren()
            var out: [Int64] = []
            while !set.isAtEnd { out.append(try set.readInt64()) }
            return out
        }
        #expect(values == [3, 1, 2])
        #expect(
            caught {
                try ASN1Reader.parse(bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
                    var set = try r.read(.set).setOfChildren()
                    while !set.isAtEnd { _ = try set.readInt64() }
                }
            } == ASN1Error(.setNotSorted, at: 5))
        // children() never checks order, not even in DER (SEQUENCE OF, or a SET read as a SET).
        let plain = try ASN1Reader.parse(bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) -> Int in
            var children = try r.read(.set).children()
            var n = 0
            while !children.isAtEnd { _ = try children.readInt64(); n += 1 }
            return n
        }
        #expect(plain == 3)
    }

    @Test("BER time offsets shift the value to UTC")
    func timeOffsets() throws {
        let utcPlusOne = tlv(0x17, ascii: "200722183315+0100")   // 2020-07-22T17:33:15Z
        #expect(try withElement(utcPlusOne, .ber) { e throws(ASN1Error) in try e.utcTimeValue() } == 1_595_439_195)
        let gen = tlv(0x18, ascii: "20200722183315+0100")
        #expect(try withElement(gen, .ber) { e throws(ASN1Error) in try e.generalizedTimeValue() } == 1_595_439_195)
        let zulu = tlv(0x17, ascii: "200722183315Z")   // 2020-07-22T18:33:15Z
        #expect(try withElement(zulu, .ber) { e throws(ASN1Error) in try e.utcTimeValue() } == 1_595_442_795)
    }
}
