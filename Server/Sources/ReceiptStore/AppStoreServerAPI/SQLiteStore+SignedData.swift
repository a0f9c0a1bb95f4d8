import GRDB

/// The App Store Server API's reads and the posted transactions' writes in SQLite.
extension SQLiteStore {
    /// Through the notification writer (`SignedDataWrite.posted`): durable before it returns,
    /// and cached histories and customers are dropped as after a notification.
    public func save(_ posted: PostedTransaction) async throws {
        try await notificationWriter.submit(.posted(posted))
    }

    /// From the cache when no commit has happened since this transaction id's customer was read
    /// (`ReadCaches.customers`); a transaction id not found is read anew each time.
    public func customer(bundleID: String, environment: String, transactionID: String) async throws -> CustomerRecords? {
        let key = ReadCaches.CustomerKey(bundleID: bundleID, environment: environment, transactionID: transactionID)
        let (cached, generation) = caches.customers.lookup(key)
        if let cached { return cached }
        let customer = try await readCustomer(bundleID: bundleID, environment: environment, transactionID: transactionID)
        if let customer { caches.customers.insert(customer, for: key, readAt: generation) }
        return customer
    }

    private func readCustomer(bundleID: String, environment: String, transactionID: String) async throws -> CustomerRecords? {
        // One read: the linking's statements, then the renewal infos.
        try await read { db in
            var linking = CustomerLinking(of: transactionID, bundleID: bundleID, environment: environment, .sqlite)
            while let step = linking.next {
                switch step {
                case .transactions(let statement):
                    linking.take(
                        transactions: try Self.rows(db, statement) { row in
                            SignedDataStatements.transaction(
                                (row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9], row[10], row[11], row[12]))
                        })
                case .originals(let statement):
                    linking.take(originals: try String.fetchAll(db.cachedStatement(sql: statement.text), arguments: Self.arguments(statement)))
                }
            }
            guard let renewals = linking.renewals else { return nil }
            return CustomerRecords(
                transactions: linking.transactions,
                renewals: try Self.rows(db, renewals) { row in SignedDataStatements.renewal((row[0], row[1], row[2], row[3], row[4])) })
        }
    }

    public func notificationHistory(bundleID: String, environment: String, query: NotificationHistoryQuery) async throws -> [StoredNotificationEntry]
    {
        guard let statement = SignedDataStatements.notificationHistory(bundleID: bundleID, environment: environment, query, .sqlite) else {
            return []
        }
        return try await read { db in
            try Self.rows(db, statement) { row in StoredNotificationEntry(uuid: row[0], signedPayload: row[1], receivedMilliseconds: row[2]) }
        }
    }

    /// The rows of `statement`, prepared once per connection (`cachedStatement`), each read by
    /// `read` through a cursor: its columns come straight from SQLite, with no copied row.
    static func rows<T>(_ db: Database, _ statement: SQLStatement, _ read: (Row) throws -> T) throws -> [T] {
        var values: [T] = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: statement.text), arguments: arguments(statement))
        while let row = try rows.next() { values.append(try read(row)) }
        return values
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
