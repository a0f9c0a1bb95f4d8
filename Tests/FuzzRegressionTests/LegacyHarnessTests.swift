// The legacy harness (Sources/FuzzTargets/LegacyHarness.swift) beyond replaying Fuzz/corpus/legacy
// and Fuzz/regressions/legacy (CorpusTests.swift does that for every harness): the corpus is
// exactly what LegacySeeds makes, the seed receipts verify under the synthetic roots (so the
// harness's success paths run), its forgery check can fail, and the shared fixture receipt passes
// through it once registered.

import Foundation
import FuzzTargets
import LegacyReceipt
import ReceiptTestSupport
import Testing
import TestHelpers
import X509Certificates

@Suite("The legacy harness")
struct LegacyHarnessTests {
    @Test func corpusIsWhatTheSeedsMake() throws {
        let seeds = FuzzSeeds.corpus(for: .legacy)
        let files = FuzzFolders.files("corpus", "legacy").map(\.lastPathComponent)
        #expect(files == seeds.map(\.name).sorted(), "Fuzz/corpus/legacy is stale: run `swift run --package-path Fuzz make-corpus`")
        for seed in seeds {
            let committed = try? FuzzFolders.bytes(FuzzFolders.fuzz.appendingPathComponent("corpus/legacy/" + seed.name))
            #expect(committed == seed.bytes, "\(seed.name) is not what make-corpus writes")
        }
    }

    @Test func seedReceiptsVerifyUnderTheirRoots() throws {
        for name in ["v2.txt", "v3.txt", "v3-subscription.txt", "v2-base64.txt"] {
            let receipt = try TransactionReceipt(try FuzzFolders.bytes(FuzzFolders.fuzz.appendingPathComponent("corpus/legacy/" + name)))
            let chain = TestLegacyChain(version: Int(receipt.signature.version.rawValue))
            let policy = LegacyTrustPolicy.appStore(
                anchors: [try TrustAnchor(derEncoded: chain.rootCertificate)],
                intermediates: [try Certificate(derEncoded: chain.intermediateCertificate)])
            #expect(throws: Never.self, "\(name)") { try receipt.verify(policy: policy) }
            #expect(throws: TransactionReceiptValidationError.self, "\(name) under Apple Root CA") { try receipt.verify() }
        }
    }

    /// A receipt the synthetic signer made over purchase-info no seed holds verifies under the
    /// synthetic root, so to the harness it is a forgery.
    @Test func aReceiptNobodyRegisteredIsAForgery() throws {
        var receipt = TestTransactionReceipt(version: 3)
        receipt.purchaseInfo.append(("not-a-seed", "1"))
        let violation = #expect(throws: InvariantViolation.self) { try Harness.legacy.check(receipt.text) }
        #expect(violation?.message.contains("forgery") == true, "\(String(describing: violation))")
    }
}

@Suite("The legacy harness over the shared fixture receipt", .enabled(if: Fixtures.shouldRun))
struct LegacyFixtureHarnessTests {
    init() {
        // The real receipt verifies under Apple Root CA: the harness must know it as genuine
        // (Fuzz/run passes the folder in RECEIPT_FUZZ_KNOWN_GOOD).
        for file in FuzzFolders.fixtures("ios6") {
            if let bytes = try? FuzzFolders.bytes(file) { KnownGood.register(bytes) }
        }
    }

    @Test func fixtures() throws {
        let files = FuzzFolders.fixtures("ios6")
        #expect(files.count >= 4)
        for file in files { try replay(.legacy, file) }
    }
}
