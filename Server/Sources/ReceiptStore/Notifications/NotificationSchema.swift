/// Schema version 3: what App Store Server Notifications V2 tell of transactions and renewals.
/// (The `notifications` table itself is version 1's: one row per notificationUUID.)
///
/// - `notification_transactions`: each `signedTransactionInfo`, once per (bundle id, environment,
///   transaction id), the one with the latest `signedDate` kept whatever the order of arrival (on
///   equal dates the greater `info` text, so that the order never matters). `info` is the
///   transaction in `in_app`'s key format with the fields only the server side knows;
///   `server_members` is just those fields (`"in_app_ownership_type":"PURCHASED",…`), which a
///   newer receipt's copy of the transaction cannot state and keeps (`TransactionMerge`).
/// - `renewal_infos`: per (bundle id, environment, original transaction id) the `signedRenewalInfo`
///   with the latest `signedDate` (same tie rule), as a `pending_renewal_info` object.
///
/// Receipt transactions stay in `transactions` under their own rule (a later receipt wins); a
/// history reads both tables and merges them by key (`TransactionMerge`), so neither source can
/// move the other's `latest_receipt` pointer.
enum NotificationSchema {
    static let migration = Migration(version: 3, name: "notification_transactions, renewal_infos") { d in
        [
            """
            CREATE TABLE notification_transactions (
                bundle_id TEXT NOT NULL,
                environment TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                original_transaction_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                purchase_date_ms \(d.int64) NOT NULL,
                signed_date_ms \(d.int64) NOT NULL,
                info TEXT NOT NULL,
                server_members TEXT NOT NULL,
                PRIMARY KEY (bundle_id, environment, transaction_id)
            )
            """,
            """
            CREATE INDEX notification_transactions_by_original ON notification_transactions
                (bundle_id, environment, original_transaction_id)
            """,
            """
            CREATE TABLE renewal_infos (
                bundle_id TEXT NOT NULL,
                environment TEXT NOT NULL,
                original_transaction_id TEXT NOT NULL,
                signed_date_ms \(d.int64) NOT NULL,
                info TEXT NOT NULL,
                PRIMARY KEY (bundle_id, environment, original_transaction_id)
            )
            """,
        ]
    }
}
