// Deterministic mutation runs (a small stand-in for the libFuzzer harness): no input crashes, and
// every input the strict DER reader accepts re-encodes byte for byte (DER has one encoding per value).

import Testing
@testable import DER
import ReceiptTestSupport
import TestHelpers

/// Re-encodes an element from its tag and (for constructed ones) its re-encoded children, with the
/// writer's minimal lengths.
func reencode(_ element: ASN1Element) throws(ASN1Error) -> [UInt8] {
    var writer = DERWriter()
    if element.tag.isConstructed {
        var children = try element.children()
        var content: [UInt8] = []
        while !children.isAtEnd { content += try reencode(try children.readElement()) }
        writer.append(element.tag, content: content)
    } else {
        writer.append(element.tag, content: Array(element.content))
    }
    return writer.bytes
}

func reencodeSingle(_ bytes: [UInt8]) throws(ASN1Error) -> [UInt8] {
    try ASN1Reader.parse(bytes, rules: .der) { (r: inout ASN1Reader) throws(ASN1Error) -> [UInt8] in
        try reencode(try r.readElement())
    }
}

@Suite("Mutations")
struct MutationTests {
    static func mutate(_ seed: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = seed
        for _ in 0 ..< 1 + rng.below(3) {
            guard !bytes.isEmpty else { bytes.append(UInt8(truncatingIfNeeded: rng.next())); continue }
            let i = rng.below(bytes.count)
            switch rng.below(6) {
            case 0: bytes[i] ^= UInt8(1 << rng.below(8))   // bit flip
            case 1: bytes[i] = UInt8(truncatingIfNeeded: rng.next())   // random byte
            case 2: bytes[i] = [0x00, 0x80, 0x81, 0xFF, 0x7F, 0x1F, 0x30, 0x24][rng.below(8)]
            case 3: bytes.remove(at: i)
            case 4: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: i)
            default: bytes.removeSubrange(i...)   // truncate
            }
        }
        return bytes
    }

    static let seeds: [[UInt8]] = [
        Hex.bytes("30 80 02 01 05 24 80 04 02 AA BB 04 00 00 00 31 02 05 00 00 00"),
        Hex.bytes("30 1F 01 01 FF 02 02 00 80 03 02 04 F0 06 03 88 37 03 17 0D 34 39 31 32 33 31 32 33 35 39 35 39 5A"),
        Hex.bytes("31 0C 02 01 01 02 01 02 A0 04 0C 02 68 69"),
        Hex.bytes("A0 80 30 80 18 0F 32 30 32 33 30 31 30 31 31 32 30 30 30 30 5A 00 00 00 00"),
    ]

    @Test("Mutated samples: no crash; DER-accepted inputs re-encode identically")
    func mutatedSamples() throws {
        var rng = SplitMix64(seed: 0xDE5)
        var derAccepted = 0
        for seed in Self.seeds {
            for _ in 0 ..< 4000 {
                let bytes = Self.mutate(seed, &rng)
                _ = caught { try walkCount(bytes, .ber) }
                _ = caught { try decodeSingle(bytes, .ber) }
                if caught({ try decodeSingle(bytes, .der) }) == nil {
                    derAccepted += 1
                    let again = try reencodeSingle(bytes)
                    #expect(again == bytes, "DER accepted a non-canonical encoding: \(Hex.string(bytes))")
                }
            }
        }
        #expect(derAccepted > 0)
    }

    @Test("Mutated certificates: no crash; DER-accepted mutants re-encode identically", .enabled(if: Fixtures.shouldRun))
    func mutatedCertificates() throws {
        var rng = SplitMix64(seed: 0xCE27)
        for path in ["certs/AppleIncRootCertificate.cer", "certs/StoreKitTestCertificate.cer"] {
            let seed = try Fixtures.bytes(path)
            #expect(try reencodeSingle(seed) == seed)
            for _ in 0 ..< 1500 {
                let bytes = Self.mutate(seed, &rng)
                _ = caught { try walkCount(bytes, .ber) }
                if caught({ try decodeSingle(bytes, .der) }) == nil {
                    #expect(try reencodeSingle(bytes) == bytes, "\(path): \(Hex.string(bytes.prefix(16)))…")
                }
            }
        }
    }

    @Test(
        "DER fixtures re-encode byte for byte", .enabled(if: Fixtures.shouldRun),
        arguments: [
            "receipts/production.der", "receipts/sandbox-g5.der", "receipts/sandbox-legacy.der",
            "certs/AppleIncRootCertificate.cer", "certs/AppleRootCA-G3.cer", "certs/StoreKitTestCertificate.cer",
        ])
    func fixturesReencode(_ path: String) throws {
        let bytes = try Fixtures.bytes(path)
        #expect(try reencodeSingle(bytes) == bytes)
    }
}
