import Logging
import PostgresNIO

/// The App Store Server API's reads and the posted transactions' writes in PostgreSQL.
extension PostgresStore {
    /// Through the notification writer (`SignedDataWrite.posted`): durable before it returns.
    public func save(_ posted: PostedTransaction) async throws {
        try await database { [notificationWriter] in try await notificationWriter.submit(.posted(posted)) }
    }

    /// The transaction id's original ids, then their signed transactions (newest first, at most
    /// `SignedDataStatements.maxCustomerRows`) and renewal infos, on one connection.
    public func customer(bundleID: String, environment: String, transactionID: String) async throws -> CustomerRecords? {
        try await database { [client, logger] in
            try await client.withConnection { connection in
                let named = SignedDataStatements.originalsOf(transactionID, bundleID: bundleID, environment: environment, .postgres)
                let originals = try await connection.query(Self.query(named), logger: logger).decode(String.self).all().sorted()
                guard !originals.isEmpty else { return nil }
                return try await Self.readCustomer(connection, bundleID: bundleID, environment: environment, originals: originals, logger: logger)
            }
        }
    }

    /// The signed transactions (newest first, at most `SignedDataStatements.maxCustomerRows`) and
    /// renewal infos of `originals` (not empty).
    static func readCustomer(
        _ connection: PostgresConnection, bundleID: String, environment: String, originals: [String], logger: Logger
    ) async throws -> CustomerRecords {
        let transactions = SignedDataStatements.transactionsOf(
            originals, limit: SignedDataStatements.maxCustomerRows, bundleID: bundleID, environment: environment, .postgres)
        let renewals = SignedDataStatements.renewalsOf(originals, bundleID: bundleID, environment: environment, .postgres)
        return CustomerRecords(
            transactions: try await connection.query(query(transactions), logger: logger)
                .decode(SignedDataStatements.TransactionColumns.self).all().map(SignedDataStatements.transaction),
            renewals: try await connection.query(query(renewals), logger: logger)
                .decode(SignedDataStatements.RenewalColumns.self).all().map(SignedDataStatements.renewal))
    }

    public func notificationHistory(bundleID: String, environment: String, query: NotificationHistoryQuery) async throws -> [StoredNotificationEntry]
    {
        guard let statement = SignedDataStatements.notificationHistory(bundleID: bundleID, environment: environment, query, .postgres) else {
            return []
        }
        return try await database { [client, logger] in
            try await client.query(Self.query(statement), logger: logger).decode((String, String, Int64).self).all().map {
                StoredNotificationEntry(uuid: $0.0, signedPayload: $0.1, receivedMilliseconds: $0.2)
            }
        }
    }

    /// A statement as PostgresNIO runs it (placeholders numbered).
    static func query(_ statement: SQLStatement) -> PostgresQuery {
        var binds = PostgresBindings(capacity: statement.values.count)
        for value in statement.values { bind(value, &binds) }
        return PostgresQuery(unsafeSQL: statement.text, binds: binds)
    }

    /// Appends one value (a list as one `text[]`, as `SQLStatement.among` wrote it).
    static func bind(_ value: SQLValue, _ binds: inout PostgresBindings) {
        switch value {
        case .text(let text): binds.append(text)
        case .integer(let integer): binds.append(integer)
        case .texts(let texts): binds.append(texts)
        }
    }
}

extension AsyncSequence {
    /// Every element, in order.
    func all() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}
