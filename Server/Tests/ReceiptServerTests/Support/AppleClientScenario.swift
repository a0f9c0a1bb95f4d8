import Foundation
import ReceiptTestSupport

/// The signed data AppleClientTests posts to a live server, and what Apple's Python client must
/// then read back (the input of `Server/Tests/apple-client/conformance.py`).
///
/// Production: a subscriber (`appAccountToken` T) with a monthly subscription bought 25 times
/// (1000001 … 1000025, active), one renewal refunded (1000010); an expired second subscription in
/// another group (4000001) and a consumable (2000001), both carrying T too; another customer's
/// non-consumable (3000001). A customer is an original transaction's family (DESIGN §13): T, which
/// the app chose, links nothing, so the subscription, the second subscription and the consumable
/// are three customers. Later the app posts an upgrade (1000026) through
/// `POST /inApps/v1/transactions`. Sandbox: one active subscription (5000001).
///
/// App transactions: the subscriber's transactions (and the sandbox subscription) carry the
/// `appTransactionId` Apple signs into 2025+ transactions; a `RESCIND_CONSENT` notification in
/// each environment carries that app transaction (`appData.signedAppTransactionInfo`), which Get
/// App Transaction Info must then answer by its own id and by the customer's transaction ids; the
/// second subscription's customer has none (4040019).
struct AppleClientScenario {
    /// One notification to post, in order.
    struct Post {
        let signedPayload: String
        let sandbox: Bool
    }

    /// A transaction as posted (its latest version).
    struct Posted {
        let id: String
        let customer: String
        let jws: String
    }

    static let bundleID = Synthetic.bundleID
    static let appAppleID: Int64 = 1_234_567_890
    static let accountToken = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
    /// The subscriber's app transaction, and the sandbox customer's.
    static let appTransactionID = "704000000000000001", sandboxAppTransactionID = "704000000000000005"
    /// One subscription period: 30 days.
    static let period: Int64 = 30 * 86_400_000

    let now: Int64
    private(set) var posts: [Post] = []
    /// Every transaction in the order the server last changed it (history's ascending order).
    private(set) var transactions: [String: [Posted]] = [:]
    private(set) var renewals: [String: [String: String]] = [:]
    private var signedDate: Int64
    /// The upgrade the app posts later.
    private(set) var upgrade: (id: String, jws: String) = ("", "")
    /// The app transactions the `RESCIND_CONSENT` notifications carry, by environment.
    private(set) var appTransactions: [String: String] = [:]

    init(now: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) {
        self.now = now
        signedDate = now - 86_400_000
        build()
    }

    /// Signs `payload` with the strict-X.509 chain (`AppleClientChain`).
    static func sign(_ payload: [String: Any]) -> String {
        let json = try! JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
        return AppleClientChain.chain.token(payload: String(decoding: json, as: UTF8.self), x5c: AppleClientChain.x5c)
    }

    // MARK: - The story

