/// Schema version 6: the signed tokens the App Store Server API passes through (DESIGN §13).
///
/// - `notification_transactions` gains the `signedTransactionInfo` JWS (`signed_transaction`) and
///   what the API's rules read of it: `product_type`, `subscription_group`, `expires_date_ms`,
///   `revocation_date_ms`, `ownership_type`, `app_account_token`; and `changed_ms`, the server's
///   clock when the row was inserted or last replaced (the transaction history's sort key). They
///   change together with the row, by version 3's rule (the latest `signedDate` wins). Rows come
///   from notifications and from transactions app backends post (`PostedTransaction`).
/// - `renewal_infos` gains the `signedRenewalInfo` JWS (`signed_renewal_info`), `billing_retry`
///   (0 or 1) and `grace_period_expires_ms`, by the same rule.
/// - `notifications` gains `original_transaction_id` (its transaction's, else its renewal info's),
///   which the notification history filters by.
/// - Indexes: `notification_transactions_by_token` (bundle id, environment, app account token)
///   links a customer's original transactions; `notifications_by_received` (bundle id,
///   environment, received time, notificationUUID) and `notifications_by_original` (the same
///   with the original transaction id first) serve the notification history.
///
/// Rows stored before version 6 hold no JWS (the new columns are NULL): the App Store Server API
/// does not see those transactions and renewal infos (the verifyReceipt side still does), and
/// older notifications match no transaction id filter of the notification history.
enum SignedDataSchema {
    static let migration = Migration(version: 6, name: "signed transactions and renewal infos") { d in
        [
            "ALTER TABLE notification_transactions ADD COLUMN signed_transaction TEXT",
            "ALTER TABLE notification_transactions ADD COLUMN product_type TEXT",
            "ALTER TABLE notification_transactions ADD COLUMN subscription_group TEXT",
            "ALTER TABLE notification_transactions ADD COLUMN expires_date_ms \(d.int64)",
            "ALTER TABLE notification_transactions ADD COLUMN revocation_date_ms \(d.int64)",
            "ALTER TABLE notification_transactions ADD COLUMN ownership_type TEXT",
            "ALTER TABLE notification_transactions ADD COLUMN app_account_token TEXT",
            "ALTER TABLE notification_transactions ADD COLUMN changed_ms \(d.int64)",
            "ALTER TABLE renewal_infos ADD COLUMN signed_renewal_info TEXT",
            "ALTER TABLE renewal_infos ADD COLUMN billing_retry \(d.int64)",
            "ALTER TABLE renewal_infos ADD COLUMN grace_period_expires_ms \(d.int64)",
            "ALTER TABLE notifications ADD COLUMN original_transaction_id TEXT",
            """
            CREATE INDEX notification_transactions_by_token ON notification_transactions
                (bundle_id, environment, app_account_token) WHERE app_account_token IS NOT NULL
            """,
            "CREATE INDEX notifications_by_received ON notifications (bundle_id, environment, received_ms, notification_uuid)",
            """
            CREATE INDEX notifications_by_original ON notifications
                (bundle_id, environment, original_transaction_id, received_ms) WHERE original_transaction_id IS NOT NULL
            """,
        ]
    }
}
