/// The schema step of entitlements and subscription metrics (DESIGN §18; issue 39): version 12
/// until the webhooks' migration is merged before it, then 12 (the chain must stay contiguous).
///
/// - `notification_transactions` gains what the metrics read of a signed transaction: `price`
///   (milliunits, as Apple signs it), `currency` (ISO 4217), `transaction_reason` (`PURCHASE`,
///   `RENEWAL`) and `offer_discount_type` (`FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`), written
///   with the row by version 3's rule. Rows stored before this version are filled in by the
///   migration's rewrite (`Migration.Rewrite.signedTransactionFacts`), from their JWS.
/// - `renewal_infos` gains `auto_renew_status` (0 or 1), the entitlements' `willAutoRenew`,
///   filled in for older rows from their `pending_renewal_info` object.
/// - `entitlements`: an app's names for sets of products (`receipt-server entitlement set`), one
///   row per (bundle id, name, product id).
/// - `dashboard_tokens`: the operator's dashboard credentials (`receipt-server dashboard-token`):
///   the public id and the SHA-256 of the whole token (never the token), created and revoked dates.
/// - Indexes: `notification_transactions_by_purchase` (the day's purchases),
///   `notification_transactions_by_expiry` (the subscriptions still running in a window),
///   `notification_transactions_by_subscription` (every column the metrics read of a subscription's
///   transactions, in its order: read from the index alone) and
///   `notification_transactions_by_revocation` (the day's refunds), each led by (bundle id,
///   environment).
enum SubscriptionMetricsSchema {
    static let version = 12

    static let migration = Migration(version: version, name: "entitlements, subscription metrics", rewrite: .signedTransactionFacts) { d in
        [
            "ALTER TABLE notification_transactions ADD COLUMN price \(d.int64)",
            "ALTER TABLE notification_transactions ADD COLUMN currency TEXT",
            "ALTER TABLE notification_transactions ADD COLUMN transaction_reason TEXT",
            "ALTER TABLE notification_transactions ADD COLUMN offer_discount_type TEXT",
            "ALTER TABLE renewal_infos ADD COLUMN auto_renew_status \(d.int64)",
            "UPDATE renewal_infos SET auto_renew_status = CAST(\(d.jsonMember("info", "auto_renew_status")) AS \(d.int64))",
            """
            CREATE TABLE entitlements (
                bundle_id TEXT NOT NULL,
                name TEXT NOT NULL,
                product_id TEXT NOT NULL,
                PRIMARY KEY (bundle_id, name, product_id)
            )
            """,
            """
            CREATE TABLE dashboard_tokens (
                token_id TEXT PRIMARY KEY,
                token_sha256 \(d.bytes) NOT NULL,
                created_ms \(d.int64) NOT NULL,
                revoked_ms \(d.int64)
            )
            """,
            "CREATE INDEX notification_transactions_by_purchase ON notification_transactions (bundle_id, environment, purchase_date_ms)",
            """
            CREATE INDEX notification_transactions_by_expiry ON notification_transactions
                (bundle_id, environment, expires_date_ms, original_transaction_id) WHERE expires_date_ms IS NOT NULL
            """,
            """
            CREATE INDEX notification_transactions_by_subscription ON notification_transactions
                (bundle_id, environment, product_type, original_transaction_id, purchase_date_ms, transaction_id, expires_date_ms,
                revocation_date_ms, price, currency, offer_discount_type, transaction_reason)
            """,
            """
            CREATE INDEX notification_transactions_by_revocation ON notification_transactions
                (bundle_id, environment, revocation_date_ms) WHERE revocation_date_ms IS NOT NULL
            """,
        ]
    }
}

extension SQLDialect {
    /// The text of a top-level member of a JSON object column: `json_extract` / `->>`.
    func jsonMember(_ column: String, _ member: String) -> String {
        self == .sqlite ? "json_extract(\(column), '$.\(member)')" : "(\(column)::json ->> '\(member)')"
    }
}
