import GRDB

/// The App Store Server API's reads and the posted transactions' writes in SQLite.
extension SQLiteStore {
    /// Through the notification writer (`SignedDataWrite.posted`): durable before it returns,
    /// and cached histories and customers are dropped as after a notification.
    public func save(_ posted: PostedTransaction) async throws {
        try await notificationWriter.submit(.posted(posted))
    }

    /// From the caches when no commit has happened since (`ReadCaches`): the transaction id's
    /// original ids, then the customer of those originals, kept once whichever of its ids is
    /// asked about. A transaction id not found is read anew each time.
    public func customer(bundleID: String, environment: String, transactionID: String) async throws -> CustomerRecords? {
        let asked = ReadCaches.TransactionKey(bundleID: bundleID, environment: environment, transactionID: transactionID)
        let originals: [String]
        let (known, generation) = caches.originals.lookup(asked)
        if let known {
            originals = known
        } else {
            // An id not asked about since the last commit: its originals (two indexed look-ups),
            // then the customer, from the cache when another of its ids was asked before.
            let statement = SignedDataStatements.originalsOf(transactionID, bundleID: bundleID, environment: environment, .sqlite)
            let found = try await read { db in
                try String.fetchAll(db.cachedStatement(sql: statement.text), arguments: Self.arguments(statement)).sorted()
            }
            guard !found.isEmpty else { return nil }
            caches.originals.insert(found, for: asked, readAt: generation)
            originals = found
        }
        return try await customer(bundleID: bundleID, environment: environment, originals: originals)
    }

    /// The customer of `originals` (sorted), from the cache or read.
    func customer(bundleID: String, environment: String, originals: [String]) async throws -> CustomerRecords {
        let key = ReadCaches.CustomerKey(bundleID: bundleID, environment: environment, originalTransactionIDs: originals)
        let (cached, generation) = caches.customers.lookup(key)
        if let cached { return cached }
        let customer = try await read { db in try Self.readCustomer(db, bundleID: bundleID, environment: environment, originals: originals) }
        caches.customers.insert(customer, for: key, readAt: generation)
        return customer
    }

    /// The signed transactions (newest first, at most `SignedDataStatements.maxCustomerRows`) and
    /// renewal infos of `originals`.
    private static func readCustomer(_ db: Database, bundleID: String, environment: String, originals: [String]) throws -> CustomerRecords {
        let transactions = SignedDataStatements.transactionsOf(
            originals, limit: SignedDataStatements.maxCustomerRows, bundleID: bundleID, environment: environment, .sqlite)
        let renewals = SignedDataStatements.renewalsOf(originals, bundleID: bundleID, environment: environment, .sqlite)
        return CustomerRecords(
            transactions: try rows(db, transactions) { row in
                SignedDataStatements.transaction(
                    (row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9], row[10], row[11], row[12]))
            },
            renewals: try rows(db, renewals) { row in SignedDataStatements.renewal((row[0], row[1], row[2], row[3], row[4], row[5])) })
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
