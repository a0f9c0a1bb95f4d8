/// A verified receipt as the storage layer keeps it: the exact bytes, keyed by their SHA-256.
public struct ReceiptRecord: Sendable, Hashable {
    /// SHA-256 of `bytes` (32 bytes): the receipt's key.
    public var sha256: [UInt8]
    /// The receipt's DER, as the device sent it (base64-decoded).
    public var bytes: [UInt8]
    public var bundleID: String
    /// `Production`, `Sandbox` (or `Xcode`, development only): part of every transaction's key.
    public var environment: String
    /// Receipt creation date (attribute 12), milliseconds since 1970.
    public var createdMilliseconds: Int64
    /// The receipt's in-app purchases.
    public var transactions: [TransactionRecord]

    public init(
        sha256: [UInt8], bytes: [UInt8], bundleID: String, environment: String,
        createdMilliseconds: Int64, transactions: [TransactionRecord]
    ) {
        self.sha256 = sha256
        self.bytes = bytes
        self.bundleID = bundleID
        self.environment = environment
        self.createdMilliseconds = createdMilliseconds
        self.transactions = transactions
    }
}

/// One in-app purchase, keyed by (bundle id, environment, transaction id) within its receipt's app.
public struct TransactionRecord: Sendable, Hashable {
    public var transactionID: String
    /// The original transaction id (the transaction id itself when the receipt has none).
    public var originalTransactionID: String
    public var productID: String
    public var purchaseMilliseconds: Int64
    /// The purchase as a JSON object in `in_app`'s key format, ready to be listed.
    public var json: String

    public init(
        transactionID: String, originalTransactionID: String, productID: String,
        purchaseMilliseconds: Int64, json: String
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.purchaseMilliseconds = purchaseMilliseconds
        self.json = json
    }
}

/// What the store knows about some subscriptions (by original transaction id) of one app and
/// environment, from every receipt and notification it has stored.
public struct PurchaseHistory: Sendable, Hashable {
    /// Every stored transaction of those original transaction ids, newest purchase first.
    public var transactions: [StoredTransaction]
    /// The newest stored receipt (by creation date) holding any of them.
    public var latestReceipt: [UInt8]?
    /// Per original transaction id, the renewal info notifications told of last (sorted by
    /// original transaction id; empty when no notification has).
    public var pendingRenewals: [StoredRenewalInfo]

    public init(transactions: [StoredTransaction], latestReceipt: [UInt8]?, pendingRenewals: [StoredRenewalInfo] = []) {
        self.transactions = transactions
        self.latestReceipt = latestReceipt
        self.pendingRenewals = pendingRenewals
    }
}

/// A stored transaction as a history lists it.
public struct StoredTransaction: Sendable, Hashable {
    public var transactionID: String
    public var originalTransactionID: String
    public var purchaseMilliseconds: Int64
    /// The `in_app`-format JSON object.
    public var json: String

    public init(transactionID: String, originalTransactionID: String, purchaseMilliseconds: Int64, json: String) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseMilliseconds = purchaseMilliseconds
        self.json = json
    }
}

/// Row counts, as `receipt-server stats` prints them.
public struct StoreCounts: Sendable, Hashable, Codable {
    public var receipts: Int64
    public var transactions: Int64
    public var notifications: Int64

    public init(receipts: Int64, transactions: Int64, notifications: Int64) {
        self.receipts = receipts
        self.transactions = transactions
        self.notifications = notifications
    }
}

/// One app of the registry (the `apps` table): the bundle ids the server serves.
public struct AppRegistration: Sendable, Hashable {
    public var bundleID: String
    /// The salted hash of the app's shared secret (`ReceiptService.SharedSecretHash`), when it
    /// has one; the secret itself is never stored.
    public var sharedSecretHash: [UInt8]?
    /// The app's Apple id (App Store Connect), when configured: production notifications must
    /// carry it as `data.appAppleId`.
    public var appleID: Int64?
    /// Whether an iOS 6 style transaction receipt that says it is from production is answered 0
    /// at the production endpoint (`app add --accept-unproven-legacy-production`; off by
    /// default). Nothing Apple signed in such a receipt tells production from sandbox: its
    /// `environment` line is outside the signature, so with this on, a sandbox purchase whose
    /// line was deleted passes as a production one.
    public var acceptsUnprovenLegacyProduction: Bool

    public init(bundleID: String, sharedSecretHash: [UInt8]?, appleID: Int64? = nil, acceptsUnprovenLegacyProduction: Bool = false) {
        self.bundleID = bundleID
        self.sharedSecretHash = sharedSecretHash
        self.appleID = appleID
        self.acceptsUnprovenLegacyProduction = acceptsUnprovenLegacyProduction
    }
}
