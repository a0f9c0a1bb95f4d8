import Foundation
import HummingbirdTesting
@testable import ReceiptService
import Testing
import X509Certificates

/// The inspector's messages name the server's own switches and the anchors in use (issue 26):
/// an Apple receipt on a server started with `--root` says the `--root` certificate replaced
/// Apple's root and that the server would trust it without `--root`; an Xcode receipt there is
/// told about `--allow-xcode` (not the tool's `--policy xcode`); bytes that are no receipt say so.
@Suite struct InspectorMessageTests {
    func withServer(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        var configuration = TestServer.configuration(try await TestDatabase.make(.sqlite), roots: [InspectorTests.sampleRoot])
        configuration.inspector = true
        try await TestServer.with(configuration, body)
    }

    @Test func appleReceiptUnderRootNamesTheReplacement() async throws {
        guard Fixtures.shouldRun else { return }
        let bytes = try Fixtures.bytes("receipts/production.der")
        try await withServer { client in
            let report = try await InspectorTests.inspect(client, bytes)
            let message = try #require(report["message"] as? String)
            #expect(report["status"] as? Int == 21003)
            #expect(
                message.contains("the chain must end at the --root certificate SHA-256 ")
                    && message.contains("which replaces Apple's root certificate")
                    && message.contains("it ends at Apple Root CA: start the server without --root to trust it"), "\(message)")
        }
    }

    @Test func xcodeReceiptNamesAllowXcode() async throws {
        guard Fixtures.shouldRun else { return }
        let bytes = try Fixtures.bytes("receipts/xcode.der")
        try await withServer { client in
            let message = try #require(try await InspectorTests.inspect(client, bytes)["message"] as? String)
            #expect(
                message.contains("signed by Xcode's StoreKit Testing certificate") && message.contains("--allow-xcode")
                    && !message.contains("--policy"), "\(message)")
        }
    }

    /// The server's switches (`HintSwitches.receiptServer`), word for word: the library's hint
    /// builders state the facts, the server names `--root` and `--allow-xcode`.
    @Test func serverSwitchesWordTheAdvice() throws {
        let switches = HintSwitches.receiptServer
        #expect(switches.judgeAtCreation == nil)   // the server never judges at the current time
        #expect(
            SignerOrigin.xcodeTesting.hint(for: "receipt", switches: switches)
                == "to accept Xcode test receipts start receipt-server with --allow-xcode and send them to the sandbox endpoint")
        #expect(
            SignerOrigin.appStore.hint(for: "token", switches: switches)
                == "App Store tokens are verified under the App Store policy, whatever they claim")
        let sample = try TrustAnchor(derEncoded: Fixtures.repositoryFile("Examples/sample-root.der"))
        let prefix = String(sample.fingerprint.description.prefix(16))
        let appleRoot = EncodedCertificate(TrustAnchor.appleRootCA!.certificate)
        #expect(
            TrustExplanation.notTrustedHint(certificate: appleRoot, policy: .appStore(anchors: [sample]), switches: switches)
                == "the chain must end at the --root certificate SHA-256 \(prefix)…, which replaces Apple's root certificate; "
                + "it ends at Apple Root CA: start the server without --root to trust it")
        // Tokens' anchors are replaced by --root-g3, and their advice names that switch.
        let g3 = EncodedCertificate(TrustAnchor.appleRootCAG3!.certificate)
        #expect(
            TrustExplanation.notTrustedHint(certificate: g3, policy: .appStoreSignedData(anchors: [sample]), switches: .receiptServerTokens)
                == "the chain must end at the --root-g3 certificate SHA-256 \(prefix)…, which replaces Apple's root certificate; "
                + "it ends at Apple Root CA - G3: start the server without --root-g3 to trust it")
    }

    @Test func textIsNotAReceipt() async throws {
        try await withServer { client in
            for input in [Array("hello world".utf8), Array(Data("hello world".utf8).base64EncodedString().utf8)] {
                let report = try await InspectorTests.inspect(client, input)
                #expect(report["status"] as? Int == 21002)
                #expect((report["message"] as? String)?.hasPrefix("not a receipt: this is neither DER") == true, "\(report["message"] ?? "")")
            }
        }
    }
}
