import Foundation
import GRDB

/// Notifications in SQLite: their own group-commit writer (durable before answered, as receipts),
/// and the notification side of a history.
extension SQLiteStore {
    public func save(_ notification: NotificationRecord) async throws {
        try await notificationWriter.submit(.notification(notification))
    }

    /// The writer: one transaction per batch; cached histories and customers are dropped after a
    /// batch that changed anything, before its requests are answered.
    static func notificationWriter(pool: DatabasePool, caches: ReadCaches) -> GroupCommit<SignedDataWrite> {
        GroupCommit { batch in
            do {
                let changed = try await pool.write { db in try Self.write(batch, db) }
                if changed { caches.invalidate() }
            } catch {
                throw StoreError.database(String(describing: error))
            }
        }
    }

    /// One batch in the current transaction. Returns whether any row changed.
    static func write(_ batch: [SignedDataWrite], _ db: Database) throws -> Bool {
        try writeWebhookEvents(batch, db)
        let rows = NotificationStatements.Rows(batch)
        let now = EpochMilliseconds.now()
        var changed = false
        let insert = try db.cachedStatement(sql: NotificationStatements.insertNotifications(rows: 1))
        for n in rows.notifications {
            try insert.execute(arguments: StatementArguments(NotificationStatements.notificationValues(n, received: now).flatMap(databaseValues)))
            changed = changed || db.changesCount > 0
        }
        let upsertTransaction = try db.cachedStatement(sql: NotificationStatements.upsertTransactions(rows: 1, .sqlite))
        for (key, t) in rows.transactions {
            let values =
                [SQLValue.text(key.bundleID), .text(key.environment), .text(key.id)] + NotificationStatements.transactionValues(t, changed: now)
            try upsertTransaction.execute(arguments: StatementArguments(values.flatMap(databaseValues)))
            changed = changed || db.changesCount > 0
        }
        let refreshOrder = try db.cachedStatement(sql: SubscriptionOrderStatements.refresh(subscriptions: 1, .sqlite))
        for key in SubscriptionOrderStatements.subscriptions(rows.transactions).chunks(of: 3) {
            try refreshOrder.execute(arguments: StatementArguments(key.flatMap(databaseValues)))
        }
        let upsertRenewal = try db.cachedStatement(sql: NotificationStatements.upsertRenewals(rows: 1, .sqlite))
        for (key, r) in rows.renewals {
            let values = [SQLValue.text(key.bundleID), .text(key.environment), .text(key.id)] + NotificationStatements.renewalValues(r)
            try upsertRenewal.execute(arguments: StatementArguments(values.flatMap(databaseValues)))
            changed = changed || db.changesCount > 0
        }
        let upsertAppTransaction = try db.cachedStatement(sql: AppTransactionStatements.upsert(rows: 1, .sqlite))
        for (_, a) in rows.appTransactions {
            try upsertAppTransaction.execute(arguments: StatementArguments(AppTransactionStatements.values(a, changed: now).flatMap(databaseValues)))
            changed = changed || db.changesCount > 0
        }
        return changed
    }

    /// What notifications told of these subscriptions: their transactions and renewal infos.
    static func readNotified(
        _ db: Database, bundleID: String, environment: String,
        originalTransactionIDs: [String]
    ) throws -> (transactions: [NotificationTransaction], renewals: [StoredRenewalInfo]) {
        let (among, padded) = StoreStatements.inList(originalTransactionIDs)
        var arguments: [any DatabaseValueConvertible] = [bundleID, environment]
        arguments += padded
        let transactions = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT transaction_id, original_transaction_id, product_id, purchase_date_ms, signed_date_ms, info, server_members
                    FROM notification_transactions WHERE bundle_id = ? AND environment = ? AND original_transaction_id IN \(among)
                    """), arguments: StatementArguments(arguments)
        ).map { row in
            NotificationTransaction(
                transactionID: row[0], originalTransactionID: row[1], productID: row[2], purchaseMilliseconds: row[3],
                signedMilliseconds: row[4], json: row[5], serverMembers: row[6])
        }
        let renewals = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT original_transaction_id, info FROM renewal_infos
                    WHERE bundle_id = ? AND environment = ? AND original_transaction_id IN \(among) ORDER BY original_transaction_id
                    """), arguments: StatementArguments(arguments)
        ).map { row in
            StoredRenewalInfo(originalTransactionID: row[0], json: row[1])
        }
        return (transactions, renewals)
    }
}
