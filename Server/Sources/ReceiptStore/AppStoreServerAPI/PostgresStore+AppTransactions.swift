import PostgresNIO

/// App transactions in PostgreSQL: written by the notification writer, read by key.
extension PostgresStore {
    /// Through the notification writer (`SignedDataWrite.appTransaction`): durable before it returns.
    public func save(_ appTransaction: AppTransactionRecord) async throws {
        try await database { [notificationWriter] in try await notificationWriter.submit(.appTransaction(appTransaction)) }
    }

    public func appTransactions(bundleID: String, environment: String, appTransactionIDs: [String]) async throws -> [StoredAppTransaction] {
        guard !appTransactionIDs.isEmpty else { return [] }
        let statement = AppTransactionStatements.select(appTransactionIDs, bundleID: bundleID, environment: environment, .postgres)
        return try await database { [client, logger] in
            try await client.query(Self.query(statement), logger: logger).decode((String, String).self).all().map {
                StoredAppTransaction(appTransactionID: $0.0, jws: $0.1)
            }
        }
    }
}
