/// A verified signed app transaction (StoreKit 2 `AppTransaction`) as the App Store Server API
/// keeps it: one per app, environment and `appTransactionId`, the token exactly as Apple signed it
/// (Get App Transaction Info passes it through byte for byte).
public struct AppTransactionRecord: Sendable, Hashable {
    /// The app (the payload's `bundleId`, which the caller or the notification matched).
    public var bundleID: String
    /// `Production`, `Sandbox` or `Xcode` (the payload's `receiptType`).
    public var environment: String
    /// `appTransactionId`: with the app and environment, the key.
    public var appTransactionID: String
    /// The token's `signedDate` (its `receiptCreationDate` when it has none): the later wins.
    public var signedMilliseconds: Int64
    /// The JWS, byte for byte as received.
    public var jws: String

    /// A record of verified values.
    public init(bundleID: String, environment: String, appTransactionID: String, signedMilliseconds: Int64, jws: String) {
        self.bundleID = bundleID
        self.environment = environment
        self.appTransactionID = appTransactionID
        self.signedMilliseconds = signedMilliseconds
        self.jws = jws
    }
}

/// A stored app transaction as Get App Transaction Info reads it.
public struct StoredAppTransaction: Sendable, Hashable {
    /// `appTransactionId`.
    public var appTransactionID: String
    /// The JWS, byte for byte as received.
    public var jws: String

    /// A row as read.
    public init(appTransactionID: String, jws: String) {
        self.appTransactionID = appTransactionID
        self.jws = jws
    }
}

/// Where app transactions are kept (schema version 9, `AppTransactionSchema`).
public protocol AppTransactionStore: Sendable {
    /// Stores an app transaction: one row per key, the later `signedDate` (then the greater token
    /// in byte order) wins, so the same token twice is one row; returns when durable.
    func save(_ appTransaction: AppTransactionRecord) async throws
    /// The stored app transactions of an app and environment whose `appTransactionId` is one of
    /// `appTransactionIDs` (any order; empty when none is stored).
    func appTransactions(bundleID: String, environment: String, appTransactionIDs: [String]) async throws -> [StoredAppTransaction]
}
