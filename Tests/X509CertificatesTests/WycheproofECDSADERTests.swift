import CryptoPrimitives
import DER
import Foundation
import X509Certificates
import ReceiptTestSupport
import TestHelpers
import Testing

/// DER `ECDSA-Sig-Value` verification (`ECDSAPublicKey.isValidSignature(derEncoded:digest:)`):
/// Wycheproof's DER files (`EcdsaVerify` groups) from `WYCHEPROOF_DIR` when it is set, the shared
/// P1363 vectors re-encoded as DER, and a table of encodings the strict reader must refuse.
@Suite struct WycheproofECDSADERTests {
    /// Runs the groups of `groupType`; `encode` turns a vector's signature into the DER to verify
    /// (nil: skip the vector).
    static func run(file: URL, groupType: String, encode: ([UInt8], EllipticCurve) -> [UInt8]?) throws -> WycheproofECDSAVectors.Tally {
        var tally = WycheproofECDSAVectors.Tally()
        for group in try WycheproofECDSAVectors.groups(in: file) {
            guard group.type == groupType, let curve = WycheproofNames.curve(group.curve), let hash = WycheproofNames.hashAlgorithm(group.sha),
                let keyBytes = group.uncompressedKey
            else {
                tally.skipped += group.tests.count
                continue
            }
            let key = try? ECDSAPublicKey(curve: curve, x963Representation: keyBytes)
            for test in group.tests {
                guard let expected = WycheproofECDSAVectors.expectation(test), let der = encode(test.signature, curve) else {
                    tally.skipped += 1
                    continue
                }
                let verified = key?.isValidSignature(derEncoded: der, digest: hash.hash(test.message)) ?? false
                if verified == expected {
                    tally.passed += 1
                } else {
                    tally.failed += 1
                    Issue.record("\(file.lastPathComponent) tcId \(test.id) (\(test.result), \(test.flags), \(test.comment)): verified = \(verified)")
                }
            }
        }
        return tally
    }

    /// Every `ecdsa_*` file of `WYCHEPROOF_DIR` with DER groups (the shared fixtures hold none).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["WYCHEPROOF_DIR"].map { !$0.isEmpty } ?? false))
    func derVectorsFromWycheproofDirectory() throws {
        let files = try WycheproofECDSAVectors.files(withGroupType: "EcdsaVerify")
        #expect(!files.isEmpty, "WYCHEPROOF_DIR holds no ecdsa_* files with EcdsaVerify groups")
        for file in files {
            let tally = try Self.run(file: file, groupType: "EcdsaVerify") { signature, _ in signature }
            print("\(file.lastPathComponent): \(tally.passed) passed, \(tally.failed) failed, \(tally.skipped) skipped")
            #expect(tally.failed == 0, "\(file.lastPathComponent): \(tally.failed) vectors failed")
        }
    }

    /// The shared P1363 vectors through the DER path: r and s of every well-sized signature
    /// re-encoded as a minimal DER SEQUENCE must give the P1363 answer.
    @Test(.enabled(if: Fixtures.shouldRun, "shared fixtures missing"))
    func p1363VectorsReencodedAsDER() throws {
        let files = try WycheproofECDSAVectors.files(withGroupType: "EcdsaP1363Verify")
        #expect(!files.isEmpty)
        for file in files {
            let tally = try Self.run(file: file, groupType: "EcdsaP1363Verify") { signature, curve in
                guard signature.count == 2 * curve.byteCount else { return nil }   // the size rule is P1363's own
                return Self.der(r: Array(signature[..<curve.byteCount]), s: Array(signature[curve.byteCount...]))
            }
            print("\(file.lastPathComponent) as DER: \(tally.passed) passed, \(tally.failed) failed, \(tally.skipped) skipped")
            #expect(tally.failed == 0)
            #expect(tally.passed > 0)
        }
    }

    static func der(r: [UInt8], s: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.appendSequence { sequence in
            sequence.appendUnsignedInteger(r)
            sequence.appendUnsignedInteger(s)
        }
        return writer.bytes
    }

    /// X.690 DER strictness: each encoding of a valid signature that is not the one DER encoding
    /// is refused, and so is every malformed one.
    @Test(arguments: [TestECKeys.p256[0], TestECKeys.p384[0]])
    func strictDER(_ key: TestECSigningKey) throws {
        let digest = key.hashAlgorithm.hash(Array("strict DER".utf8))
        let raw = key.sign(digest: digest), half = key.curve.byteCount
        let r = Array(raw[..<half]).drop { $0 == 0 }, s = Array(raw[half...]).drop { $0 == 0 }
        func integer(_ magnitude: some Collection<UInt8>) -> [UInt8] {
            let content = (magnitude.first! & 0x80 != 0 ? [0] : []) + Array(magnitude)
            return [0x02, UInt8(content.count)] + content
        }
        func sequence(_ content: [UInt8]) -> [UInt8] {
            content.count < 0x80 ? [0x30, UInt8(content.count)] + content : [0x30, 0x81, UInt8(content.count)] + content
        }
        let good = sequence(integer(r) + integer(s))
        #expect(good == key.signDER(digest: digest))
        #expect(key.publicKey.isValidSignature(derEncoded: good, digest: digest))

        let bad: [(String, [UInt8])] = [
            ("empty", []),
            ("trailing byte after the SEQUENCE", good + [0x00]),
            ("trailing INTEGER inside the SEQUENCE", sequence(integer(r) + integer(s) + [0x02, 0x01, 0x01])),
            ("s missing", sequence(integer(r))),
            ("truncated", Array(good.dropLast())),
            ("non-minimal length of the SEQUENCE", [0x30, 0x82, 0x00, UInt8(good.count - 2)] + good[2...]),
            ("long form for a short length", good.count - 2 < 0x80 ? [0x30, 0x81, UInt8(good.count - 2)] + good[2...] : [0x30, 0x82] + good[1...]),
            ("indefinite length", [0x30, 0x80] + integer(r) + integer(s) + [0x00, 0x00]),
            ("non-minimal INTEGER r (extra leading zero)", sequence([0x02, UInt8(integer(r).count - 1)] + [0x00] + integer(r)[2...] + integer(s))),
            ("non-minimal length of r", sequence([0x02, 0x81, UInt8(integer(r).count - 2)] + integer(r)[2...] + integer(s))),
            ("negative r (sign bit set)", sequence([0x02, UInt8(r.count + 1), 0x80] + r + integer(s))),
            ("negative s", sequence(integer(r) + [0x02, 0x01, 0xff])),
            ("SET instead of SEQUENCE", [0x31] + good[1...]),
            ("OCTET STRING instead of INTEGER", sequence([0x04] + integer(r)[1...] + integer(s))),
            ("constructed INTEGER", sequence([0x22] + integer(r)[1...] + integer(s))),
            ("primitive SEQUENCE", [0x10] + good[1...]),
            ("empty INTEGER", sequence([0x02, 0x00] + integer(s))),
            ("r = 0", sequence([0x02, 0x01, 0x00] + integer(s))),
            ("swapped r and s", sequence(integer(s) + integer(r))),
        ]
        for (name, bytes) in bad {
            #expect(!key.publicKey.isValidSignature(derEncoded: bytes, digest: digest), "\(name) was accepted")
        }
    }
}
