/// What the App Store Server API's answers need of a signed transaction, beside its `in_app`
/// JSON: the JWS exactly as Apple signed it, and the facts the status and history rules read.
public struct SignedTransactionFacts: Sendable, Hashable {
    /// The `signedTransactionInfo` JWS, byte for byte as received: answers pass it through.
    public var jws: String
    /// `type`: `Auto-Renewable Subscription`, `Non-Renewing Subscription`, `Consumable`, `Non-Consumable`.
    public var type: String
    /// `subscriptionGroupIdentifier`, for subscriptions.
    public var subscriptionGroupIdentifier: String?
    /// `expiresDate`, milliseconds since 1970.
    public var expiresMilliseconds: Int64?
    /// `revocationDate`, milliseconds since 1970.
    public var revocationMilliseconds: Int64?
    /// `inAppOwnershipType`: `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    /// `appAccountToken` (a UUID the app set at purchase time: the app's own user id, never a
    /// link between original transactions).
    public var appAccountToken: String?
    /// What the subscription metrics read (`SubscriptionMetricsSchema`): `price` in milliunits,
    /// `currency`, `transactionReason` and `offerDiscountType`.
    public var commerce: SignedCommerceFacts

    /// Facts of a verified token.
    public init(
        jws: String, type: String, subscriptionGroupIdentifier: String?, expiresMilliseconds: Int64?,
        revocationMilliseconds: Int64?, inAppOwnershipType: String?, appAccountToken: String?,
        commerce: SignedCommerceFacts = SignedCommerceFacts()
    ) {
        self.commerce = commerce
        self.jws = jws
        self.type = type
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.expiresMilliseconds = expiresMilliseconds
        self.revocationMilliseconds = revocationMilliseconds
        self.inAppOwnershipType = inAppOwnershipType
        self.appAccountToken = appAccountToken
    }
}

/// What the status rule reads of a subscription's signed renewal info, and the JWS itself.
public struct SignedRenewalFacts: Sendable, Hashable {
    /// The `signedRenewalInfo` JWS, byte for byte as received.
    public var jws: String
    /// `isInBillingRetryPeriod` (false when absent).
    public var isInBillingRetryPeriod: Bool
    /// `gracePeriodExpiresDate`, milliseconds since 1970.
    public var gracePeriodExpiresMilliseconds: Int64?
    /// `autoRenewStatus` (1 on, 0 off), the entitlements' `willAutoRenew`.
    public var autoRenewStatus: Int64?

    /// Facts of a verified token.
    public init(jws: String, isInBillingRetryPeriod: Bool, gracePeriodExpiresMilliseconds: Int64?, autoRenewStatus: Int64? = nil) {
        self.autoRenewStatus = autoRenewStatus
        self.jws = jws
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresMilliseconds = gracePeriodExpiresMilliseconds
    }
}

/// What the subscription metrics read of a signed transaction (DESIGN §18).
public struct SignedCommerceFacts: Sendable, Hashable {
    /// `price`, in milliunits of `currency`.
    public var price: Int64?
    /// `currency`, ISO 4217.
    public var currency: String?
    /// `transactionReason`: `PURCHASE` or `RENEWAL`.
    public var transactionReason: String?
    /// `offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT` or `ONE_TIME`.
    public var offerDiscountType: String?

    /// Facts of a verified token.
    public init(price: Int64? = nil, currency: String? = nil, transactionReason: String? = nil, offerDiscountType: String? = nil) {
        self.price = price
        self.currency = currency
        self.transactionReason = transactionReason
        self.offerDiscountType = offerDiscountType
    }
}

/// A signed transaction an app's backend posted (`POST /inApps/v1/transactions`): stored by the
/// notifications' rule (one row per bundle id, environment, transaction id; the latest
/// `signedDate` wins), with no notification row.
public struct PostedTransaction: Sendable, Hashable {
    /// The app (the caller's `bid`, which the payload's `bundleId` matched).
    public var bundleID: String
    /// `Production` or `Sandbox` (the endpoint's, which the payload's `environment` matched).
    public var environment: String
    /// The transaction, with its `signed` facts.
    public var transaction: NotificationTransaction
    /// Its subscription's renewal info, stored by the notifications' rule (one row per original
    /// transaction id, the latest `signedDate` wins): what `receipt-server import` reads beside a
    /// transaction in Get All Subscription Statuses. Nil for what an app's backend posts.
    public var renewalInfo: RenewalInfoRecord?
    /// The outgoing webhook event it causes (issue 38), written with it when the transaction is
    /// new to the server and an endpoint receives it; nil for none.
    public var webhookEvent: WebhookEventRecord?

    /// A posted transaction of verified values.
    public init(bundleID: String, environment: String, transaction: NotificationTransaction, renewalInfo: RenewalInfoRecord? = nil) {
        self.bundleID = bundleID
        self.environment = environment
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }
}

/// A stored signed transaction as the App Store Server API reads it.
public struct StoredSignedTransaction: Sendable, Hashable {
    public var transactionID: String
    public var originalTransactionID: String
    public var productID: String
    /// `purchaseDate`, milliseconds since 1970.
    public var purchaseMilliseconds: Int64
    /// The token's `signedDate`.
    public var signedMilliseconds: Int64
    /// When this server last changed the row (server clock, milliseconds): history's sort key.
    public var changedMilliseconds: Int64
    public var facts: SignedTransactionFacts

    /// A row as read.
    public init(
        transactionID: String, originalTransactionID: String, productID: String, purchaseMilliseconds: Int64,
        signedMilliseconds: Int64, changedMilliseconds: Int64, facts: SignedTransactionFacts
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.purchaseMilliseconds = purchaseMilliseconds
        self.signedMilliseconds = signedMilliseconds
        self.changedMilliseconds = changedMilliseconds
        self.facts = facts
    }
}