    private mutating func build() {
        let start = now - 24 * Self.period - Self.period / 2
        // The subscriber's monthly plan: bought, then renewed 24 times; the last is active.
        for index in 0 ..< 25 {
            let id = String(1_000_001 + index)
            let purchase = start + Int64(index) * Self.period
            let transaction = subscription(
                id: id, original: "1000001", purchase: purchase, expires: purchase + Self.period, appTransactionID: Self.appTransactionID)
            notify(
                index == 0 ? "SUBSCRIBED" : "DID_RENEW", subtype: index == 0 ? "INITIAL_BUY" : nil, customer: "subscriber",
                transaction: transaction, renewal: renewal(original: "1000001", autoRenew: 1))
        }
        // A second subscription, in another group, bought three months ago and expired.
        let pro = subscription(
            id: "4000001", original: "4000001", purchase: now - 3 * Self.period, expires: now - 2 * Self.period,
            product: "com.example.receipts.pro.monthly", group: "21000002")
        notify("SUBSCRIBED", subtype: "INITIAL_BUY", customer: "pro", transaction: pro, renewal: nil)
        // A consumable carrying the subscriber's app account token: a customer of its own.
        notify(
            "ONE_TIME_CHARGE", customer: "coins",
            transaction: oneTime(id: "2000001", type: "Consumable", product: "com.example.receipts.coins", purchase: now - Self.period, token: true),
            renewal: nil)
        // Someone else's non-consumable.
        notify(
            "ONE_TIME_CHARGE", customer: "other",
            transaction: oneTime(
                id: "3000001", type: "Non-Consumable", product: "com.example.receipts.lifetime", purchase: now - 2 * Self.period, token: false),
            renewal: nil)
        // The second subscription expires voluntarily (its transaction re-sent, signed later).
        notify(
            "EXPIRED", subtype: "VOLUNTARY", customer: "pro", transaction: pro,
            renewal: renewal(original: "4000001", autoRenew: 0, product: "com.example.receipts.pro.monthly", expirationIntent: 1))
        // An older renewal refunded.
        var refunded = subscription(
            id: "1000010", original: "1000001", purchase: start + 9 * Self.period, expires: start + 10 * Self.period,
            appTransactionID: Self.appTransactionID)
        refunded["revocationDate"] = start + 9 * Self.period + 5 * 86_400_000
        refunded["revocationReason"] = 0
        notify("REFUND", customer: "subscriber", transaction: refunded, renewal: nil)
        // Sandbox: one active subscription.
        notify(
            "SUBSCRIBED", subtype: "INITIAL_BUY", customer: "sandbox",
            transaction: subscription(
                id: "5000001", original: "5000001", purchase: now - Self.period / 2, expires: now + Self.period / 2, environment: "Sandbox",
                token: false, appTransactionID: Self.sandboxAppTransactionID),
            renewal: renewal(original: "5000001", autoRenew: 1, environment: "Sandbox"), environment: "Sandbox")
        // The customers' app transactions, each in a RESCIND_CONSENT notification.
        rescindConsent(Self.appTransactionID, environment: "Production")
        rescindConsent(Self.sandboxAppTransactionID, environment: "Sandbox")
        // What the app's backend posts later: an upgrade to the yearly plan, bought an hour ago.
        signedDate += 1000
        var yearly = subscription(
            id: "1000026", original: "1000001", purchase: now - 3_600_000, expires: now + 365 * 86_400_000,
            product: "com.example.receipts.yearly", appTransactionID: Self.appTransactionID)
        yearly["transactionReason"] = "PURCHASE"
        upgrade = ("1000026", Self.sign(yearly))
    }

    private func subscription(
        id: String, original: String, purchase: Int64, expires: Int64, product: String = "com.example.receipts.monthly",
        group: String = "21000001", environment: String = "Production", token: Bool = true, appTransactionID: String? = nil
    ) -> [String: Any] {
        var object: [String: Any] = [
            "transactionId": id, "originalTransactionId": original, "bundleId": Self.bundleID, "productId": product,
            "purchaseDate": purchase, "originalPurchaseDate": purchase, "expiresDate": expires, "quantity": 1,
            "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "subscriptionGroupIdentifier": group,
            "webOrderLineItemId": "5" + id, "environment": environment, "signedDate": signedDate, "storefront": "USA",
            "storefrontId": "143441", "currency": "USD", "price": 4990, "transactionReason": id == original ? "PURCHASE" : "RENEWAL",
        ]
        if token { object["appAccountToken"] = Self.accountToken }
        object["appTransactionId"] = appTransactionID
        return object
    }

