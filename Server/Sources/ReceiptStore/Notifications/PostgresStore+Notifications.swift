import Logging
import PostgresNIO

/// Notifications in PostgreSQL: their own group-commit writer (one transaction per batch, one
/// multi-row statement per table, rows sorted by key), and the notification side of a history.
extension PostgresStore {
    public func save(_ notification: NotificationRecord) async throws {
        try await database { [notificationWriter] in try await notificationWriter.submit(.notification(notification)) }
    }

    static func notificationWriter(client: PostgresClient, logger: Logger) -> GroupCommit<SignedDataWrite> {
        GroupCommit { batch in
            do {
                // Bounded like the callers' waits, so a commit that never returns does not
                // stop the writer: its callers have all been answered 21100 by then.
                try await withDeadline(Self.callTimeout) {
                    try await client.withTransaction(logger: logger) { connection in
                        try await Self.write(batch, connection, logger: logger)
                    }
                }
            } catch {
                throw StoreError.database(Self.reason(error))
            }
        }
    }

    /// One batch in the connection's open transaction: one multi-row statement per table (per
    /// chunk of `maxBinds` values).
    static func write(_ batch: [SignedDataWrite], _ connection: PostgresConnection, logger: Logger) async throws {
        try await writeWebhookEvents(batch, connection, logger: logger)
        let rows = NotificationStatements.Rows(batch)
        let now = EpochMilliseconds.now()
        try await insert(rows.notifications, columns: 9, NotificationStatements.insertNotifications, connection, logger) { n, binds in
            for value in NotificationStatements.notificationValues(n, received: now) { bind(value, &binds) }
        }
        try await insert(
            rows.transactions, columns: NotificationStatements.transactionColumnCount,
            { NotificationStatements.upsertTransactions(rows: $0, .postgres) }, connection, logger
        ) {
            row, binds in
            binds.append(row.key.bundleID)
            binds.append(row.key.environment)
            binds.append(row.key.id)
            for value in NotificationStatements.transactionValues(row.value, changed: now) { bind(value, &binds) }
        }
        for chunk in SubscriptionOrderStatements.subscriptions(rows.transactions).chunks(of: 3 * 100) {
            var binds = PostgresBindings(capacity: chunk.count)
            for value in chunk { bind(value, &binds) }
            let sql = StoreStatements.numbered(SubscriptionOrderStatements.refresh(subscriptions: chunk.count / 3, .postgres))
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        }
        try await insert(
            rows.renewals, columns: NotificationStatements.renewalColumnCount, { NotificationStatements.upsertRenewals(rows: $0, .postgres) },
            connection, logger
        ) {
            row, binds in
            binds.append(row.key.bundleID)
            binds.append(row.key.environment)
            binds.append(row.key.id)
            for value in NotificationStatements.renewalValues(row.value) { bind(value, &binds) }
        }
        try await insert(
            rows.appTransactions, columns: 6, { AppTransactionStatements.upsert(rows: $0, .postgres) }, connection, logger
        ) { row, binds in
            for value in AppTransactionStatements.values(row.value, changed: now) { bind(value, &binds) }
        }
    }

    /// Runs `sql(rowCount)` once per chunk of `rows`, each row bound by `bind` as `columns` values.
    private static func insert<Row>(
        _ rows: [Row], columns: Int, _ sql: (Int) -> String, _ connection: PostgresConnection, _ logger: Logger,
        bind: (Row, inout PostgresBindings) -> Void
    ) async throws {
        for chunk in rows.chunks(of: maxBinds / columns) {
            var binds = PostgresBindings(capacity: chunk.count * columns)
            for row in chunk { bind(row, &binds) }
            _ = try await connection.query(PostgresQuery(unsafeSQL: StoreStatements.numbered(sql(chunk.count)), binds: binds), logger: logger)
        }
    }

    /// What notifications told of these subscriptions: their transactions and renewal infos.
    static func readNotified(
        _ client: PostgresClient, logger: Logger, bundleID: String, environment: String,
        originalTransactionIDs: [String]
    ) async throws -> (transactions: [NotificationTransaction], renewals: [StoredRenewalInfo]) {
        var transactions: [NotificationTransaction] = []
        let rows = try await client.query(
            """
            SELECT transaction_id, original_transaction_id, product_id, purchase_date_ms, signed_date_ms, info, server_members
            FROM notification_transactions WHERE bundle_id = \(bundleID) AND environment = \(environment)
            AND original_transaction_id = ANY(\(originalTransactionIDs))
            """, logger: logger)
        for try await (id, original, product, purchase, signed, info, members) in rows.decode(
            (String, String, String, Int64, Int64, String, String).self)
        {
            transactions.append(
                NotificationTransaction(
                    transactionID: id, originalTransactionID: original, productID: product,
                    purchaseMilliseconds: purchase, signedMilliseconds: signed, json: info,
                    serverMembers: members))
        }
        var renewals: [StoredRenewalInfo] = []
        let renewalRows = try await client.query(
            """
            SELECT original_transaction_id, info FROM renewal_infos WHERE bundle_id = \(bundleID) AND environment = \(environment)
            AND original_transaction_id = ANY(\(originalTransactionIDs)) ORDER BY original_transaction_id COLLATE "C"
            """, logger: logger)
        for try await (original, info) in renewalRows.decode((String, String).self) {
            renewals.append(StoredRenewalInfo(originalTransactionID: original, json: info))
        }
        return (transactions, renewals)
    }
}
