import GRDB

/// App transactions in SQLite: written by the notification writer, read by key.
extension SQLiteStore {
    /// Through the notification writer (`SignedDataWrite.appTransaction`): durable before it returns.
    public func save(_ appTransaction: AppTransactionRecord) async throws {
        try await notificationWriter.submit(.appTransaction(appTransaction))
    }

    public func appTransactions(bundleID: String, environment: String, appTransactionIDs: [String]) async throws -> [StoredAppTransaction] {
        guard !appTransactionIDs.isEmpty else { return [] }
        let statement = AppTransactionStatements.select(appTransactionIDs, bundleID: bundleID, environment: environment, .sqlite)
        return try await read { db in
            try Self.rows(db, statement) { row in StoredAppTransaction(appTransactionID: row[0], jws: row[1]) }
        }
    }
}
