// The cursor API: element geometry, reading a structure, optional fields, SET OF order in DER,
// encapsulated content, base offsets and trailing data.

import Testing
@testable import DER
import TestHelpers

@Suite("ASN1Reader")
struct ReaderTests {
    /// X.690 §8.9.3 example: SEQUENCE { name IA5String "Smith", ok BOOLEAN TRUE }.
    static let smith = Hex.bytes("30 0A 16 05 53 6D 69 74 68 01 01 FF")

    @Test("X.690 §8.9.3 SEQUENCE example: reading the fields")
    func sequenceExample() throws {
        let (name, ok) = try ASN1Reader.parse(Self.smith, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) -> (String, Bool) in
            var s = try r.readSequence()
            let name = try s.readString(.ia5)
            let ok = try s.readBool()
            try s.finish()
            return (name, ok)
        }
        #expect(name == "Smith")
        #expect(ok)
    }

    @Test("Element geometry: offsets, lengths, ranges, depth")
    func geometry() throws {
        try ASN1Reader.parse(Self.smith, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
            #expect(r.offset == 0 && r.remainingCount == 12 && !r.isAtEnd && r.depth == 0)
            let seq = try r.readElement()
            #expect(seq.tag == .sequence && seq.rules == .der && seq.depth == 0)
            #expect(seq.offset == 0 && seq.headerLength == 2 && seq.contentOffset == 2)
            #expect(seq.contentLength == 10 && seq.encodedLength == 12 && !seq.isIndefiniteLength)
            #expect(seq.range == 0 ..< 12 && seq.contentRange == 2 ..< 12)
            #expect(Array(seq.encoded) == Self.smith)
            #expect(r.isAtEnd && r.offset == 12 && r.remainingCount == 0)
            var children = try seq.children()
            #expect(children.depth == 1 && children.offset == 2 && children.remainingCount == 10)
            let name = try children.readElement()
            #expect(name.tag == .ia5String && name.depth == 1 && name.offset == 2 && name.contentRange == 4 ..< 9)
            #expect(Array(name.content) == Array("Smith".utf8))
            #expect(children.offset == 9)
            #expect(try children.peekTag() == .boolean)
            #expect(children.offset == 9)   // peek does not consume
            try children.skipElement()
            #expect(try children.peekTag() == nil)
            try children.finish()
        }
    }

    @Test("read(tag) refuses another tag with unexpectedTag at the element")
    func unexpectedTag() {
        #expect(
            caught {
                try ASN1Reader.parse(Self.smith, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
                    var s = try r.readSequence()
                    _ = try s.read(.utf8String)
                }
            } == ASN1Error(.unexpectedTag(expected: .utf8String, found: .ia5String), at: 2))
        // A constructed OCTET STRING does not match the primitive tag (folded constructed bit).
        #expect(
            caught {
                try ASN1Reader.parse(Hex.bytes("24 03 04 01 AA"), rules: .ber) { (r: inout ASN1Reader) throws(ASN1Error) in
                    _ = try r.read(.octetString)
                }
            } == ASN1Error(.unexpectedTag(expected: .octetString, found: ASN1Tag.octetString.asConstructed), at: 0))
        // children() of a primitive element.
        #expect(
            caught {
                try withElement(Hex.bytes("04 00"), .der) { e throws(ASN1Error) in _ = try e.children() }
            } == ASN1Error(.unexpectedTag(expected: ASN1Tag.octetString.asConstructed, found: .octetString), at: 0))
        // readSequence on a SET.
        #expect(
            caught {
                try ASN1Reader.parse(Hex.bytes("31 00"), rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in _ = try r.readSequence() }
            } == ASN1Error(.unexpectedTag(expected: .sequence, found: .set), at: 0))
    }

    @Test("readOptional: present, absent, at the end")
    func optionalFields() throws {
        // TBSCertificate-like: [0] EXPLICIT version optional, then INTEGER serial, then [3] optional.
        let withVersion = Hex.bytes("30 08 A0 03 02 01 02 02 01 07")
        let withoutVersion = Hex.bytes("30 03 02 01 07")
        for (bytes, expectedVersion) in [(withVersion, Int64(2)), (withoutVersion, nil)] {
            let (version, serial) = try ASN1Reader.parse(bytes, rules: .der) {
                (r: inout ASN1Reader) throws(ASN1Error) -> (Int64?, Int64) in
                var s = try r.readSequence()
                var version: Int64? = nil
                if let explicit = try s.readOptional(.contextSpecific(0)) {
                    var inner = try explicit.children()
                    version = try inner.readInt64()
                    try inner.finish()
                }
                let serial = try s.readInt64()
                #expect(try s.readOptional(.contextSpecific(3)) == nil)   // at the end
                try s.finish()
                return (version, serial)
            }
            #expect(version == expectedVersion)
            #expect(serial == 7)
        }
        // Absent optional does not consume.
        try ASN1Reader.parse(Hex.bytes("02 01 07"), rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
            #expect(try r.readOptional(.contextSpecific(0)) == nil)
            #expect(r.offset == 0)
            #expect(try r.readInt64() == 7)
        }
        // A malformed next element is reported, not taken as absent.
        #expect(
            caught {
                try ASN1Reader.parse(Hex.bytes("04 81 01 AA"), rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
                    _ = try r.readOptional(.contextSpecific(0))
                }
            } == ASN1Error(.nonMinimalLength, at: 0))
    }

    @Test("parse: body must consume everything; trailing bytes at the first unread byte")
    func parseTrailing() {
        #expect(
            caught {
                try ASN1Reader.parse(Self.smith + [0x05, 0x00], rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
                    _ = try r.readSequence()
                }
            } == ASN1Error(.trailingBytes, at: 12))
        // Inside a structure: finish() on the child reader.
        #expect(
            caught {
                try ASN1Reader.parse(Self.smith, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
                    var s = try r.readSequence()
                    _ = try s.readString(.ia5)
                    try s.finish()
                }
            } == ASN1Error(.trailingBytes, at: 9))
        // Body that reads nothing.
        #expect(
            caught {
                try ASN1Reader.parse(Hex.bytes("05 00"), rules: .ber) { (_: inout ASN1Reader) throws(ASN1Error) in }
            } == ASN1Error(.trailingBytes, at: 0))
        // Body errors pass through unchanged.
        #expect(
            caught {
                try ASN1Reader.parse(Hex.bytes("05 00"), rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
                    throw ASN1Error(.invalidNull, at: 77)
                }
            } == ASN1Error(.invalidNull, at: 77))
    }

    @Test("Nested errors are reported at the nested element's absolute offset")
    func nestedOffsets() {
        // SEQUENCE { SEQUENCE { INTEGER 1, SEQUENCE { BOOLEAN 01 } } }: BOOLEAN at 9.
        let bytes = Hex.bytes("30 0A 30 08 02 01 01 30 03 01 01 01")
        #expect(caught { try decodeSingle(bytes, .der) } == ASN1Error(.invalidBoolean, at: 9))
        #expect(caught { try decodeSingle(bytes, .ber) } == nil)
        // Long-form lengths shift offsets: a 200-byte OCTET STRING before the faulty INTEGER.
        let big = [0x04, 0x81, 0xC8] + [UInt8](repeating: 0, count: 200)
        let seq = [0x30, 0x81, 0xCF] + big + Hex.bytes("02 02 00 01")
        #expect(caught { try decodeSingle(seq, .der) } == ASN1Error(.nonMinimalInteger, at: 3 + 203))
    }

    @Test("Encapsulated content: offsets stay those of the input, rules chosen by the caller")
    func encapsulated() throws {
        // OCTET STRING { SEQUENCE { INTEGER 00 7F (non-minimal) } }: INTEGER at 4.
        let bad = Hex.bytes("04 06 30 04 02 02 00 7F")
        #expect(
            caught {
                try withElement(bad, .der) { e throws(ASN1Error) in
                    var inner = try e.encapsulated(rules: .der)
                    try decodeAll(&inner)
                }
            } == ASN1Error(.nonMinimalInteger, at: 4))
        // DER outside, BER inside (an indefinite length is fine in the encapsulated reader only).
        let berInside = Hex.bytes("04 06 30 80 05 00 00 00")
        try withElement(berInside, .der) { e throws(ASN1Error) in
            var inner = try e.encapsulated(rules: .ber)
            #expect(inner.rules == .ber)
            let seq = try inner.readElement()
            #expect(seq.isIndefiniteLength && seq.offset == 2 && seq.depth == 1)
            try inner.finish()
        }
        #expect(
            caught {
                try withElement(berInside, .der) { e throws(ASN1Error) in
                    var inner = try e.encapsulated(rules: .der)
                    _ = try inner.readElement()
                }
            } == ASN1Error(.indefiniteLength, at: 2))
        // Trailing bytes inside the encapsulated content.
        #expect(
            caught {
                try withElement(Hex.bytes("04 03 05 00 00"), .der) { e throws(ASN1Error) in
                    var inner = try e.encapsulated(rules: .der)
                    try inner.readNull()
                    try inner.finish()
                }
            } == ASN1Error(.trailingBytes, at: 4))
    }

    @Test("baseOffset is added to every offset")
    func baseOffset() throws {
        let file = [UInt8](repeating: 0xEE, count: 100) + Hex.bytes("30 06 02 01 01 05 01")
        let slice = Array(file[100...])
        slice.withUnsafeBytes { raw in
            var reader = ASN1Reader(raw, rules: .der, baseOffset: 100)
            #expect(reader.offset == 100)
            #expect(caught { _ = try reader.readElement() } == ASN1Error(.lengthPastEnd, at: 100))
        }
        let good = Hex.bytes("30 05 02 01 01 05 00")
        try good.withUnsafeBytes { raw in
            var reader = ASN1Reader(raw, rules: .der, baseOffset: 1000)
            let seq = try reader.readElement()
            #expect(seq.offset == 1000 && seq.range == 1000 ..< 1007 && seq.contentRange == 1002 ..< 1007)
            var children = try seq.children()
            _ = try children.readInt64()
            let null = try children.readElement()
            #expect(null.offset == 1005)
            #expect(caught { try null.nullValue() } == nil)
            #expect(null.error(.invalidNull) == ASN1Error(.invalidNull, at: 1005))
            try reader.finish()
        }
    }

    @Test("SET OF order in DER (X.690 §11.6): sorted, equal, and padded comparisons")
    func setOfOrder() throws {
        func readAll(_ hex: String, _ rules: EncodingRules) -> ASN1Error? {
            caught {
                try ASN1Reader.parse(Hex.bytes(hex), rules: rules) { (r: inout ASN1Reader) throws(ASN1Error) in
                    var set = try r.read(.set).setOfChildren()
                    while !set.isAtEnd { try set.skipElement() }
                }
            }
        }
        #expect(readAll("31 09 02 01 01 02 01 02 02 01 03", .der) == nil)
        #expect(readAll("31 06 02 01 01 02 01 01", .der) == nil)   // duplicates allowed
        #expect(readAll("31 00", .der) == nil)
        #expect(readAll("31 07 02 01 01 02 02 00 80", .der) == nil)   // 02 01 < 02 02
        #expect(readAll("31 07 02 02 00 80 02 01 01", .der) == ASN1Error(.setNotSorted, at: 6))
        #expect(readAll("31 09 02 01 01 02 01 03 02 01 02", .der) == ASN1Error(.setNotSorted, at: 8))
        #expect(readAll("31 07 04 02 00 00 04 01 00", .der) == ASN1Error(.setNotSorted, at: 6))
        #expect(readAll("31 05 05 00 02 01 01", .der) == ASN1Error(.setNotSorted, at: 4))   // by tag first
        #expect(readAll("31 09 02 01 01 02 01 03 02 01 02", .ber) == nil)
        // The comparison itself: shorter operand padded with zero octets.
        func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
            a.withUnsafeBytes { x in b.withUnsafeBytes { y in ASN1Reader.compareZeroPadded(x, y) } }
        }
        #expect(compare([1, 2], [1, 2, 0]) == 0)
        #expect(compare([1, 2], [1, 2, 1]) == -1)
        #expect(compare([1, 3], [1, 2, 9]) == 1)
        #expect(compare([], []) == 0)
        #expect(compare([0xFF], [0x00, 0xFF]) == 1)
    }

    @Test("Empty input and empty constructed contents")
    func empties() throws {
        try ASN1Reader.parse([], rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
            #expect(r.isAtEnd)
            #expect(try r.peekTag() == nil)
        }
        let count = try walkCount(Hex.bytes("30 00"), .der)
        #expect(count == 1)
    }
}
