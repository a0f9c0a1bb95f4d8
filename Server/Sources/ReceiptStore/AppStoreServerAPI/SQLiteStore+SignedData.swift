import GRDB

/// The App Store Server API's reads and the posted transactions' writes in SQLite.
extension SQLiteStore {
    /// Through the notification writer (`NotificationRecord.posted`): durable before it returns,
    /// and cached histories are dropped as after a notification.
    public func save(_ posted: PostedTransaction) async throws {
        try await notificationWriter.submit(.posted(posted))
    }

    public func customer(bundleID: String, environment: String, transactionID: String) async throws -> CustomerRecords? {
        // One read: the linking's statements, then the customer's rows.
        try await read { db in
            var linking = SignedDataStatements.CustomerLinking(of: transactionID, bundleID: bundleID, environment: environment, .sqlite)
            while let statement = linking.next {
                linking.take(try String.fetchAll(db.cachedStatement(sql: statement.text), arguments: Self.arguments(statement)))
            }
            guard let originals = linking.known else { return nil }
            let transactions = SignedDataStatements.transactionsOf(originals, bundleID: bundleID, environment: environment, .sqlite)
            let renewals = SignedDataStatements.renewalsOf(originals, bundleID: bundleID, environment: environment, .sqlite)
            return CustomerRecords(
                transactions: try Row.fetchAll(db, sql: transactions.text, arguments: Self.arguments(transactions)).map { row in
                    SignedDataStatements.transaction(
                        (row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9], row[10], row[11], row[12]))
                },
                renewals: try Row.fetchAll(db, sql: renewals.text, arguments: Self.arguments(renewals)).map { row in
                    SignedDataStatements.renewal((row[0], row[1], row[2], row[3], row[4]))
                })
        }
    }

    public func notificationHistory(bundleID: String, environment: String, query: NotificationHistoryQuery) async throws -> [StoredNotificationEntry]
    {
        guard let statement = SignedDataStatements.notificationHistory(bundleID: bundleID, environment: environment, query, .sqlite) else {
            return []
        }
        return try await read { db in
            try Row.fetchAll(db, sql: statement.text, arguments: Self.arguments(statement)).map { row in
                StoredNotificationEntry(uuid: row[0], signedPayload: row[1], receivedMilliseconds: row[2])
            }
        }
    }

    /// A statement's values as GRDB binds them.
    static func arguments(_ statement: SQLStatement) -> StatementArguments {
        StatementArguments(statement.values.flatMap(databaseValues))
    }

    /// One value as GRDB binds it (a list as one value per element, as `SQLStatement.among` wrote it).
    static func databaseValues(_ value: SQLValue) -> [DatabaseValue] {
        switch value {
        case .text(let text): [text.databaseValue]
        case .integer(let integer): [integer.databaseValue]
        case .texts(let texts): texts.map(\.databaseValue)
        }
    }
}
