import CryptoPrimitives
import Foundation
import TestHelpers
import ReceiptTestSupport
import Testing

/// Wycheproof ECDSA vectors with IEEE P1363 signatures (`EcdsaP1363Verify` groups) from the shared
/// fixtures and, when `WYCHEPROOF_DIR` names a folder, from there too. One line per file:
/// `<file name>: N passed, M failed, K skipped`. Groups on other curves (P-521, brainpool,
/// secp256k1, …) or with hashes we lack (SHA3, SHA-512/256, …) are skipped and counted.
/// Which `acceptable` vectors we accept: `WycheproofECDSAVectors.acceptableDecisions`.
@Suite struct WycheproofECDSATests {
    static func run(file: URL) throws -> WycheproofECDSAVectors.Tally {
        var tally = WycheproofECDSAVectors.Tally()
        for group in try WycheproofECDSAVectors.groups(in: file) {
            guard group.type == "EcdsaP1363Verify", let curve = WycheproofNames.curve(group.curve),
                let hash = WycheproofNames.hashAlgorithm(group.sha),
                let keyBytes = group.uncompressedKey
            else {
                tally.skipped += group.tests.count
                continue
            }
            // A key the initializer refuses verifies nothing: its valid vectors count as failed.
            let key = try? ECDSAPublicKey(curve: curve, x963Representation: keyBytes)
            // The same key with its table (P-256's split multiplication) must answer every vector alike.
            let tabled = key?.withVerificationTable()
            for test in group.tests {
                guard let expected = WycheproofECDSAVectors.expectation(test) else {
                    tally.skipped += 1
                    continue
                }
                let digest = hash.hash(test.message)
                let verified = key?.isValidSignature(rawRepresentation: test.signature, digest: digest) ?? false
                let verifiedWithTable = tabled?.isValidSignature(rawRepresentation: test.signature, digest: digest) ?? false
                if verifiedWithTable != verified {
                    tally.failed += 1
                    Issue.record("\(file.lastPathComponent) tcId \(test.id): \(verified) without the key's table, \(verifiedWithTable) with it")
                    continue
                }
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

    @Test(.enabled(if: Fixtures.shouldRun, "shared fixtures missing"))
    func p1363Vectors() throws {
        let files = try WycheproofECDSAVectors.files(withGroupType: "EcdsaP1363Verify")
        let names = Set(files.map(\.lastPathComponent))
        // The two files the shared fixtures must hold; a missing one fails (under CI: always).
        for required in ["ecdsa_secp256r1_sha256_p1363_test.json", "ecdsa_secp384r1_sha384_p1363_test.json"] {
            #expect(names.contains(required), "\(required) missing")
        }
        for file in files {
            let tally = try Self.run(file: file)
            print("\(file.lastPathComponent): \(tally.passed) passed, \(tally.failed) failed, \(tally.skipped) skipped")
            #expect(tally.failed == 0, "\(file.lastPathComponent): \(tally.failed) vectors failed")
            #expect(tally.passed > 0, "\(file.lastPathComponent) yielded no vectors")
        }
    }
}
