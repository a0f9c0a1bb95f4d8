import Foundation
import GRDB
import Logging
import ServiceLifecycle

/// The embedded backend: one SQLite file in WAL mode (readers never wait for the writer), written
/// by one group-commit writer with `synchronous = FULL`, so a commit is on disk before any of
/// its requests is answered. One server process per file (several processes use PostgreSQL):
/// that is what lets it keep histories and customers in memory between commits (`ReadCaches`), and what the
/// server's lock on the file (`DatabaseLock`) enforces.
public final class SQLiteStore: ReceiptStorage {
    let pool: DatabasePool
    private let writer: GroupCommit<ReceiptRecord>
    let notificationWriter: GroupCommit<SignedDataWrite>
    let caches = ReadCaches()
    /// The database's path as given.
    let path: String
    let logger: Logger
    /// The server's hold on the file (`OpenOptions.locksFile`), released once the store is closed.
    private let lock: DatabaseLock?

    /// Opens the database at `path` as `options` say (creating it when absent, mode 0600, by
    /// default), applies pending migrations and checks that `secrets` is the key the database's
    /// secrets are sealed under. A database file that group or others may read is refused
    /// (`DatabaseFile`); with `options.locksFile`, so is a file another server holds
    /// (`DatabaseLock`).
    public init(path: String, secrets: any SecretsCodec, logger: Logger, options: OpenOptions = .default) throws(StoreError) {
        let lock = options.locksFile ? try DatabaseLock(database: path) : nil
        do {
            try Self.prepare(path, options: options, logger: logger)
        } catch {
            lock?.release()
            throw error
        }
        self.lock = lock
        self.path = path
        self.logger = logger
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "receipt-server"
        // Readers map the file instead of copying each page with pread (SQLite §"Memory-Mapped
        // I/O"; writes still go through write(2) and the WAL): 0.74 → 0.60 ms of CPU per stored
        // receipt under Server/bench, +22 % distinct receipts a second.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 1073741824") }
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            try pool.writeWithoutTransaction { db in
                // GRDB's WAL default is NORMAL; FULL syncs the WAL at every commit.
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try Self.migrate(db, secrets: secrets, database: path, logger: logger)
            }
            self.pool = pool
        } catch let error as StoreError {
            lock?.release()
            throw error
        } catch {
            lock?.release()
            throw .database(String(describing: error))
        }
        writer = GroupCommit { [pool, caches] batch in
            do {
                let stored = try await pool.write { db in try Self.write(batch, db) }
                if stored { caches.invalidate() }
            } catch {
                throw StoreError.database(String(describing: error))
            }
        }
        notificationWriter = Self.notificationWriter(pool: pool, caches: caches)
    }

    /// Creates the file (logging its absolute path) or refuses it missing, as `options` say.
    private static func prepare(_ path: String, options: OpenOptions, logger: Logger) throws(StoreError) {
        if try DatabaseFile.prepare(path, create: options.createsFile) {
            logger.notice("created a new SQLite database", metadata: ["path": "\(DatabaseFile.absolute(path))"])
        }
    }

    /// Applies pending migrations in one exclusive transaction (other processes opening the same
    /// file wait for it), then checks the secrets key against the database's check value. While
    /// secrets are rewritten, `secure_delete` zeroes the space the old values leave, and the WAL
    /// is checkpointed and truncated after the commit, so the raw keys do not stay in the files.
    static func migrate(_ db: Database, secrets: any SecretsCodec, database: String, logger: Logger) throws {
        var rewroteSecrets = false
        try db.execute(sql: "PRAGMA secure_delete = ON")
        try db.inTransaction(.exclusive) {
            try db.execute(sql: Schema.migrationsTable(.sqlite))
            let applied = try Int.fetchOne(db, sql: StoreStatements.appliedVersion) ?? 0
            for migration in try Schema.pending(after: applied) {
                for statement in migration.statements(.sqlite) { try db.execute(sql: statement) }
                if migration.rewrite == .sealSecrets {
                    try sealSecrets(db, secrets)
                    rewroteSecrets = true
                }
                if migration.rewrite == .signedTransactionFacts { try fillSignedTransactionFacts(db) }
                try db.execute(
                    sql: StoreStatements.recordMigration,
                    arguments: [migration.version, migration.name, EpochMilliseconds.now()])
                logger.info("applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
            }
            let check = try Data.fetchOne(db, sql: SecretsStatements.selectCheck).map { [UInt8]($0) }
            try SecretsStatements.verify(checkValue: check, secrets, database: database)
            return .commit
        }
        try db.execute(sql: "PRAGMA secure_delete = OFF")
        if rewroteSecrets { try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Migration 5's data step: every version-4 row converted, and the key check value stored.
    static func sealSecrets(_ db: Database, _ secrets: any SecretsCodec) throws {
        let rows = try Row.fetchAll(db, sql: SecretsStatements.legacyApps).map { row in
            SecretsStatements.LegacyApp(bundleID: row[0], sharedSecretSHA256: bytes(row[1]), encryptionKey: bytes(row[2]))
        }
        for app in rows {
            let (hash, sealed) = try SecretsStatements.convert(app, secrets)
            try db.execute(sql: SecretsStatements.convertApp, arguments: [hash.map { Data($0) }, sealed.map { Data($0) }, app.bundleID])
        }
        try db.execute(sql: SecretsStatements.insertCheck, arguments: [Data(try secrets.makeCheckValue()), EpochMilliseconds.now()])
    }

    /// One batch in the current transaction: new receipts, then the transactions of those that
    /// were new (a receipt stored before changes nothing).
    /// Returns whether anything was stored.
    static func write(_ batch: [ReceiptRecord], _ db: Database) throws -> Bool {
        let insertReceipt = try db.cachedStatement(sql: StoreStatements.insertReceipts(rows: 1))
        let now = EpochMilliseconds.now()
        var inserted: [ReceiptRecord] = []
        for receipt in StoreStatements.uniqueRows(batch) {
            try insertReceipt.execute(arguments: [
                Data(receipt.sha256), receipt.bundleID, receipt.environment,
                receipt.createdMilliseconds, Data(receipt.bytes), now,
            ])
            if db.changesCount > 0 { inserted.append(receipt) }
        }
        let upsert = try db.cachedStatement(sql: StoreStatements.upsertTransactions(rows: 1))
        for row in StoreStatements.transactionRows(inserted) {
            let t = row.transaction, r = row.receipt
            try upsert.execute(arguments: [
                r.bundleID, r.environment, t.transactionID, t.originalTransactionID, t.productID,
                t.purchaseMilliseconds, t.json, r.createdMilliseconds, Data(r.sha256),
                r.createdMilliseconds,
            ])
        }
        return !inserted.isEmpty
    }

    public func save(_ receipt: ReceiptRecord) async throws {
        try await writer.submit(receipt)
    }

    public func history(bundleID: String, environment: String, originalTransactionIDs: [String]) async throws -> PurchaseHistory {
        guard !originalTransactionIDs.isEmpty else { return PurchaseHistory(transactions: [], latestReceipt: nil) }
        let key = ReadCaches.HistoryKey(bundleID: bundleID, environment: environment, originalTransactionIDs: originalTransactionIDs)
        let (cached, generation) = caches.histories.lookup(key)
        if let cached { return cached }
        let history = try await readHistory(bundleID: bundleID, environment: environment, originalTransactionIDs: originalTransactionIDs)
        caches.histories.insert(history, for: key, readAt: generation)
        return history
    }

    private func readHistory(bundleID: String, environment: String, originalTransactionIDs: [String]) async throws -> PurchaseHistory {
        try await read { db in
            let among = StoreStatements.inList(originalTransactionIDs)
            let sql = """
                SELECT transaction_id, original_transaction_id, purchase_date_ms, info, receipt_sha256, receipt_created_ms, as_of_ms
                FROM transactions WHERE bundle_id = ? AND environment = ? AND original_transaction_id IN \
                \(among.placeholders)
                ORDER BY purchase_date_ms DESC, transaction_id DESC
                """
            var arguments: [any DatabaseValueConvertible] = [bundleID, environment]
            arguments += among.ids
            var transactions: [TransactionMerge.ReceiptRow] = []
            var newest: (created: Int64, sha256: Data)?
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                transactions.append(
                    TransactionMerge.ReceiptRow(
                        transaction: StoredTransaction(
                            transactionID: row[0], originalTransactionID: row[1], purchaseMilliseconds: row[2], json: row[3]),
                        asOfMilliseconds: row[6]))
                if let sha: Data = row[4], let created: Int64 = row[5], created > (newest?.created ?? .min) {
                    newest = (created, sha)
                }
            }
            let latest = try newest.flatMap { try Data.fetchOne(db.cachedStatement(sql: StoreStatements.selectReceiptData), arguments: [$0.sha256]) }
            let notified = try Self.readNotified(db, bundleID: bundleID, environment: environment, originalTransactionIDs: originalTransactionIDs)
            return PurchaseHistory(
                transactions: TransactionMerge.merge(transactions, notified.transactions),
                latestReceipt: latest.map { [UInt8]($0) }, pendingRenewals: notified.renewals)
        }
    }

    public func apps() async throws -> [AppRegistration] {
        try await read { db in
            try Row.fetchAll(db, sql: StoreStatements.selectApps).map { row in
                AppRegistration(
                    bundleID: row[0], sharedSecretHash: (row[1] as Data?).map { [UInt8]($0) }, appleID: row[2],
                    acceptsUnprovenLegacyProduction: (row[3] as Int64) != 0)
            }
        }
    }

    public func register(_ apps: [AppRegistration]) async throws {
        do {
            try await pool.write { db in
                for app in apps {
                    try db.execute(sql: StoreStatements.upsertApp, arguments: [app.bundleID, app.sharedSecretHash.map { Data($0) }, app.appleID])
                }
            }
        } catch {
            throw StoreError.database(String(describing: error))
        }
    }

    public func counts() async throws -> StoreCounts {
        try await read { db in
            let row = try Row.fetchOne(db, sql: StoreStatements.counts)!
            return StoreCounts(receipts: row[0], transactions: row[1], notifications: row[2])
        }
    }

    public func ping() async throws {
        _ = try await read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    /// Runs the writer until graceful shutdown (or cancellation), commits what was queued, closes
    /// the database (`close()`) and lets the file's lock go.
    public func run() async throws {
        async let notifications: Void = notificationWriter.runUntilShutdown()
        await writer.runUntilShutdown()
        await notifications
        close()
        lock?.release()
    }

    /// Closes the pool and leaves no `-wal` or `-shm` file behind when no other process has the
    /// database open. GRDB closes the pool's writer before its readers, and a read-only
    /// connection that closes last cannot checkpoint, so SQLite would keep both files; one more
    /// read-write connection, opened and closed after the pool, is the last one and removes them
    /// (SQLite's WAL §"Persistence of WAL mode": the last connection to close checkpoints and
    /// deletes the WAL and its shared-memory file).
    private func close() {
        do {
            try pool.close()
        } catch {
            logger.warning("the database did not close cleanly", metadata: ["error": "\(error)"])
            return
        }
        guard DatabaseFile.exists(path + "-wal") || DatabaseFile.exists(path + "-shm") else { return }
        do {
            let last = try DatabaseQueue(path: path)
            try last.inDatabase { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            try last.close()
        } catch {
            logger.warning("the database's WAL was not checkpointed at close", metadata: ["error": "\(error)"])
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw StoreError.database(String(describing: error))
        }
    }
}
