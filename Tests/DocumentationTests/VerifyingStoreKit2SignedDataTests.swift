import AppStoreJWS
import Foundation
import ReceiptTestSupport
import Testing
import X509Certificates

/// Runs the code of "Verifying StoreKit 2 signed data" on tokens signed by a throwaway chain
/// shaped like Apple's (P-384 root and intermediate with Apple's markers, P-256 leaf).
@Suite struct VerifyingStoreKit2SignedDataTests {
    static let chain = TestJWSChain()
    static let policy = TrustPolicy.appStoreSignedData(anchors: [try! TrustAnchor(derEncoded: chain.rootCertificate)])
    /// 2024-03-01T00:00:00Z.
    static let signedDate: Int64 = 1_709_251_200_000

    static func transaction(bundleId: String = "com.example.app", revoked: Bool = false) -> String {
        let revocation = revoked ? ",\"revocationDate\":1709500000000,\"revocationReason\":0" : ""
        return chain.token(
            payload: """
                {"transactionId":"2000000123","originalTransactionId":"2000000100","bundleId":"\(bundleId)",\
                "productId":"pro.monthly","purchaseDate":1709000000000,"expiresDate":1711592000000,\
                "type":"Auto-Renewable Subscription","environment":"Production","signedDate":\(signedDate)\(revocation)}
                """)
    }

    static func notificationBody(_ transaction: String, bundleId: String = "com.example.app") -> Data {
        let token = chain.token(
            payload: """
                {"notificationType":"DID_RENEW","notificationUUID":"6f1e","data":{"bundleId":"\(bundleId)",\
                "environment":"Production","signedTransactionInfo":"\(transaction)"},"version":"2.0","signedDate":\(signedDate)}
                """)
        return Data("{\"signedPayload\":\"\(token)\"}".utf8)
    }

    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func anActiveSubscriptionIsFound() throws {
        let verifier = serverVerifier(policy: Self.policy)
        let active = try activeSubscription(signedTransaction: Self.transaction(), verifier: verifier, now: Self.date("2024-03-15T00:00:00Z"))
        #expect(active?.transactionId == "2000000123")
        #expect(try activeSubscription(signedTransaction: Self.transaction(), verifier: verifier, now: Self.date("2024-04-01T00:00:00Z")) == nil)
        #expect(
            try activeSubscription(signedTransaction: Self.transaction(revoked: true), verifier: verifier, now: Self.date("2024-03-15T00:00:00Z"))
                == nil)
        #expect(throws: JWSError.unexpectedBundleId(expected: "com.example.app", found: "com.example.other")) {
            _ = try activeSubscription(signedTransaction: Self.transaction(bundleId: "com.example.other"), verifier: verifier)
        }
    }

    @Test func theDefaultVerifierTrustsOnlyAppleRootCAG3() {
        let error = #expect(throws: JWSError.self) { _ = try activeSubscription(signedTransaction: Self.transaction()) }
        #expect(error?.category == .notAuthentic)
    }

    @Test func notificationsAreAnsweredAsReceiptServerDoes() throws {
        let verifier = serverVerifier(policy: Self.policy)
        let stored = receiveNotification(body: Self.notificationBody(Self.transaction()), verifier: verifier)
        #expect(stored.status == 200)
        #expect(stored.notification?.payload.notificationUUID == "6f1e")
        #expect(stored.notification?.transaction?.transactionId == "2000000123")

        let tampered = Self.transaction().replacingOccurrences(of: ".", with: ".x", options: [], range: nil)
        #expect(receiveNotification(body: Self.notificationBody(tampered), verifier: verifier).status == 400)
        var parts = Self.transaction().split(separator: ".").map(String.init)
        parts[2] = TestJWS.base64URL(Array(repeating: 7, count: 64))
        #expect(receiveNotification(body: Self.notificationBody(parts.joined(separator: ".")), verifier: verifier).status == 401)
        #expect(receiveNotification(body: Self.notificationBody(Self.transaction(), bundleId: "com.example.other"), verifier: verifier).status == 403)
        #expect(receiveNotification(body: Data("{}".utf8), verifier: verifier).status == 400)
        #expect(receiveNotification(body: Self.notificationBody(Self.transaction()), verifier: JWSVerifier()).status == 401)
    }
}
