/// Schema version 9: signed app transactions (StoreKit 2 `AppTransaction`), which Get App
/// Transaction Info answers (DESIGN §13).
///
/// `app_transactions` holds one row per (bundle id, environment, `appTransactionId`): the token as
/// received (`signed_app_transaction`), its `signed_date_ms` (the later token replaces the row,
/// `AppTransactionStatements.upsert`), and `changed_ms`, the server's clock when the row was
/// inserted or last replaced. Rows come from app transactions app backends post and from
/// notifications carrying `appData.signedAppTransactionInfo` (`RESCIND_CONSENT`).
///
/// Nothing links a row to transactions but what Apple signed: a customer's signed transactions
/// (2025 and later) carry `appTransactionId`, read from their stored tokens when asked.
enum AppTransactionSchema {
    static let migration = Migration(version: 9, name: "app transactions") { d in
        [
            """
            CREATE TABLE app_transactions (
                bundle_id TEXT NOT NULL,
                environment TEXT NOT NULL,
                app_transaction_id TEXT NOT NULL,
                signed_date_ms \(d.int64) NOT NULL,
                signed_app_transaction TEXT NOT NULL,
                changed_ms \(d.int64) NOT NULL,
                PRIMARY KEY (bundle_id, environment, app_transaction_id)
            )
            """
        ]
    }
}