    /// A `RESCIND_CONSENT` notification (no `data`: `appData` with the signed app transaction).
    private mutating func rescindConsent(_ appTransactionID: String, environment: String) {
        signedDate += 1000
        var app: [String: Any] = [
            "bundleId": Self.bundleID, "receiptType": environment, "appTransactionId": appTransactionID, "applicationVersion": "42",
            "originalApplicationVersion": "1.0", "originalPurchaseDate": now - 40 * Self.period, "receiptCreationDate": signedDate,
            "signedDate": signedDate, "originalPlatform": "iOS",
        ]
        var appData: [String: Any] = ["bundleId": Self.bundleID, "environment": environment]
        if environment == "Production" {
            app["appAppleId"] = Self.appAppleID
            appData["appAppleId"] = Self.appAppleID
        }
        let jws = Self.sign(app)
        appTransactions[environment] = jws
        appData["signedAppTransactionInfo"] = jws
        let payload: [String: Any] = [
            "notificationType": "RESCIND_CONSENT", "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0",
            "signedDate": signedDate, "appData": appData,
        ]
        posts.append(Post(signedPayload: Self.sign(payload), sandbox: environment == "Sandbox"))
    }

    private func oneTime(id: String, type: String, product: String, purchase: Int64, token: Bool) -> [String: Any] {
        var object: [String: Any] = [
            "transactionId": id, "originalTransactionId": id, "bundleId": Self.bundleID, "productId": product,
            "purchaseDate": purchase, "originalPurchaseDate": purchase, "quantity": 1, "type": type,
            "inAppOwnershipType": "PURCHASED", "environment": "Production", "signedDate": signedDate, "storefront": "USA",
            "storefrontId": "143441", "currency": "USD", "price": 990, "transactionReason": "PURCHASE",
        ]
        if token { object["appAccountToken"] = Self.accountToken }
        return object
    }

    private func renewal(
        original: String, autoRenew: Int, product: String = "com.example.receipts.monthly", environment: String = "Production",
        expirationIntent: Int? = nil
    ) -> [String: Any] {
        var object: [String: Any] = [
            "originalTransactionId": original, "productId": product, "autoRenewProductId": product, "autoRenewStatus": autoRenew,
            "signedDate": signedDate, "environment": environment, "recentSubscriptionStartDate": now - 3 * Self.period,
        ]
        object["expirationIntent"] = expirationIntent
        return object
    }

    /// Signs a notification (its nested tokens re-dated to one later `signedDate`) and records
    /// what the server will hold: the transaction's latest version moves to the end of its
    /// customer's history, the renewal info replaces the older one.
    private mutating func notify(
        _ type: String, subtype: String? = nil, customer: String, transaction: [String: Any]?, renewal: [String: Any]?,
        environment: String = "Production"
    ) {
        signedDate += 1000
        var data: [String: Any] = ["bundleId": Self.bundleID, "environment": environment, "bundleVersion": "42", "appAppleId": Self.appAppleID]
        if var transaction {
            transaction["signedDate"] = signedDate
            let jws = Self.sign(transaction)
            data["signedTransactionInfo"] = jws
            let id = transaction["transactionId"] as! String
            transactions[customer, default: []].removeAll { $0.id == id }
            transactions[customer, default: []].append(Posted(id: id, customer: customer, jws: jws))
        }
        if var renewal {
            renewal["signedDate"] = signedDate
            let jws = Self.sign(renewal)
            data["signedRenewalInfo"] = jws
            renewals[customer, default: [:]][renewal["originalTransactionId"] as! String] = jws
        }
        var payload: [String: Any] = [
            "notificationType": type, "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0", "signedDate": signedDate,
            "data": data,
        ]
        payload["subtype"] = subtype
        posts.append(Post(signedPayload: Self.sign(payload), sandbox: environment == "Sandbox"))
    }

    // MARK: - conformance.py's input

