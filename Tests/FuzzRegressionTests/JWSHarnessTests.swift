// The jws harness (Sources/FuzzTargets/JWSHarness.swift) beyond replaying Fuzz/corpus/jws and
// Fuzz/regressions/jws (CorpusTests.swift does that for every harness): the corpus is exactly what
// JWSSeeds makes, the seed tokens verify as built to (so the harness's success paths run), its
// forgery check can fail, and the shared fixture tokens pass through it once registered.

import AppStoreJWS
import Foundation
import FuzzTargets
import ReceiptTestSupport
import Testing
import TestHelpers
import X509Certificates

@Suite("The jws harness")
struct JWSHarnessTests {
    @Test func corpusIsWhatTheSeedsMake() throws {
        let seeds = FuzzSeeds.corpus(for: .jws)
        let files = FuzzFolders.files("corpus", "jws").map(\.lastPathComponent)
        #expect(files == seeds.map(\.name).sorted(), "Fuzz/corpus/jws is stale: run `swift run --package-path Fuzz make-corpus`")
        for seed in seeds {
            let committed = try? FuzzFolders.bytes(FuzzFolders.fuzz.appendingPathComponent("corpus/jws/" + seed.name))
            #expect(committed == seed.bytes, "\(seed.name) is not what make-corpus writes")
        }
    }

    /// Under the G3 rules anchored at the synthetic root, each seed token verifies or fails as it
    /// was built to; none verifies under Apple's anchors or Xcode's.
    @Test func seedTokensVerifyAsBuilt() throws {
        let root = try TrustAnchor(derEncoded: TestJWSChain().rootCertificate)
        let verifier = JWSVerifier(policy: .appStoreSignedData(anchors: [root]))
        let refused: [String: JWSError] = [
            "alg-none.jws": .unsupportedAlgorithm("none"),
            "crit-header.jws": .unsupportedCriticalHeader,
            "leaf-and-root.jws": .unexpectedChainLength(expected: 3, found: 2),
            "xcode-like.jws": .unexpectedChainLength(expected: 3, found: 1),
            "null-payload.jws": .missingSignedDate,
            "no-signed-date.jws": .missingSignedDate,
        ]
        let tokens = FuzzFolders.files("corpus", "jws").filter { $0.pathExtension == "jws" }
        #expect(tokens.count == 14)
        for file in tokens {
            let token = try FuzzFolders.bytes(file)
            let name = file.lastPathComponent
            let result = Result { () throws(JWSError) in try verifier.verify(token) }
            if let expected = refused[name] {
                #expect(result.map(\.payload) == .failure(expected), "\(name)")
            } else {
                #expect(throws: Never.self, "\(name)") { try result.get() }
            }
            #expect((try? JWSVerifier().verify(token)) == nil, "\(name) verified under Apple Root CA - G3")
            #expect((try? JWSVerifier(policy: .xcodeSignedData).verify(token)) == nil, "\(name) verified under Xcode's certificate")
        }
        // The Xcode-shaped token verifies only when its own certificate is the anchor.
        let xcodeLike = try FuzzFolders.bytes(FuzzFolders.fuzz.appendingPathComponent("corpus/jws/xcode-like.jws"))
        let jws = try CompactJWS(xcodeLike)
        let anchor = TrustAnchor(certificate: try #require(jws.header.certificateChain?.first))
        #expect(throws: Never.self) { try JWSVerifier(policy: .custom(anchors: [anchor])).verify(xcodeLike) }
    }

    /// The forgery check can fail: a token the synthetic leaf signed over a payload that no seed
    /// holds verifies under the synthetic root, so read as a token it is a forgery to the harness.
    /// Handed over as a bare payload, the harness signs it itself and it is genuine.
    @Test func aTokenNobodyRegisteredIsAForgery() throws {
        let payload = "{\"transactionId\":\"not a seed\",\"signedDate\":1709251200000}"
        let token = TestJWSChain().token(payload: payload)
        let violation = #expect(throws: InvariantViolation.self) { try Harness.jws.check(Array(token.utf8)) }
        #expect(violation?.message.contains("forgery") == true, "\(String(describing: violation))")
        #expect(throws: Never.self) { try Harness.jws.check(Array(payload.utf8)) }
    }
}

@Suite("The jws harness over the shared fixture tokens", .enabled(if: Fixtures.shouldRun))
struct JWSFixtureHarnessTests {
    init() {
        // Apple's and Xcode's tokens verify under the App Store and Xcode policies: the harness
        // must know them as genuine (Fuzz/run passes the folder in RECEIPT_FUZZ_KNOWN_GOOD).
        for file in FuzzFolders.fixtures("jws") {
            if let bytes = try? FuzzFolders.bytes(file) { JWSKnownGood.register(bytes) }
        }
    }

    @Test func tokens() throws {
        let files = FuzzFolders.fixtures("jws")
        #expect(files.count >= 7)
        for file in files { try replay(.jws, file) }
    }
}
