import CryptoPrimitives
import Foundation
import TestHelpers
import ReceiptTestSupport
import Testing

/// Wycheproof RSASSA-PKCS1-v1_5 verification vectors (`rsa_signature_*_test.json`) from the
/// shared fixtures and, when `WYCHEPROOF_DIR` names a folder, from there too. One line per file:
/// `<file name>: N passed, M failed, K skipped`.
@Suite struct WycheproofTests {
    /// What we do with `acceptable` vectors, per flag. A vector whose flags are not listed here is
    /// skipped (no decision has been made for it).
    /// - MissingNull: the DigestInfo omits the NULL parameters. RFC 8017 §9.2 note 1 gives the one
    ///   encoding with NULL, and we compare against that single encoding (DESIGN §4), so we reject.
    /// - SmallPublicKey: a correct signature under a key with e = 3 (in Wycheproof, a "short"
    ///   signature whose cube does not wrap around n). Exponent 3 is supported (DESIGN §4) and
    ///   RFC 8017 §8.2.2 sets no lower bound on s, so the signature is valid and we accept.
    static let acceptableDecisions: [String: Bool] = ["MissingNull": false, "SmallPublicKey": true]

    struct Tally { var passed = 0, failed = 0, skipped = 0, unsupportedKeySize = 0; var total: Int { passed + failed + skipped } }

    static func run(file: URL) throws -> Tally {
        let data = try Data(contentsOf: file)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let groups = try #require(root["testGroups"] as? [[String: Any]])
        var tally = Tally()
        for group in groups {
            let tests = group["tests"] as? [[String: Any]] ?? []
            // Verification groups only (`RsassaPkcs1Verify`; older files name no type or `RSASigVer`).
            if let type = group["type"] as? String, type != "RsassaPkcs1Verify", type != "RSASigVer" {
                tally.skipped += tests.count
                continue
            }
            // Both schemas: `publicKey: {modulus, publicExponent}` and the older group-level `n`, `e`.
            let publicKey = group["publicKey"] as? [String: Any]
            guard let modulusHex = (publicKey?["modulus"] ?? group["n"]) as? String,
                let exponentHex = (publicKey?["publicExponent"] ?? group["e"]) as? String,
                let algorithm = WycheproofNames.hashAlgorithm(group["sha"] as? String)
            else {
                tally.skipped += tests.count
                continue
            }
            let modulus = Hex.bytes(evenHex(modulusHex)), exponent = Hex.bytes(evenHex(exponentHex))
            let bits = bitCount(modulus)
            guard RSAPublicKey.supportedModulusBits.contains(bits) else {
                // Outside 1024…8192 bits: our key type refuses such keys by design; not counted as failures.
                tally.skipped += tests.count
                tally.unsupportedKeySize += tests.count
                continue
            }
            let key = try? RSAPublicKey(modulus: modulus, exponent: exponent)
            for test in tests {
                let id = test["tcId"] as? Int ?? -1
                let result = test["result"] as? String ?? ""
                let flags = test["flags"] as? [String] ?? []
                let expected: Bool
                switch result {
                case "valid": expected = true
                case "invalid": expected = false
                case "acceptable":
                    guard let decision = flags.lazy.compactMap({ acceptableDecisions[$0] }).first else {
                        tally.skipped += 1
                        continue
                    }
                    expected = decision
                default:
                    tally.skipped += 1
                    continue
                }
                let message = Hex.bytes(test["msg"] as? String ?? "")
                let signature = Hex.bytes(test["sig"] as? String ?? "")
                // A key the initializer refuses verifies nothing: its valid vectors count as failed.
                let verified = key?.isValidSignature(signature, digest: algorithm.hash(message), algorithm: algorithm) ?? false
                if verified == expected {
                    tally.passed += 1
                } else {
                    tally.failed += 1
                    Issue.record("\(file.lastPathComponent) tcId \(id) (\(result), \(flags)): verified = \(verified)")
                }
            }
        }
        return tally
    }

    static func evenHex(_ hex: String) -> String { hex.count % 2 == 0 ? hex : "0" + hex }

    static func bitCount(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.count - first) * 8 - bytes[first].leadingZeroBitCount
    }

    static func vectorFiles() throws -> [URL] {
        func isVectorFile(_ name: String) -> Bool { name.hasPrefix("rsa_signature_") && name.hasSuffix("_test.json") }
        var files = try Fixtures.files(in: "vectors/wycheproof", withExtension: "json").filter(isVectorFile)
            .map { Fixtures.url("vectors/wycheproof/\($0)") }
        if let extra = ProcessInfo.processInfo.environment["WYCHEPROOF_DIR"], !extra.isEmpty {
            let folder = URL(fileURLWithPath: extra)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter(isVectorFile).sorted()
            #expect(!names.isEmpty, "WYCHEPROOF_DIR holds no rsa_signature_*_test.json files")
            files += names.map { folder.appendingPathComponent($0) }
        }
        return files
    }

    @Test(.enabled(if: Fixtures.shouldRun, "shared fixtures missing"))
    func rsaSignatureVectors() throws {
        let files = try Self.vectorFiles()
        #expect(!files.isEmpty)
        for file in files {
            let tally = try Self.run(file: file)
            let note =
                tally.unsupportedKeySize > 0
                ? " (\(tally.unsupportedKeySize) of them with key sizes outside 1024…8192 bits)" : ""
            print("\(file.lastPathComponent): \(tally.passed) passed, \(tally.failed) failed, \(tally.skipped) skipped\(note)")
            #expect(tally.failed == 0, "\(file.lastPathComponent): \(tally.failed) vectors failed")
            #expect(tally.total > 0, "\(file.lastPathComponent) yielded no vectors")
        }
    }
}
