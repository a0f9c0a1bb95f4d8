import Foundation
import HummingbirdTesting
import NIOCore
import ReceiptServer
@testable import receipt_server
import ReceiptTestSupport

/// App Store Server Notifications V2 signed in Swift by a chain shaped like Apple's G3 chain
/// (P-384 root and intermediate with Apple's marker extensions, P-256 leaf); the server trusts its
/// root through `--root-g3`. Never trust what this signs.
enum SyntheticNotifications {
    static let chain = TestJWSChain()
    /// The `x5c` certificates, made once (each signing is an ECDSA signature).
    static let x5c = chain.certificates

    /// The chain's root, written once to a temporary file for `--root-g3`.
    static let rootPath: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-tests-g3-root-\(getpid()).der")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(chain.rootCertificate))
        return url.path
    }()

    /// A server configuration trusting both synthetic roots (receipts and notifications).
    static func configuration(_ database: TestDatabase, apps: [String] = []) -> ServerConfiguration {
        var configuration = TestServer.configuration(database, apps: apps)
        configuration.rootsG3 = [rootPath]
        return configuration
    }

    /// A `JWSTransactionDecodedPayload` of an auto-renewable subscription.
    struct Transaction {
        var transactionId: String
        var originalTransactionId: String
        var productId = "com.example.receipts.monthly"
        /// Milliseconds since 1970.
        var purchaseDate: Int64
        var originalPurchaseDate: Int64 = 1_704_103_200_000
        var expiresDate: Int64
        var signedDate: Int64
        var revocationDate: Int64? = nil
        var revocationReason: Int64? = nil
        var isUpgraded: Bool? = nil
        var offerType: Int64? = nil
        var offerIdentifier: String? = nil
        var offerDiscountType: String? = nil
        var bundleId = Synthetic.bundleID
        var environment = "Production"

        var payload: [String: Any] {
            var object: [String: Any] = [
                "transactionId": transactionId, "originalTransactionId": originalTransactionId, "bundleId": bundleId,
                "productId": productId, "purchaseDate": purchaseDate, "originalPurchaseDate": originalPurchaseDate,
                "expiresDate": expiresDate, "quantity": 1, "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
                "subscriptionGroupIdentifier": "21000001", "webOrderLineItemId": "5" + transactionId, "environment": environment,
                "signedDate": signedDate, "storefront": "USA", "storefrontId": "143441", "currency": "USD", "price": 4990,
                "transactionReason": transactionId == originalTransactionId ? "PURCHASE" : "RENEWAL",
            ]
            object["revocationDate"] = revocationDate
            object["revocationReason"] = revocationReason
            object["isUpgraded"] = isUpgraded
            object["offerType"] = offerType
            object["offerIdentifier"] = offerIdentifier
            object["offerDiscountType"] = offerDiscountType
            return object
        }
    }

    /// A `JWSRenewalInfoDecodedPayload`.
    struct Renewal {
        var originalTransactionId: String
        var productId = "com.example.receipts.monthly"
        var autoRenewProductId = "com.example.receipts.monthly"
        var autoRenewStatus: Int64 = 1
        var signedDate: Int64
        var expirationIntent: Int64? = nil
        var isInBillingRetryPeriod: Bool? = nil
        var gracePeriodExpiresDate: Int64? = nil
        var priceIncreaseStatus: Int64? = nil
        var offerType: Int64? = nil
        var offerIdentifier: String? = nil
        var environment = "Production"

        var payload: [String: Any] {
            var object: [String: Any] = [
                "originalTransactionId": originalTransactionId, "productId": productId, "autoRenewProductId": autoRenewProductId,
                "autoRenewStatus": autoRenewStatus, "signedDate": signedDate, "environment": environment,
                "recentSubscriptionStartDate": 1_704_103_200_000,
            ]
            object["expirationIntent"] = expirationIntent
            object["isInBillingRetryPeriod"] = isInBillingRetryPeriod
            object["gracePeriodExpiresDate"] = gracePeriodExpiresDate
            object["priceIncreaseStatus"] = priceIncreaseStatus
            object["offerType"] = offerType
            object["offerIdentifier"] = offerIdentifier
            return object
        }
    }

    /// A notification's `signedPayload`, with its nested tokens signed by the same chain.
    static func token(
        _ type: String, subtype: String? = nil, uuid: String = UUID().uuidString.lowercased(), signedDate: Int64,
        transaction: Transaction? = nil, renewal: Renewal? = nil, bundleId: String = Synthetic.bundleID,
        environment: String = "Production", appAppleId: Int64? = nil
    ) -> String {
        var data: [String: Any] = ["bundleId": bundleId, "environment": environment, "bundleVersion": "42"]
        data["appAppleId"] = appAppleId
        data["signedTransactionInfo"] = transaction.map { sign($0.payload) }
        data["signedRenewalInfo"] = renewal.map { sign($0.payload) }
        var payload: [String: Any] = ["notificationType": type, "notificationUUID": uuid, "version": "2.0", "signedDate": signedDate, "data": data]
        payload["subtype"] = subtype
        return sign(payload)
    }

    /// `payload` as JSON, signed into a compact JWS.
    static func sign(_ payload: [String: Any]) -> String {
        let json = try! JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
        return chain.token(payload: String(decoding: json, as: UTF8.self), x5c: x5c)
    }

    /// The request body `{"signedPayload": token}`.
    static func body(_ token: String) -> Data {
        try! JSONSerialization.data(withJSONObject: ["signedPayload": token])
    }
}

/// An answer of a notification endpoint.
struct NotificationReply {
    let status: Int
    let json: [String: Any]
}

extension TestClientProtocol {
    /// POSTs `body` to a notification endpoint.
    func notify(_ body: Data, sandbox: Bool = false) async throws -> NotificationReply {
        try await execute(
            uri: sandbox ? "/sandbox/notifications/v2" : "/notifications/v2", method: .post,
            headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body)
        ) { response in
            NotificationReply(status: Int(response.status.code), json: try JSONAnswer.object(response.body))
        }
    }

    /// POSTs a token as `{"signedPayload": token}`; returns the HTTP status.
    func notify(token: String, sandbox: Bool = false) async throws -> Int {
        try await notify(SyntheticNotifications.body(token), sandbox: sandbox).status
    }
}
