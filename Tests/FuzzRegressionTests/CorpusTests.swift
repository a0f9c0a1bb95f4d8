// Replays every fuzz harness (Sources/FuzzTargets) over its seed corpus, Fuzz/corpus/<target>/,
// and over every input that ever crashed, hung or broke an invariant, Fuzz/regressions/<target>/,
// so `swift test` exercises the harness logic and keeps every finding fixed, no fuzzer needed.

import AppReceipt
import Foundation
import FuzzTargets
import PKCS7
import X509Certificates
import Testing
import TestHelpers

enum FuzzFolders {
    /// `Fuzz/` of this checkout.
    static let fuzz = Fixtures.packageRoot.appendingPathComponent("Fuzz")

    /// The files of `Fuzz/<kind>/<target>/` (`kind` is `corpus` or `regressions`), sorted; empty
    /// when the folder does not exist. README files are not inputs.
    static func files(_ kind: String, _ target: String) -> [URL] {
        let folder = fuzz.appendingPathComponent(kind).appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// The shared fixtures of a kind (`receipts`, `certs`), when present.
    static func fixtures(_ folder: String) -> [URL] {
        guard Fixtures.isPresent else { return [] }
        return ((try? Fixtures.files(in: folder)) ?? []).map { Fixtures.url(folder + "/" + $0) }
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }
}

/// Runs `harness` over `file`, recording a broken invariant as a test failure.
func replay(_ harness: Harness, _ file: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let bytes = try FuzzFolders.bytes(file)
    do {
        try harness.check(bytes)
    } catch {
        Issue.record("\(file.lastPathComponent): \(error)", sourceLocation: sourceLocation)
    }
}

@Suite("Fuzz harnesses over the seed corpora")
struct SeedCorpusTests {
    @Test(arguments: Harness.allCases)
    func seeds(_ harness: Harness) throws {
        let files = FuzzFolders.files("corpus", harness.rawValue)
        #expect(files.count >= 5, "Fuzz/corpus/\(harness.rawValue) is missing or nearly empty: run `swift run --package-path Fuzz make-corpus`")
        for file in files { try replay(harness, file) }
    }

    /// Every seed of every corpus is also a DER/BER input.
    @Test func everySeedThroughTheDERHarness() throws {
        for harness in Harness.allCases where harness != .der {
            for file in FuzzFolders.files("corpus", harness.rawValue) { try replay(.der, file) }
        }
    }

    /// Synthetic receipts that verify under the synthetic root must be ones the harness knows;
    /// the corpus is what `FuzzSeeds` generates, so the two cannot drift apart unnoticed.
    @Test func receiptCorpusMatchesTheSeeds() throws {
        let files = FuzzFolders.files("corpus", "receipt").map(\.lastPathComponent)
        let expected = FuzzSeeds.receiptSeeds.map { $0.name + ".der" }.sorted()
        #expect(files == expected, "Fuzz/corpus/receipt is stale: run `swift run --package-path Fuzz make-corpus`")
    }
}

/// The receipt harness's success path must run too: the synthetic receipt seeds verify under
/// the synthetic root, except those built not to.
@Suite("Seed receipts verify as intended")
struct SeedValidityTests {
    @Test func syntheticReceiptsVerifyUnderTheTestRoot() throws {
        let root = try TrustAnchor(derEncoded: try FuzzFolders.bytes(FuzzFolders.fuzz.appendingPathComponent("corpus/certificate/test-root.der")))
        let invalid: Set<String> = ["leaf-only.der", "apple-root-impersonation.der"]
        for file in FuzzFolders.files("corpus", "receipt") {
            let receipt = try AppReceipt(try FuzzFolders.bytes(file))
            let valid = (try? receipt.validate(policy: .appStore(anchors: [root]))) != nil
            #expect(valid == !invalid.contains(file.lastPathComponent), "\(file.lastPathComponent): valid \(valid)")
            #expect((try? receipt.validate()) == nil, "\(file.lastPathComponent) verified under Apple Root CA")
        }
    }
}

@Suite("Fuzz regressions: every input that ever failed")
struct RegressionTests {
    @Test(arguments: Harness.allCases)
    func regressions(_ harness: Harness) throws {
        for file in FuzzFolders.files("regressions", harness.rawValue) { try replay(harness, file) }
    }
}

@Suite("Fuzz harnesses over the shared fixtures", .enabled(if: Fixtures.shouldRun))
struct FixtureHarnessTests {
    init() {
        // Real receipts verify under the App Store and Xcode policies: the receipt harness must
        // know them as genuine.
        for file in FuzzFolders.fixtures("receipts") + FuzzFolders.fixtures("certs") {
            if let bytes = try? FuzzFolders.bytes(file) { KnownGood.register(bytes) }
        }
    }

    @Test func receipts() throws {
        let files = FuzzFolders.fixtures("receipts")
        #expect(!files.isEmpty)
        for file in files {
            for harness in [Harness.der, .pkcs7, .receipt] { try replay(harness, file) }
        }
    }

    @Test func certificates() throws {
        let files = FuzzFolders.fixtures("certs")
        #expect(!files.isEmpty)
        for file in files {
            for harness in [Harness.der, .certificate] { try replay(harness, file) }
        }
    }
}
