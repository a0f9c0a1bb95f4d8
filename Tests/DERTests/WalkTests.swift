// ASN1Reader.walk on a BER sample and on every fixture. Expected trees come from
// `openssl asn1parse -inform DER -i` (OpenSSL 3), run on the same bytes when this file was written:
// element count, constructed count, sums of offsets/depths/header lengths, indefinite count and
// the end-of-contents lines (openssl prints an EOC at the depth of the children it closes).

import Testing
@testable import DER
import TestHelpers

@Suite("walk")
struct WalkTests {
    @Test("Events for a BER sample, end-of-contents offsets and depths included")
    func berSample() throws {
        // openssl asn1parse -i:
        //   0:d=0 hl=2 l=inf cons: SEQUENCE
        //   2:d=1 hl=2 l=  1 prim:  INTEGER :05
        //   5:d=1 hl=2 l=inf cons:  OCTET STRING
        //   7:d=2 hl=2 l=  2 prim:   OCTET STRING [HEX DUMP]:AABB
        //  11:d=2 hl=2 l=  0 prim:   OCTET STRING
        //  13:d=2 hl=2 l=  0 prim:   EOC
        //  15:d=1 hl=2 l=  2 cons:  SET
        //  17:d=2 hl=2 l=  0 prim:   NULL
        //  19:d=1 hl=2 l=  0 prim:  EOC
        let bytes = Hex.bytes("30 80 02 01 05 24 80 04 02 AA BB 04 00 00 00 31 02 05 00 00 00")
        let expected: [WalkRecord] = [
            .element(offset: 0, depth: 0, tag: .sequence, headerLength: 2, length: nil),
            .element(offset: 2, depth: 1, tag: .integer, headerLength: 2, length: 1),
            .element(offset: 5, depth: 1, tag: ASN1Tag.octetString.asConstructed, headerLength: 2, length: nil),
            .element(offset: 7, depth: 2, tag: .octetString, headerLength: 2, length: 2),
            .element(offset: 11, depth: 2, tag: .octetString, headerLength: 2, length: 0),
            .endOfContents(offset: 13, depth: 2),
            .element(offset: 15, depth: 1, tag: .set, headerLength: 2, length: 2),
            .element(offset: 17, depth: 2, tag: .null, headerLength: 2, length: 0),
            .endOfContents(offset: 19, depth: 1),
        ]
        #expect(try walkRecords(bytes, .ber) == expected)
        #expect(caught { try walkRecords(bytes, .der) } == ASN1Error(.indefiniteLength, at: 0))
    }

    @Test("walk does not descend into primitive content, and visits siblings at the top level")
    func primitivesAndSiblings() throws {
        // An OCTET STRING whose content happens to be DER is not walked into.
        let bytes = Hex.bytes("04 02 05 00  30 03 02 01 07  A1 02 05 00")
        let expected: [WalkRecord] = [
            .element(offset: 0, depth: 0, tag: .octetString, headerLength: 2, length: 2),
            .element(offset: 4, depth: 0, tag: .sequence, headerLength: 2, length: 3),
            .element(offset: 6, depth: 1, tag: .integer, headerLength: 2, length: 1),
            .element(offset: 9, depth: 0, tag: .contextSpecific(1), headerLength: 2, length: 2),
            .element(offset: 11, depth: 1, tag: .null, headerLength: 2, length: 0),
        ]
        var records: [WalkRecord] = []
        try bytes.withUnsafeBytes { raw in
            var reader = ASN1Reader(raw, rules: .der)
            try reader.walk { event in
                if case .element(let e) = event {
                    records.append(
                        .element(
                            offset: e.offset, depth: e.depth, tag: e.tag, headerLength: e.headerLength,
                            length: e.contentLength))
                }
            }
            #expect(reader.isAtEnd)
        }
        #expect(records == expected)
    }

