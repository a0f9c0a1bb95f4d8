import GRDB

/// The App Store Server API's reads and the posted transactions' writes in SQLite.
extension SQLiteStore {
    /// Through the notification writer (`SignedDataWrite.posted`): durable before it returns,
    /// and cached histories are dropped as after a notification.
    public func save(_ posted: PostedTransaction) async throws {
        try await notificationWriter.submit(.posted(posted))
    }

    public func customer(bundleID: String, environment: String, transactionID: String) async throws -> CustomerRecords? {
        // One read: the linking's statements, then the renewal infos.
        try await read { db in
            var linking = CustomerLinking(of: transactionID, bundleID: bundleID, environment: environment, .sqlite)
            while let step = linking.next {
                switch step {
                case .transactions(let statement):
                    // A cursor's rows read their columns straight from SQLite (no copied row).
                    var transactions: [StoredSignedTransaction] = []
                    let rows = try Row.fetchCursor(db.cachedStatement(sql: statement.text), arguments: Self.arguments(statement))
                    while let row = try rows.next() {
                        transactions.append(
                            SignedDataStatements.transaction(
                                (row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9], row[10], row[11], row[12])))
                    }
                    linking.take(transactions: transactions)
                case .originals(let statement):
                    linking.take(originals: try String.fetchAll(db.cachedStatement(sql: statement.text), arguments: Self.arguments(statement)))
                }
            }
            guard let renewals = linking.renewals else { return nil }
            var records = CustomerRecords(transactions: linking.transactions, renewals: [])
            let rows = try Row.fetchCursor(db.cachedStatement(sql: renewals.text), arguments: Self.arguments(renewals))
            while let row = try rows.next() {
                records.renewals.append(SignedDataStatements.renewal((row[0], row[1], row[2], row[3], row[4])))
            }
            return records
        }
    }

    public func notificationHistory(bundleID: String, environment: String, query: NotificationHistoryQuery) async throws -> [StoredNotificationEntry]
    {
        guard let statement = SignedDataStatements.notificationHistory(bundleID: bundleID, environment: environment, query, .sqlite) else {
            return []
        }
        return try await read { db in
            try Row.fetchAll(db.cachedStatement(sql: statement.text), arguments: Self.arguments(statement)).map { row in
                StoredNotificationEntry(uuid: row[0], signedPayload: row[1], receivedMilliseconds: row[2])
            }
        }
    }

    /// A statement's values as GRDB binds them.
    /// A list is one value per element, as `SQLStatement.among` wrote it.
    static func arguments(_ statement: SQLStatement) -> StatementArguments {
        var values: [DatabaseValue] = []
        values.reserveCapacity(statement.values.count)
        for value in statement.values {
            switch value {
            case .text(let text): values.append(text.databaseValue)
            case .integer(let integer): values.append(integer.databaseValue)
            case .texts(let texts): values += texts.map(\.databaseValue)
            }
        }
        return StatementArguments(values)
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
