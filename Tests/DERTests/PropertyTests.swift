// Seeded random round trips writer → reader, checked against properties computed here
// independently (minimal two's-complement width, base-128 arc widths, calendar ranges).

import Testing
@testable import DER
import ReceiptTestSupport
import TestHelpers

@Suite("Random round trips")
struct PropertyTests {
    /// Random Int64 with a random number of significant bits, so every width 1…8 occurs.
    static func randomInt64(_ rng: inout SplitMix64) -> Int64 {
        let bits = rng.below(64) + 1
        let raw = Int64(bitPattern: rng.next())
        return bits == 64 ? raw : raw >> (64 - bits)
    }

    /// Smallest n with -2^(8n-1) ≤ v < 2^(8n-1) (X.690 §8.3.2 minimal octets).
    static func minimalWidth(_ v: Int64) -> Int {
        for n in 1 ... 7 where v >= -(Int64(1) << (8 * n - 1)) && v < Int64(1) << (8 * n - 1) { return n }
        return 8
    }

    @Test("INTEGER: 20,000 random Int64 values")
    func integers() throws {
        var rng = SplitMix64(seed: 42)
        for _ in 0 ..< 20_000 {
            let v = Self.randomInt64(&rng)
            var w = DERWriter()
            w.appendInteger(v)
            let width = Self.minimalWidth(v)
            #expect(w.bytes.count == 2 + width, "\(v)")
            let read = try ASN1Reader.parse(w.bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) -> Int64 in try r.readInt64() }
            #expect(read == v)
        }
    }

    @Test("Unsigned INTEGER: 20,000 random UInt64 magnitudes")
    func unsignedIntegers() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0 ..< 20_000 {
            let bits = rng.below(64) + 1
            let v = bits == 64 ? rng.next() : rng.next() >> UInt64(64 - bits)
            let bigEndian = (0 ..< 8).map { UInt8(truncatingIfNeeded: v >> UInt64(56 - 8 * $0)) }
            var w = DERWriter()
            w.appendUnsignedInteger(bigEndian)
            // Significant octets, plus a 00 when the top bit of the first is set.
            let significant = max(1, (64 - v.leadingZeroBitCount + 7) / 8)
            let topBitSet = v != 0 && (v >> UInt64(8 * significant - 1)) & 1 == 1
            #expect(w.bytes.count == 2 + significant + (topBitSet ? 1 : 0), "\(v)")
            let read = try ASN1Reader.parse(w.bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) -> UInt64 in try r.readUInt64() }
            #expect(read == v)
        }
    }

    @Test("OBJECT IDENTIFIER: 5,000 random identifiers, dotted text round trip")
    func objectIdentifiers() throws {
        var rng = SplitMix64(seed: 99)
        for _ in 0 ..< 5_000 {
            let first = rng.below(3)
            let second: UInt64 = first == 2 ? rng.next() >> UInt64(rng.below(64) + 7) : UInt64(rng.below(40))
            var arcs: [UInt64] = [UInt64(first), second]
            for _ in 0 ..< rng.below(8) { arcs.append(rng.next() >> UInt64(rng.below(64))) }
            let dotted = arcs.map(String.init).joined(separator: ".")
            let oid = try #require(ASN1ObjectIdentifier(dotted: dotted), "\(dotted)")
            #expect(oid.description == dotted)
            // Each sub-identifier takes ceil(bits / 7) octets (at least one).
            func width(_ x: UInt64) -> Int { max(1, (64 - x.leadingZeroBitCount + 6) / 7) }
            let expectedCount = width(arcs[0] * 40 + arcs[1]) + arcs.dropFirst(2).map(width).reduce(0, +)
            #expect(oid.encodedContent.count == expectedCount, "\(dotted)")
            var w = DERWriter()
            w.appendObjectIdentifier(oid)
            let text = try withElement(w.bytes, .der) { e throws(ASN1Error) in try e.objectIdentifierValue().description }
            #expect(text == dotted)
        }
    }

    @Test("Times: 5,000 random instants through UTCTime/GeneralizedTime")
    func times() throws {
        var rng = SplitMix64(seed: 2024)
        let first: Int64 = -62_135_596_800   // 0001-01-01T00:00:00Z
        let last: Int64 = 253_402_300_799   // 9999-12-31T23:59:59Z
        for _ in 0 ..< 5_000 {
            let seconds = first + Int64(rng.next() % UInt64(last - first + 1))
            var w = DERWriter()
            w.appendTime(seconds)
            let isUTC = (-631_152_000 ... 2_524_607_999).contains(seconds)   // 1950 … 2049
            #expect(w.bytes[0] == (isUTC ? 0x17 : 0x18))
            #expect(w.bytes.count == (isUTC ? 15 : 17))
            let read = try ASN1Reader.parse(w.bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) -> Int64 in try r.readTime() }
            #expect(read == seconds)
        }
    }
}
