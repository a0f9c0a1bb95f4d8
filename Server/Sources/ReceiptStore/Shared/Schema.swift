/// The two SQL dialects the schema is written for.
public enum SQLDialect: Sendable {
    case sqlite, postgres

    /// Byte strings: `BLOB` / `BYTEA`.
    var bytes: String { self == .sqlite ? "BLOB" : "BYTEA" }
    /// 64-bit integers: `INTEGER` / `BIGINT`.
    var int64: String { self == .sqlite ? "INTEGER" : "BIGINT" }
}

/// One step of the schema, applied once, in version order, by both backends.
struct Migration: Sendable {
    /// Rows a migration rewrites in code, after its statements and in the same transaction (each
    /// backend implements each case).
    enum Rewrite: Sendable {
        /// Version 5: seal raw app keys, salt shared-secret hashes, store the key check value.
        case sealSecrets
        /// Entitlements and metrics (`SubscriptionMetricsSchema`): the price, currency, reason and
        /// discount of signed transactions stored before, read from their JWS.
        case signedTransactionFacts
    }

    let version: Int
    let name: String
    let rewrite: Rewrite?
    let statements: @Sendable (SQLDialect) -> [String]

    init(version: Int, name: String, rewrite: Rewrite? = nil, statements: @escaping @Sendable (SQLDialect) -> [String]) {
        self.version = version
        self.name = name
        self.rewrite = rewrite
        self.statements = statements
    }
}

/// The one schema of both backends. Later issues add migrations at the end; none is ever edited
/// once released.
///
/// - `receipts`: each verified receipt once, keyed by the SHA-256 of its bytes.
/// - `transactions`: each in-app purchase once, keyed by (bundle id, environment, transaction
///   id). `as_of_ms` is when the stored facts were true (the creation date of the receipt they
///   come from): a later receipt replaces `info` and the dates, an earlier one does not.
///   `receipt_sha256`/`receipt_created_ms` point at the newest stored receipt holding the
///   transaction (for `latest_receipt`). Notifications keep their own rows (version 3), so this
///   rule and pointer stay about receipts alone.
/// - `notifications`: App Store Server Notifications V2, once by notificationUUID.
/// - version 3 (`NotificationSchema`): what App Store Server Notifications told of transactions
///   and renewals, merged with `transactions` when a history is read.
/// - `apps`: the app registry (`--app`): bundle ids served, SHA-256 of their shared secrets, and
///   (version 2) the app's Apple id, which production notifications must name. Version 5
///   (`SecretsSchema`) salts the hashes and seals the hosted API's app keys.
enum Schema {
    static let migrations: [Migration] = [
        Migration(version: 1, name: "receipts, transactions, notifications, apps") { d in
            [
                """
                CREATE TABLE receipts (
                    sha256 \(d.bytes) PRIMARY KEY,
                    bundle_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    created_ms \(d.int64) NOT NULL,
                    data \(d.bytes) NOT NULL,
                    stored_ms \(d.int64) NOT NULL
                )
                """,
                """
                CREATE TABLE transactions (
                    bundle_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    transaction_id TEXT NOT NULL,
                    original_transaction_id TEXT NOT NULL,
                    product_id TEXT NOT NULL,
                    purchase_date_ms \(d.int64) NOT NULL,
                    info TEXT NOT NULL,
                    as_of_ms \(d.int64) NOT NULL,
                    receipt_sha256 \(d.bytes),
                    receipt_created_ms \(d.int64),
                    PRIMARY KEY (bundle_id, environment, transaction_id)
                )
                """,
                """
                CREATE INDEX transactions_by_original ON transactions
                    (bundle_id, environment, original_transaction_id, purchase_date_ms)
                """,
                """
                CREATE TABLE notifications (
                    notification_uuid TEXT PRIMARY KEY,
                    bundle_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    notification_type TEXT NOT NULL,
                    subtype TEXT,
                    signed_date_ms \(d.int64) NOT NULL,
                    signed_payload TEXT NOT NULL,
                    received_ms \(d.int64) NOT NULL
                )
                """,
                """
                CREATE TABLE apps (
                    bundle_id TEXT PRIMARY KEY,
                    shared_secret_sha256 \(d.bytes)
                )
                """,
            ]
        },
        Migration(version: 2, name: "apps.apple_id") { d in
            [
                "ALTER TABLE apps ADD COLUMN apple_id \(d.int64)"
            ]
        },
        NotificationSchema.migration,   // version 3
        hostedValidator,   // version 4 (CredentialSchema.swift)
        secretsAtRest,   // version 5 (SecretsSchema.swift)
        SignedDataSchema.migration,   // version 6 (AppStoreServerAPI/SignedDataSchema.swift)
        IAPKeySchema.migration,   // version 7 (AppStoreServerAPI/IAPKeySchema.swift)
        Migration(version: 8, name: "apps.unproven_legacy_production") { d in
            // `AppRegistration.acceptsUnprovenLegacyProduction`: off for every app already registered.
            ["ALTER TABLE apps ADD COLUMN unproven_legacy_production \(d.int64) NOT NULL DEFAULT 0"]
        },
        AppTransactionSchema.migration,   // version 9 (AppStoreServerAPI/AppTransactionSchema.swift)
        ImportSchema.migration,   // version 10 (Import/ImportSchema.swift)
        WebhookSchema.migration,   // version 11 (Webhooks/WebhookSchema.swift)
        SubscriptionMetricsSchema.migration,   // version 12 (SubscriptionMetrics/SubscriptionMetricsSchema.swift)
        SubscriptionOrderSchema.migration,   // version 13 (SubscriptionMetrics/SubscriptionOrderSchema.swift)
        WebhookRetentionSchema.migration,   // version 14 (Webhooks/WebhookRetentionSchema.swift)
        SubscriptionSpanSchema.migration,   // version 15 (SubscriptionMetrics/SubscriptionSpanSchema.swift)
    ]

    /// The newest version this program knows.
    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The migrations still to apply to a database at `applied`, in order.
    static func pending(after applied: Int) throws(StoreError) -> [Migration] {
        guard applied <= latestVersion else { throw .schemaTooNew(found: applied, known: latestVersion) }
        return migrations.filter { $0.version > applied }
    }

    /// The bookkeeping table, created before anything else.
    static func migrationsTable(_ d: SQLDialect) -> String {
        "CREATE TABLE IF NOT EXISTS schema_migrations (version \(d.int64) PRIMARY KEY, name TEXT NOT NULL, applied_ms \(d.int64) NOT NULL)"
    }
}
