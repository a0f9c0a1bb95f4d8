/// A verified App Store Server Notification V2 as the storage layer keeps it: once by its
/// notificationUUID, with what it tells of a transaction and of a subscription's renewal.
public struct NotificationRecord: Sendable, Hashable {
    /// `notificationUUID`: the key, so that Apple's retries are stored once.
    public var uuid: String
    /// `notificationType` (`SUBSCRIBED`, `DID_RENEW`, `TEST`, …) and `subtype`.
    public var type: String
    /// `subtype`, when the notification has one.
    public var subtype: String?
    /// The notification's `signedDate`, milliseconds since 1970.
    public var signedMilliseconds: Int64
    /// The `signedPayload` JWS exactly as received.
    public var signedPayload: String
    /// The app, from `data` (or `summary`, `appData`, `externalPurchaseToken`).
    public var bundleID: String
    /// `Production` or `Sandbox`: part of every transaction's and renewal's key.
    public var environment: String
    /// `data.signedTransactionInfo`, verified and converted.
    public var transaction: NotificationTransaction?
    /// `data.signedRenewalInfo`, verified and converted.
    public var renewalInfo: RenewalInfoRecord?
    /// `appData.signedAppTransactionInfo` (`RESCIND_CONSENT`), verified, when it names an
    /// `appTransactionId`.
    public var appTransaction: AppTransactionRecord?
    /// The outgoing webhook event it causes (issue 38), written with it when it is new and an
    /// endpoint receives it; nil for none.
    public var webhookEvent: WebhookEventRecord?

    /// A record of verified values.
    public init(
        uuid: String, type: String, subtype: String?, signedMilliseconds: Int64, signedPayload: String,
        bundleID: String, environment: String, transaction: NotificationTransaction?, renewalInfo: RenewalInfoRecord?,
        appTransaction: AppTransactionRecord? = nil
    ) {
        self.appTransaction = appTransaction
        self.uuid = uuid
        self.type = type
        self.subtype = subtype
        self.signedMilliseconds = signedMilliseconds
        self.signedPayload = signedPayload
        self.bundleID = bundleID
        self.environment = environment
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }
}

/// A transaction as a notification's `signedTransactionInfo` states it, keyed like a receipt's
/// (bundle id, environment, transaction id).
public struct NotificationTransaction: Sendable, Hashable {
    /// `transactionId`: with the notification's app and environment, the key.
    public var transactionID: String
    /// `originalTransactionId` (the transaction id when absent): the subscription it belongs to.
    public var originalTransactionID: String
    /// `productId`.
    public var productID: String
    /// `purchaseDate`, milliseconds since 1970.
    public var purchaseMilliseconds: Int64
    /// The transaction's own `signedDate`: when these facts were true.
    public var signedMilliseconds: Int64
    /// The transaction as a JSON object in `in_app`'s key format, with the fields only the server
    /// side knows.
    public var json: String
    /// Only those fields, as object members without braces (`"in_app_ownership_type":"PURCHASED"`,
    /// possibly empty): what a newer receipt's copy of the transaction keeps from this one.
    public var serverMembers: String
    /// The JWS and what the App Store Server API reads of it (nil only in tests of the
    /// verifyReceipt side).
    public var signed: SignedTransactionFacts?

    /// A transaction of verified values.
    public init(
        transactionID: String, originalTransactionID: String, productID: String, purchaseMilliseconds: Int64,
        signedMilliseconds: Int64, json: String, serverMembers: String, signed: SignedTransactionFacts? = nil
    ) {
        self.signed = signed
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.purchaseMilliseconds = purchaseMilliseconds
        self.signedMilliseconds = signedMilliseconds
        self.json = json
        self.serverMembers = serverMembers
    }
}

/// A subscription's renewal info as a notification's `signedRenewalInfo` states it, keyed by
/// (bundle id, environment, original transaction id).
public struct RenewalInfoRecord: Sendable, Hashable {
    /// `originalTransactionId`: with the app and environment, the key.
    public var originalTransactionID: String
    /// The renewal info's own `signedDate`.
    public var signedMilliseconds: Int64
    /// The `pending_renewal_info` object.
    public var json: String
    /// The JWS and what the status rule reads of it (nil only in tests of the verifyReceipt side).
    public var signed: SignedRenewalFacts?

    /// Renewal info of verified values.
    public init(originalTransactionID: String, signedMilliseconds: Int64, json: String, signed: SignedRenewalFacts? = nil) {
        self.signed = signed
        self.originalTransactionID = originalTransactionID
        self.signedMilliseconds = signedMilliseconds
        self.json = json
    }
}

/// A stored renewal info as a history lists it.
public struct StoredRenewalInfo: Sendable, Hashable {
    /// The subscription it is about.
    public var originalTransactionID: String
    /// The `pending_renewal_info` object.
    public var json: String

    /// Renewal info as read from storage.
    public init(originalTransactionID: String, json: String) {
        self.originalTransactionID = originalTransactionID
        self.json = json
    }
}
