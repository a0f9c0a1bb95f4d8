import CryptoPrimitives
import Foundation
import TestHelpers
import Testing

/// NIST CAVP SHA byte-oriented vectors (ShortMsg, LongMsg, Monte) from the shared fixtures and,
/// when `NIST_SHA_DIR` names a folder, from there too. One line per file:
/// `<file name>: N passed, M failed, K skipped`.
@Suite struct NISTVectorTests {
    /// The hash named by a CAVP file name (`SHA256ShortMsg.rsp` → SHA-256); nil for anything else
    /// (SHA-3, SHAKE, …), whose vectors are all skipped.
    static func hashFunction(forFile name: String) -> ((UnsafeRawBufferPointer) -> Digest)? {
        let stem = ["ShortMsg.rsp", "LongMsg.rsp", "Monte.rsp"].reduce(name) { stem, suffix in
            stem.hasSuffix(suffix) ? String(stem.dropLast(suffix.count)) : stem
        }
        switch stem {
        case "SHA1": return SHA1.hash
        case "SHA224": return SHA224.hash
        case "SHA256": return SHA256.hash
        case "SHA384": return SHA384.hash
        case "SHA512": return SHA512.hash
        case "SHA512_224": return SHA512_224.hash
        case "SHA512_256": return SHA512_256.hash
        default: return nil
        }
    }

    struct Tally { var passed = 0, failed = 0, skipped = 0; var total: Int { passed + failed + skipped } }

    /// Runs every vector of one `.rsp` file.
    static func run(file: URL) throws -> Tally {
        let text = try String(contentsOf: file, encoding: .utf8)
        let hash = hashFunction(forFile: file.lastPathComponent)
        var tally = Tally()
        var length: Int?, message: [UInt8]?, seed: [UInt8]?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), !line.hasPrefix("["), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "Len": length = Int(value)
            case "Msg": message = Hex.bytes(value)
            case "Seed": seed = Hex.bytes(value)
            case "MD":
                let expected = Hex.bytes(value)
                defer { length = nil; message = nil }
                if let monteSeed = seed, message == nil {
                    guard let hash else { tally.skipped += 1; continue }
                    let checkpoint = monteCarlo(seed: monteSeed, hash)
                    seed = checkpoint
                    record(checkpoint == expected, &tally, file, "Monte checkpoint")
                } else {
                    guard let hash, let length, let message, length % 8 == 0 else { tally.skipped += 1; continue }
                    let input = Array(message.prefix(length / 8))   // Len = 0 → empty (Msg = 00)
                    let actual = input.withUnsafeBytes { hash($0) }.bytes
                    record(actual == expected, &tally, file, "Len = \(length)")
                }
            default: continue
            }
        }
        return tally
    }

    /// FIPS SHA Monte Carlo (SHAVS §6.4): MD0 = MD1 = MD2 = Seed; Mi = MD(i−3) ‖ MD(i−2) ‖ MD(i−1),
    /// MDi = SHA(Mi) for i = 3…1002; the checkpoint (and next seed) is MD1002.
    static func monteCarlo(seed: [UInt8], _ hash: (UnsafeRawBufferPointer) -> Digest) -> [UInt8] {
        var window = [seed, seed, seed]
        for _ in 3 ... 1002 {
            let next = (window[0] + window[1] + window[2]).withUnsafeBytes { hash($0) }.bytes
            window = [window[1], window[2], next]
        }
        return window[2]
    }

    static func record(_ ok: Bool, _ tally: inout Tally, _ file: URL, _ what: String) {
        if ok {
            tally.passed += 1
        } else {
            tally.failed += 1
            if tally.failed <= 3 { Issue.record("\(file.lastPathComponent): mismatch at \(what)") }
        }
    }

    /// The `.rsp` files of the shared fixtures plus those of `NIST_SHA_DIR`.
    static func vectorFiles() throws -> [URL] {
        var files = try Fixtures.files(in: "vectors/nist-sha", withExtension: "rsp").map { Fixtures.url("vectors/nist-sha/\($0)") }
        if let extra = ProcessInfo.processInfo.environment["NIST_SHA_DIR"], !extra.isEmpty {
            let folder = URL(fileURLWithPath: extra)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".rsp") }.sorted()
            #expect(!names.isEmpty, "NIST_SHA_DIR holds no .rsp files")
            files += names.map { folder.appendingPathComponent($0) }
        }
        return files
    }

    @Test(.enabled(if: Fixtures.shouldRun, "shared fixtures missing"))
    func cavpVectors() throws {
        let files = try Self.vectorFiles()
        #expect(!files.isEmpty)
        for file in files {
            let tally = try Self.run(file: file)
            print("\(file.lastPathComponent): \(tally.passed) passed, \(tally.failed) failed, \(tally.skipped) skipped")
            #expect(tally.failed == 0, "\(file.lastPathComponent): \(tally.failed) vectors failed")
            #expect(tally.total > 0, "\(file.lastPathComponent) yielded no vectors")
        }
    }

    @Test func fileNamesMapToAlgorithms() {
        let empty = [UInt8]()
        let cases: [(String, Int?)] = [
            ("SHA1ShortMsg.rsp", 20), ("SHA224LongMsg.rsp", 28), ("SHA256Monte.rsp", 32), ("SHA384ShortMsg.rsp", 48),
            ("SHA512LongMsg.rsp", 64), ("SHA512_224ShortMsg.rsp", 28), ("SHA512_256Monte.rsp", 32),
            ("SHA3_256ShortMsg.rsp", nil), ("SHAKE128ShortMsg.rsp", nil),
        ]
        for (name, count) in cases {
            let hash = Self.hashFunction(forFile: name)
            #expect(hash.map { f in empty.withUnsafeBytes { f($0) }.count } == count, "\(name)")
        }
        // SHA-512/224 and SHA-512/256 are distinct from SHA-224 and SHA-256.
        let a = empty.withUnsafeBytes { Self.hashFunction(forFile: "SHA512_224ShortMsg.rsp")!($0) }
        #expect(a != SHA224.hash(empty))
    }

    /// The Monte Carlo loop on a short synthetic run, checked against an independent computation
    /// of its definition with the one-shot API.
    @Test func monteCarloFollowsTheDefinition() {
        let seed = Hex.bytes("f41ece2613e4573915696b5adcd51ca328be3bf566a9ca99c9ceb0279c1cb0a7")
        var md = [seed, seed, seed]
        for _ in 3 ... 1002 { md.append(SHA256.hash(md[md.count - 3] + md[md.count - 2] + md[md.count - 1]).bytes) }
        #expect(Self.monteCarlo(seed: seed, SHA256.hash) == md[1002])
    }
}