/// A stored signed renewal info (the latest `signedDate` of its subscription).
public struct StoredSignedRenewal: Sendable, Hashable {
    public var originalTransactionID: String
    public var signedMilliseconds: Int64
    public var facts: SignedRenewalFacts

    /// A row as read.
    public init(originalTransactionID: String, signedMilliseconds: Int64, facts: SignedRenewalFacts) {
        self.originalTransactionID = originalTransactionID
        self.signedMilliseconds = signedMilliseconds
        self.facts = facts
    }
}

/// Everything stored of one customer of one app and environment: the original transactions of
/// the transaction asked about (`SignedDataStatements.originalsOf`: the `originalTransactionId`
/// family, which Apple signs; never an `appAccountToken`, which the app chooses).
public struct CustomerRecords: Sendable, Hashable {
    /// Every signed transaction of those original transactions (any order).
    public var transactions: [StoredSignedTransaction]
    /// Their subscriptions' latest signed renewal infos (any order).
    public var renewals: [StoredSignedRenewal]

    public init(transactions: [StoredSignedTransaction], renewals: [StoredSignedRenewal]) {
        self.transactions = transactions
        self.renewals = renewals
    }
}

/// Where a notification-history page resumes: after this (received time, notificationUUID).
public struct NotificationCursor: Sendable, Hashable {
    public var receivedMilliseconds: Int64
    public var uuid: String

    public init(receivedMilliseconds: Int64, uuid: String) {
        self.receivedMilliseconds = receivedMilliseconds
        self.uuid = uuid
    }
}

/// A notification-history query: stored notifications of one app and environment received in
/// [start, end), optionally of one type (and subtype) or about some original transactions,
/// ordered by (received time, notificationUUID) ascending, after `cursor`, at most `limit`.
public struct NotificationHistoryQuery: Sendable, Hashable {
    public var startMilliseconds: Int64
    public var endMilliseconds: Int64
    public var type: String?
    public var subtype: String?
    /// Only notifications whose transaction or renewal info has one of these original transaction
    /// ids (nil: any notification).
    public var originalTransactionIDs: [String]?
    public var cursor: NotificationCursor?
    public var limit: Int

    public init(
        startMilliseconds: Int64, endMilliseconds: Int64, type: String? = nil, subtype: String? = nil,
        originalTransactionIDs: [String]? = nil, cursor: NotificationCursor? = nil, limit: Int
    ) {
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
        self.type = type
        self.subtype = subtype
        self.originalTransactionIDs = originalTransactionIDs
        self.cursor = cursor
        self.limit = limit
    }
}

/// A stored notification as the notification history lists it.
public struct StoredNotificationEntry: Sendable, Hashable {
    public var uuid: String
    /// The `signedPayload`, byte for byte as received.
    public var signedPayload: String
    /// When this server stored it (its clock, milliseconds): the history's `attemptDate`.
    public var receivedMilliseconds: Int64

    public init(uuid: String, signedPayload: String, receivedMilliseconds: Int64) {
        self.uuid = uuid
        self.signedPayload = signedPayload
        self.receivedMilliseconds = receivedMilliseconds
    }
}

/// The App Store Server API's storage (DESIGN §13): signed transactions and renewal infos from
/// notifications and from app backends, read per customer.
public protocol SignedDataStore: Sendable {
    /// Stores a posted transaction by the notifications' rule; returns when durable.
    func save(_ posted: PostedTransaction) async throws
    /// The customer of `transactionID` (an original or any other transaction id, among rows
    /// that hold a JWS); nil when no such signed transaction is stored.
    func customer(bundleID: String, environment: String, transactionID: String) async throws -> CustomerRecords?
    /// Stored notifications by `query`.
    func notificationHistory(bundleID: String, environment: String, query: NotificationHistoryQuery) async throws -> [StoredNotificationEntry]
}

/// An App Store Connect In-App Purchase key (`receipt-server iapkey add`): the public key that
/// verifies the ES256 JWTs an app's backend signs, its issuer and the apps it may ask about.
public struct IAPKeyRecord: Sendable, Hashable {
    /// The JWT header's `kid`.
    public var keyID: String
    /// The JWT's `iss`.
    public var issuerID: String
    /// The P-256 public key, SEC 1 uncompressed point (65 bytes).
    public var publicKey: [UInt8]
    /// The bundle ids its JWTs may name as `bid` (empty: every app served).
    public var bundleIDs: [String]
    public var createdMilliseconds: Int64
    /// When revoked, if it was.
    public var revokedMilliseconds: Int64?

    public init(keyID: String, issuerID: String, publicKey: [UInt8], bundleIDs: [String], createdMilliseconds: Int64, revokedMilliseconds: Int64?) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.publicKey = publicKey
        self.bundleIDs = bundleIDs
        self.createdMilliseconds = createdMilliseconds
        self.revokedMilliseconds = revokedMilliseconds
    }
}

/// Where In-App Purchase keys are kept.
public protocol IAPKeyStore: Sendable {
    /// Every key, revoked ones too, oldest first.
    func iapKeys() async throws -> [IAPKeyRecord]
    /// Adds a key, or replaces the key of the same id (a new key for the id un-revokes it).
    func putIAPKey(_ key: IAPKeyRecord) async throws
    /// Marks a key revoked at `milliseconds` (the first date kept); false when no key has that id.
    func revokeIAPKey(id: String, at milliseconds: Int64) async throws -> Bool
}