    @Test("walk stops at the first error with its offset")
    func walkError() {
        // Third child of the SEQUENCE has a non-minimal length.
        let bytes = Hex.bytes("30 08 05 00 05 00 04 81 01 AA")
        var seen = 0
        let error = caught {
            try ASN1Reader.parse(bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) in
                try r.walk { _ in seen += 1 }
            }
        }
        #expect(error == ASN1Error(.nonMinimalLength, at: 6))
        #expect(seen == 3)
    }

    // MARK: Fixtures

    struct FixtureTree: Sendable, CustomTestStringConvertible {
        let path: String
        let elements: Int
        let constructed: Int
        let maxDepth: Int
        let offsetSum: Int
        let depthSum: Int
        let headerSum: Int
        let indefinite: Int
        let endOfContents: [[Int]]   // [offset, depth]
        /// Whether the file is DER (every Apple-signed receipt and certificate).
        var isDER: Bool { indefinite == 0 }
        var testDescription: String { path }
    }

    static let fixtures: [FixtureTree] = [
        FixtureTree(
            path: "receipts/production.der", elements: 277, constructed: 126, maxDepth: 9, offsetSum: 1_136_779,
            depthSum: 2062, headerSum: 624, indefinite: 0, endOfContents: []),
        FixtureTree(
            path: "receipts/sandbox-g5.der", elements: 277, constructed: 126, maxDepth: 9, offsetSum: 882_811,
            depthSum: 2062, headerSum: 624, indefinite: 0, endOfContents: []),
        FixtureTree(
            path: "receipts/sandbox-legacy.der", elements: 271, constructed: 124, maxDepth: 9, offsetSum: 19_817_062,
            depthSum: 2010, headerSum: 621, indefinite: 0, endOfContents: []),
        FixtureTree(
            path: "receipts/xcode.der", elements: 124, constructed: 60, maxDepth: 9, offsetSum: 99_505,
            depthSum: 868, headerSum: 268, indefinite: 6,
            endOfContents: [[441, 6], [443, 5], [445, 4], [1742, 3], [1744, 2], [1746, 1]]),
        FixtureTree(
            path: "receipts/xcode-with-purchases.der", elements: 124, constructed: 60, maxDepth: 9, offsetSum: 98_515,
            depthSum: 868, headerSum: 268, indefinite: 6,
            endOfContents: [[432, 6], [434, 5], [436, 4], [1733, 3], [1735, 2], [1737, 1]]),
        FixtureTree(
            path: "certs/AppleIncRootCertificate.cer", elements: 73, constructed: 33, maxDepth: 5, offsetSum: 21_545,
            depthSum: 271, headerSum: 164, indefinite: 0, endOfContents: []),
        FixtureTree(
            path: "certs/AppleRootCA-G3.cer", elements: 65, constructed: 31, maxDepth: 5, offsetSum: 14_132,
            depthSum: 238, headerSum: 134, indefinite: 0, endOfContents: []),
        FixtureTree(
            path: "certs/StoreKitTestCertificate.cer", elements: 76, constructed: 35, maxDepth: 5, offsetSum: 18_056,
            depthSum: 282, headerSum: 162, indefinite: 0, endOfContents: []),
    ]

    static func check(_ records: [WalkRecord], against f: FixtureTree) {
        var elements = 0, constructed = 0, maxDepth = 0, offsetSum = 0, depthSum = 0, headerSum = 0, indefinite = 0
        var eocs: [[Int]] = []
        for record in records {
            switch record {
            case let .element(offset, depth, tag, headerLength, length):
                elements += 1
                if tag.isConstructed { constructed += 1 }
                maxDepth = max(maxDepth, depth)
                offsetSum += offset
                depthSum += depth
                headerSum += headerLength
                if length == nil { indefinite += 1 }
            case let .endOfContents(offset, depth):
                eocs.append([offset, depth])
            }
        }
        #expect(elements == f.elements)
        #expect(constructed == f.constructed)
        #expect(maxDepth == f.maxDepth)
        #expect(offsetSum == f.offsetSum)
        #expect(depthSum == f.depthSum)
        #expect(headerSum == f.headerSum)
        #expect(indefinite == f.indefinite)
        #expect(eocs == f.endOfContents)
    }

    @Test("Every fixture walks under BER and matches openssl asn1parse", .enabled(if: Fixtures.shouldRun), arguments: fixtures)
    func fixtureBER(_ f: FixtureTree) throws {
        let bytes = try Fixtures.bytes(f.path)
        let records = try walkRecords(bytes, .ber)
        Self.check(records, against: f)
        // Every value in the file decodes under BER too (strings, times, integers, OIDs, bit strings).
        #expect(caught { try decodeSingle(bytes, .ber) } == nil)
    }

    @Test(
        "Apple-signed receipts and all certificates walk under DER; Xcode receipts fail with indefiniteLength",
        .enabled(if: Fixtures.shouldRun), arguments: fixtures)
    func fixtureDER(_ f: FixtureTree) throws {
        let bytes = try Fixtures.bytes(f.path)
        if f.isDER {
            let records = try walkRecords(bytes, .der)
            Self.check(records, against: f)
            #expect(caught { try decodeSingle(bytes, .der) } == nil)
        } else {
            #expect(caught { try walkRecords(bytes, .der) } == ASN1Error(.indefiniteLength, at: 0))
        }
    }

    @Test("Fixture list covers every receipt the helpers know", .enabled(if: Fixtures.shouldRun))
    func fixtureCoverage() throws {
        let paths = Set(Self.fixtures.map(\.path))
        for name in Fixtures.receiptNames { #expect(paths.contains("receipts/\(name).der"), "\(name)") }
        for name in try Fixtures.files(in: "certs", withExtension: "cer") { #expect(paths.contains("certs/\(name)"), "\(name)") }
    }

    @Test("Truncating a fixture (every 7th cut) never crashes and always fails", .enabled(if: Fixtures.shouldRun))
    func truncatedFixtures() throws {
        for path in ["receipts/xcode.der", "certs/AppleIncRootCertificate.cer"] {
            let bytes = try Fixtures.bytes(path)
            for cut in stride(from: 1, to: bytes.count, by: 7) {
                let prefix = Array(bytes[..<cut])
                #expect(caught { try walkCount(prefix, .ber) } != nil, "\(path) cut at \(cut)")
            }
        }
    }
}
