import Foundation

/// Wycheproof ECDSA verification vectors (`ecdsa_*_test.json`), read into plain values so that
/// the P1363 runner (CryptoPrimitivesTests) and the DER runner (PKCS7Tests) share one reader and
/// one tally. The runners supply the verification; this decides what each vector expects.
public enum WycheproofECDSAVectors {
    /// One test group: a public key, a hash and its tests.
    public struct Group {
        /// The group type: `EcdsaP1363Verify` or `EcdsaVerify` (DER); others are skipped by runners.
        public let type: String
        /// `secp256r1`, `secp384r1`, … (lower case, as Wycheproof spells them).
        public let curve: String
        /// `SHA-256`, `SHA3-384`, …
        public let sha: String
        /// The SEC 1 uncompressed point, when the group gives one.
        public let uncompressedKey: [UInt8]?
        public let tests: [Test]
    }

    public struct Test {
        public let id: Int
        public let comment: String
        public let flags: [String]
        /// `valid`, `invalid` or `acceptable`.
        public let result: String
        public let message: [UInt8]
        public let signature: [UInt8]
    }

    /// What we do with `acceptable` vectors, per flag; a vector with none of these flags is
    /// skipped and counted (no decision made for it).
    /// - BerEncodedSignature: r and s in a BER, not DER, encoding (older Wycheproof files call
    ///   these acceptable). Certificates' signatures must be DER (X.690 §10, RFC 5280 §4.1.1.3),
    ///   and one signature should have one encoding: rejected.
    /// - MissingZero: an INTEGER without the leading zero a positive value with its top bit set
    ///   needs, which DER reads as negative: rejected.
    public static let acceptableDecisions: [String: Bool] = ["BerEncodedSignature": false, "MissingZero": false]

    /// Per-file counts, printed as `<file>: N passed, M failed, K skipped`.
    public struct Tally {
        public var passed = 0, failed = 0, skipped = 0
        public var total: Int { passed + failed + skipped }
        public init() {}
    }

    /// The groups of a vector file (both schemas: `publicKey` and the older `key`).
    public static func groups(in file: URL) throws -> [Group] {
        let data = try Data(contentsOf: file)
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let groups = root["testGroups"] as? [[String: Any]]
        else { return [] }
        return groups.map { group in
            let key = (group["publicKey"] ?? group["key"]) as? [String: Any]
            let tests = (group["tests"] as? [[String: Any]] ?? []).map { test in
                Test(
                    id: test["tcId"] as? Int ?? -1, comment: test["comment"] as? String ?? "",
                    flags: test["flags"] as? [String] ?? [], result: test["result"] as? String ?? "",
                    message: Hex.bytes(test["msg"] as? String ?? ""), signature: Hex.bytes(test["sig"] as? String ?? ""))
            }
            return Group(
                type: group["type"] as? String ?? "", curve: (key?["curve"] as? String ?? "").lowercased(),
                sha: group["sha"] as? String ?? "", uncompressedKey: (key?["uncompressed"] as? String).map(Hex.bytes),
                tests: tests)
        }
    }

    /// The expected verification result of a test: `nil` for an `acceptable` vector without a
    /// decision (or an unknown result), which the runner counts as skipped.
    public static func expectation(_ test: Test) -> Bool? {
        switch test.result {
        case "valid": true
        case "invalid": false
        case "acceptable": test.flags.lazy.compactMap { acceptableDecisions[$0] }.first
        default: nil
        }
    }

    /// The `ecdsa_*_test.json` files of the shared fixtures and of `WYCHEPROOF_DIR` (when set)
    /// whose groups include `groupType`.
    public static func files(withGroupType groupType: String) throws -> [URL] {
        func isVectorFile(_ name: String) -> Bool { name.hasPrefix("ecdsa_") && name.hasSuffix("_test.json") }
        var files = try Fixtures.files(in: "vectors/wycheproof", withExtension: "json").filter(isVectorFile)
            .map { Fixtures.url("vectors/wycheproof/\($0)") }
        if let extra = ProcessInfo.processInfo.environment["WYCHEPROOF_DIR"], !extra.isEmpty {
            let folder = URL(fileURLWithPath: extra)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter(isVectorFile).sorted()
            files += names.map { folder.appendingPathComponent($0) }
        }
        return try files.filter { try groups(in: $0).contains { $0.type == groupType } }
    }
}
