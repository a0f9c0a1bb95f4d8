/// The SQL of app transactions, one text for both backends (`?` placeholders, numbered for
/// PostgreSQL by `StoreStatements.numbered`).
enum AppTransactionStatements {
    static let columns = "(bundle_id, environment, app_transaction_id, signed_date_ms, signed_app_transaction, changed_ms)"

    /// One row per key. The incoming token replaces the stored one when it is later: a later
    /// `signed_date_ms`, or the same one and a greater token in byte order, so that the row never
    /// depends on the order of arrival. The same token again changes nothing.
    static func upsert(rows: Int, _ d: SQLDialect) -> String {
        let bytewise = d == .postgres ? #" COLLATE "C""# : ""   // SQLite compares TEXT with memcmp (BINARY)
        return """
            INSERT INTO app_transactions \(columns) VALUES \(StoreStatements.placeholders(rows: rows, columns: 6))
            ON CONFLICT (bundle_id, environment, app_transaction_id) DO UPDATE SET
                signed_date_ms = excluded.signed_date_ms, signed_app_transaction = excluded.signed_app_transaction,
                changed_ms = excluded.changed_ms
            WHERE excluded.signed_date_ms > app_transactions.signed_date_ms OR (excluded.signed_date_ms = app_transactions.signed_date_ms \
            AND excluded.signed_app_transaction\(bytewise) > app_transactions.signed_app_transaction\(bytewise))
            """
    }

    /// The values of a row (`columns`), `changed` being the server's clock.
    static func values(_ a: AppTransactionRecord, changed: Int64) -> [SQLValue] {
        [
            .text(a.bundleID), .text(a.environment), .text(a.appTransactionID), .integer(a.signedMilliseconds), .text(a.jws),
            .integer(changed),
        ]
    }

    /// Whether `a` is later than `b`: the rule of `upsert`, for rows of one batch.
    static func later(_ a: AppTransactionRecord, than b: AppTransactionRecord) -> Bool {
        a.signedMilliseconds != b.signedMilliseconds ? a.signedMilliseconds > b.signedMilliseconds : b.jws.utf8.lexicographicallyPrecedes(a.jws.utf8)
    }

    /// (app_transaction_id, signed_app_transaction) of the app transactions `ids` (not empty).
    static func select(_ ids: [String], bundleID: String, environment: String, _ d: SQLDialect) -> SQLStatement {
        var statement = SQLStatement(
            d, "SELECT app_transaction_id, signed_app_transaction FROM app_transactions WHERE bundle_id = ? AND environment = ? AND ",
            .text(bundleID), .text(environment))
        statement.among("app_transaction_id", ids)
        return statement
    }
}
