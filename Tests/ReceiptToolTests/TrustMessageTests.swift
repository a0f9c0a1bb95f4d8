import Foundation
import Testing
import TestHelpers

/// A refusal says which anchors were in use (issue 26): Apple Root CA by default, or the `--root`
/// certificates that replaced it, and that an Apple receipt refused only because of `--root`
/// verifies without it; Xcode data under App Store rules with `--root` still gets the Xcode advice;
/// a token's failure under `--json` prints verifyReceipt's failure object, as receipts do.
@Suite struct TrustMessageTests {
    static func token(_ name: String) -> String { JWSCommandTests.token(name) }

    @Test(.enabled(if: Paths.examplesPresent))
    func appleReceiptUnderAnotherRootNamesBoth() throws {
        let result = try Run.receipt(["verify", Paths.receipt("production"), "--root", Paths.sampleRoot])
        expectRun(
            result, status: 1,
            errorContains: [
                "chain ends at certificate SHA-256 b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024",
                "the chain must end at the --root certificate SHA-256 ", "which replaces Apple's root certificate",
                "it ends at Apple Root CA: verify without --root to trust it",
            ])
    }

    @Test(.enabled(if: Paths.examplesPresent))
    func sampleReceiptUnderAppleRootNamesAppleRoot() throws {
        expectRun(
            try Run.receipt(["verify", Paths.sampleReceipt]), status: 1,
            errorContains: ["the chain must end at Apple Root CA"])
    }

    @Test(.enabled(if: Paths.examplesPresent))
    func xcodeReceiptUnderAnotherRootGetsTheXcodeAdvice() throws {
        expectRun(
            try Run.receipt(["verify", Paths.receipt("xcode"), "--root", Paths.sampleRoot]), status: 1,
            errorContains: ["signed by Xcode's StoreKit Testing certificate", "use --policy xcode"])
    }

    @Test func tokenUnderAnotherRootNamesIt() throws {
        let root = Paths.certificate("AppleRootCA-G3.cer")
        guard FileManager.default.fileExists(atPath: root) else { return }
        // Apple Root CA (the receipts' root) is not the tokens' root: the refusal names what was in use.
        let result = try Run.receipt([
            "verify", Self.token("apple-real-test-notification"), "--root", Paths.certificate("AppleIncRootCertificate.cer"),
        ])
        expectRun(result, status: 1, errorContains: ["the chain must end at Apple Root CA", "it ends at Apple Root CA - G3"])
    }

    @Test func tokenFailureUnderJSONPrintsTheFailureObject() throws {
        let refused = try Run.receipt(["verify", Self.token("xcode-signed-transaction"), "--json"])
        expectRun(refused, status: 1)
        #expect(refused.output == #"{"status":21003}"# + "\n")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let broken = directory.file("broken.jws", text: "eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.AAAA")   // payload "not json"
        let malformed = try Run.receipt(["verify", broken.path, "--json"])
        #expect(malformed.status == 2 && malformed.output == #"{"status":21002}"# + "\n", "\(malformed)")
    }
}
