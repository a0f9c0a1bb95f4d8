import Foundation
import HummingbirdTesting
import ReceiptServer
import ReceiptTestSupport
@testable import receipt_server
import Testing

/// `--revocation ocsp` for receipts (issue 40): an app receipt whose signer (RSA, as Apple's)
/// names OpenSSL's responder on loopback is answered 0 when good, 21003 when revoked, and 21100
/// (retryable) when no answer can be had and none is cached: asked on every request, the
/// verification cache's hits included.
@Suite(.serialized) struct ReceiptRevocationTests {
    static let front = Result { try OCSPResponderFront(keys: .rsa) }

    static func body(_ front: OCSPResponderFront, revoked: Bool = false) throws -> Data {
        var receipt = TestReceipt()
        receipt.creationDate = SyntheticReceipts.rfc3339(Int64(Date().timeIntervalSince1970))   // after the certificates were made
        return Synthetic.body(try front.receipt(receipt.payload(), revoked: revoked))
    }

    static func configuration(_ front: OCSPResponderFront) async throws -> ServerConfiguration {
        var configuration = TestServer.configuration(try await TestDatabase.make(.sqlite), roots: [front.rootDERPath])
        configuration.revocation = "ocsp"
        return configuration
    }

    @Test func goodRevokedAndUnavailable() async throws {
        let front = try Self.front.get()
        defer { front.down = false }
        let good = try Self.body(front)
        try await TestServer.with(try await Self.configuration(front)) { client in
            let answer = try await client.verify(good)
            #expect(answer["status"] as? Int == 0, "\(answer)")
            let revoked = try await client.verify(Self.body(front, revoked: true))
            #expect(revoked["status"] as? Int == 21003, "\(revoked)")
            // The same revoked receipt again: the verification cache does not skip the check.
            front.down = true
            let again = try await client.verify(Self.body(front, revoked: true))
            #expect(again["status"] as? Int == 21003, "\(again)")
            // The good receipt's answer is cached in both caches: still 0 while the responder is down.
            #expect(try await client.verify(good)["status"] as? Int == 0)
        }
        // Nothing cached, responder down: retry later.
        try await TestServer.with(try await Self.configuration(front)) { client in
            let unavailable = try await client.verify(good)
            #expect(unavailable["status"] as? Int == 21100, "\(unavailable)")
            #expect(unavailable["is-retryable"] as? Bool == true, "\(unavailable)")
        }
    }
}

extension ReceiptRevocationTests {
    /// iOS 6 transaction receipts' certificates carry no extensions, so no responder: they are not
    /// asked about (nothing is fetched) and answered as without the flag.
    @Test func transactionReceiptsAreNotAskedAbout() async throws {
        var configuration = TestServer.legacyConfiguration(try await TestDatabase.make(.sqlite))
        configuration.revocation = "ocsp"
        let receipt = SyntheticLegacy.receipt("1000000046178817", purchased: 1_700_000_000_000, expires: SyntheticLegacy.future, sandbox: true)
        try await TestServer.with(configuration) { client in
            let answer = try await client.verify(SyntheticLegacy.body(receipt.text), sandbox: true)
            #expect(answer["status"] as? Int == 0, "\(answer)")
        }
    }
}