    /// The JSON object conformance.py reads; `window` is when the notifications were posted
    /// (the server's clock, milliseconds).
    func input(
        baseURL: String, keyID: String, issuerID: String, keyPath: String, window: ClosedRange<Int64>
    ) -> [String: Any] {
        let production = posts.filter { !$0.sandbox }.map(\.signedPayload)
        let sandbox = posts.filter(\.sandbox).map(\.signedPayload)
        let notifications = { (payloads: [String]) -> [String: Any] in
            ["startDate": window.lowerBound, "endDate": window.upperBound + 1, "signedPayloads": payloads]
        }
        let active = "1000025"
        return [
            "baseURL": baseURL, "keyId": keyID, "issuerId": issuerID, "bundleId": Self.bundleID, "appAppleId": Self.appAppleID,
            "privateKeyPath": keyPath, "rootCertificatePath": AppleClientChain.rootPath, "strictX509": true,
            "environments": [
                [
                    "environment": "Production", "prefix": "",
                    "customers": [
                        customer(
                            "subscriber", queries: ["1000001", "1000017"], statuses: [status("21000001", "1000001", 1, active)], refunds: ["1000010"]),
                        customer("pro", queries: ["4000001"], statuses: [status("21000002", "4000001", 2, "4000001")], refunds: []),
                        customer("coins", queries: ["2000001"], statuses: [], refunds: []),
                        customer("other", queries: ["3000001"], statuses: [], refunds: []),
                    ],
                    "notifications": notifications(production), "notFound": ["5000001", "9999999999"],
                    "appTransaction": appTransaction(
                        "Production", Self.appTransactionID, queries: ["1000001", "1000017", "1000010"], without: ["4000001", "2000001"]),
                    "post": [
                        "customer": "subscriber", "transactionId": upgrade.id, "signedTransactionInfo": upgrade.jws,
                        "statuses": [status("21000001", "1000001", 1, upgrade.id)],
                    ] as [String: Any],
                ],
                [
                    "environment": "Sandbox", "prefix": "/sandbox",
                    "customers": [
                        customer("sandbox", queries: ["5000001"], statuses: [status("21000001", "5000001", 1, "5000001")], refunds: [])
                    ],
                    "notifications": notifications(sandbox), "notFound": ["1000001", "3000001"],
                    "appTransaction": appTransaction("Sandbox", Self.sandboxAppTransactionID, queries: ["5000001"], without: []),
                ],
            ],
        ]
    }

    private func customer(_ name: String, queries: [String], statuses: [[String: Any]], refunds: [String]) -> [String: Any] {
        [
            "name": name, "queries": queries, "statuses": statuses, "refunds": refunds, "renewals": renewals[name] ?? [:],
            "transactions": (transactions[name] ?? []).map { ["id": $0.id, "jws": $0.jws] },
        ]
    }

    /// What Get App Transaction Info must answer: the token for its own id and for `queries`
    /// (transaction ids of its customer), 4040019 for `without` (customers with none).
    private func appTransaction(_ environment: String, _ id: String, queries: [String], without: [String]) -> [String: Any] {
        ["appTransactionId": id, "jws": appTransactions[environment] ?? "", "queries": [id] + queries, "withoutAppTransaction": without]
    }

    private func status(_ group: String, _ original: String, _ status: Int, _ last: String) -> [String: Any] {
        ["subscriptionGroupIdentifier": group, "originalTransactionId": original, "status": status, "transactionId": last]
    }
}

/// The G3-shaped test chain with key identifiers: subjectKeyIdentifier on the root and the
/// intermediate, authorityKeyIdentifier (the issuer's) on the intermediate and the leaf. Apple's
/// certificates carry both, and the Python library's `SignedDataVerifier` checks chains with
/// OpenSSL's X509_STRICT, which refuses `TestJWSChain` ("Missing Authority Key Identifier").
enum AppleClientChain {
    static let chain: TestJWSChain = {
        var chain = TestJWSChain(rootName: "Receipt Toolkit Test Root CA - G3 (key identifiers)")
        let rootID = [UInt8](repeating: 0xA1, count: 20)
        let intermediateID = [UInt8](repeating: 0xB2, count: 20)
        chain.root.extensions.append(.subjectKeyIdentifier(rootID))
        chain.intermediate.extensions += [.subjectKeyIdentifier(intermediateID), .authorityKeyIdentifier(rootID)]
        chain.leaf.extensions.append(.authorityKeyIdentifier(intermediateID))
        return chain
    }()
    static let x5c = chain.certificates

    /// The root, written once for `--root-g3` and for the client's verifier.
    static let rootPath: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-tests-apple-client-root-\(getpid()).der")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(chain.rootCertificate))
        return url.path
    }()
}
