import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// The shared backend: any number of receipt-server processes on one PostgreSQL database. Writes
/// go through a group-commit writer (one transaction per batch: receipts with `RETURNING`, then the
/// transactions of the new ones as one multi-row upsert); migrations run under an advisory lock,
/// so instances starting together apply them once.
public final class PostgresStore: ReceiptStorage {
    let client: PostgresClient
    private let clientTask: Task<Void, Never>
    private let writer: GroupCommit<ReceiptRecord>
    let notificationWriter: GroupCommit<SignedDataWrite>
    let logger: Logger

    /// `pg_advisory_lock` key of the migrations ("receipt-s" in ASCII).
    static let migrationLockKey: Int64 = 0x7265_6365_6970_742D

    /// Most bind parameters in one statement (PostgreSQL's limit is 65,535).
    static let maxBinds = 60_000

    /// Connects, applies pending migrations under the advisory lock, checks that `secrets` is the
    /// key the database's secrets are sealed under, and starts the pool. A server that cannot be
    /// reached within `connectTimeout`, or that refuses the login or the database, is
    /// `StoreError.unreachable` at once (the pool alone would retry for a minute).
    public init(_ location: DatabaseLocation.PostgresLocation, secrets: any SecretsCodec, logger: Logger) async throws(StoreError) {
        // The migrations run on a connection of their own, made first: its failure is the
        // operator's answer (connection refused, no such database, wrong password).
        let first = try await Self.connect(location, logger: logger)
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user,
            password: location.password, database: location.database, tls: .disable)
        configuration.options.maximumConnections = 16
        configuration.options.connectTimeout = Self.connectTimeout
        // No JIT compilation: PostgreSQL compiles any plan costed above `jit_above_cost`, which
        // took 0.9 s of the subscription metrics' 2.7 s (100,000 subscribers) and never pays back
        // on statements that run in well under a second. `work_mem` 32 MB: with the default 4 MB
        // the metrics' groupings (a few hundred groups, which the planner cannot foresee from
        // day-number expressions) sorted 220,000 rows on disk instead of hashing them in memory
        // (284 ms → 176 ms for the spans); it bounds each sort or hash node of one statement, 16
        // connections at most.
        configuration.options.additionalStartupParameters = [("jit", "off"), ("work_mem", "32MB")]
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        clientTask = Task { await client.run() }
        writer = GroupCommit { batch in
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
        notificationWriter = Self.notificationWriter(client: client, logger: logger)
        do {
            try await Self.migrate(first, secrets: secrets, database: DatabaseLocation.postgres(location).description, logger: logger)
        } catch {
            try? await first.close()
            clientTask.cancel()
            throw error
        }
        try? await first.close()
    }

    /// How long connecting (TCP, then the login) may take: at start-up, and for each of the
    /// pool's connections.
    static let connectTimeout: Duration = .seconds(5)

    /// One connection to `location` within `connectTimeout`, or `StoreError.unreachable` naming
    /// the host, port and database (never the password) and why.
    static func connect(_ location: DatabaseLocation.PostgresLocation, logger: Logger) async throws(StoreError) -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user,
            password: location.password, database: location.database, tls: .disable)
        configuration.options.connectTimeout = TimeAmount(connectTimeout)
        do {
            return try await withDeadline(connectTimeout) { [configuration] in
                try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            }
        } catch {
            throw .unreachable(
                host: location.host, port: location.port, database: location.database,
                reason: connectionFailure(error, password: location.password))
        }
    }

    /// Why a connection failed, in a few words: the system's reason (`connection refused`), the
    /// server's message (`password authentication failed for user "receipts"`, `database
    /// "receipts" does not exist`), or a timeout. `password` is cut out should a message hold it.
    static func connectionFailure(_ error: any Error, password: String? = nil) -> String {
        let text: String
        switch error {
        case is DeadlineExceeded:
            text = "no answer within \(connectTimeout.components.seconds) s"
        case let error as PSQLError:
            if let message = error.serverInfo?[.message] {
                text = message
            } else if let underlying = error.underlying {
                text = connectionFailure(underlying)
            } else if error.code == .authMechanismRequiresPassword {
                text = "the server asks for a password; give it in the URL (postgres://USER:PASS@HOST:PORT/DB)"
            } else if error.code == .serverClosedConnection || error.code == .uncleanShutdown {
                text = "the server closed the connection (is PostgreSQL listening there?)"
            } else if error.code == .messageDecodingFailure || error.code == .unexpectedBackendMessage {
                text = "the server does not speak PostgreSQL's protocol"
            } else {
                text = "\(error.code)"
            }
        case let error as NIOConnectionError:
            if let failure = error.connectionErrors.first {
                text = connectionFailure(failure.error)
            } else if error.dnsAError != nil || error.dnsAAAAError != nil {
                text = "cannot resolve the host name"
            } else {
                text = "the host name has no address"
            }
        case let error as IOError:
            text = DatabaseLock.reason(error.errnoCode)
        case let error as ChannelError:
            if case .connectTimeout = error { text = "no answer within \(connectTimeout.components.seconds) s" } else { text = "\(error)" }
        default:
            text = String(describing: error)
        }
        guard let password, !password.isEmpty else { return text }
        return text.replacingOccurrences(of: password, with: "…")
    }

    /// Applies pending migrations, each in its own transaction, holding the advisory lock; then
    /// checks the secrets key against the database's check value. After migration 5 has rewritten
    /// the secrets, `VACUUM FULL apps` rewrites the table's file without the old row versions
    /// (which held the raw keys).
    static func migrate(_ connection: PostgresConnection, secrets: any SecretsCodec, database: String, logger: Logger) async throws(StoreError) {
        do {
            _ = try await connection.query("SELECT pg_advisory_lock(\(migrationLockKey))", logger: logger)
            do {
                _ = try await connection.query(PostgresQuery(unsafeSQL: Schema.migrationsTable(.postgres)), logger: logger)
                let applied = try await connection.query(PostgresQuery(unsafeSQL: StoreStatements.appliedVersion), logger: logger)
                    .decode(Int64.self).reduce(0) { max($0, $1) }
                for migration in try Schema.pending(after: Int(applied)) {
                    _ = try await connection.query("BEGIN", logger: logger)
                    for statement in migration.statements(.postgres) {
                        _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    if migration.rewrite == .sealSecrets { try await sealSecrets(connection, secrets, logger: logger) }
                    if migration.rewrite == .signedTransactionFacts { try await fillSignedTransactionFacts(connection, logger: logger) }
                    var binds = PostgresBindings()
                    binds.append(Int64(migration.version))
                    binds.append(migration.name)
                    binds.append(EpochMilliseconds.now())
                    _ = try await connection.query(
                        PostgresQuery(unsafeSQL: StoreStatements.numbered(StoreStatements.recordMigration), binds: binds), logger: logger)
                    _ = try await connection.query("COMMIT", logger: logger)
                    logger.info("applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
                    if migration.rewrite == .sealSecrets { _ = try await connection.query("VACUUM FULL apps", logger: logger) }
                }
                try await checkSecrets(connection, secrets, database: database, logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(migrationLockKey))", logger: logger)
                throw error
            }
            _ = try await connection.query("SELECT pg_advisory_unlock(\(migrationLockKey))", logger: logger)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(Self.reason(error))
        }
    }

    /// One batch in the connection's open transaction.
    static func write(_ batch: [ReceiptRecord], _ connection: PostgresConnection, logger: Logger) async throws {
        let now = EpochMilliseconds.now()
        var inserted: [ReceiptRecord] = []
        for chunk in StoreStatements.uniqueRows(batch).chunks(of: maxBinds / 6) {
            var binds = PostgresBindings(capacity: chunk.count * 6)
            for r in chunk {
                binds.append(ByteBuffer(bytes: r.sha256))
                binds.append(r.bundleID)
                binds.append(r.environment)
                binds.append(r.createdMilliseconds)
                binds.append(ByteBuffer(bytes: r.bytes))
                binds.append(now)
            }
            let sql = StoreStatements.numbered(StoreStatements.insertReceipts(rows: chunk.count) + " RETURNING sha256")
            let new = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
                .decode(ByteBuffer.self).reduce(into: Set<[UInt8]>()) { $0.insert(Array(buffer: $1)) }
            inserted += chunk.filter { new.contains($0.sha256) }
        }
        for chunk in StoreStatements.transactionRows(inserted).chunks(of: maxBinds / 10) {
            var binds = PostgresBindings(capacity: chunk.count * 10)
            for row in chunk {
                let t = row.transaction, r = row.receipt
                binds.append(r.bundleID)
                binds.append(r.environment)
                binds.append(t.transactionID)
                binds.append(t.originalTransactionID)
                binds.append(t.productID)
                binds.append(t.purchaseMilliseconds)
                binds.append(t.json)
                binds.append(r.createdMilliseconds)
                binds.append(ByteBuffer(bytes: r.sha256))
                binds.append(r.createdMilliseconds)
            }
            let sql = StoreStatements.numbered(StoreStatements.upsertTransactions(rows: chunk.count))
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        }
    }

    public func save(_ receipt: ReceiptRecord) async throws {
        try await database { [writer] in try await writer.submit(receipt) }
    }

    public func history(bundleID: String, environment: String, originalTransactionIDs: [String]) async throws -> PurchaseHistory {
        guard !originalTransactionIDs.isEmpty else { return PurchaseHistory(transactions: [], latestReceipt: nil) }
        return try await database { [client, logger] in
            let rows = try await client.query(
                """
                SELECT transaction_id, original_transaction_id, purchase_date_ms, info, receipt_sha256, receipt_created_ms, as_of_ms
                FROM transactions WHERE bundle_id = \(bundleID) AND environment = \(environment)
                AND original_transaction_id = ANY(\(originalTransactionIDs))
                ORDER BY purchase_date_ms DESC, transaction_id DESC
                """, logger: logger)
            var transactions: [TransactionMerge.ReceiptRow] = []
            var newest: (created: Int64, sha256: ByteBuffer)?
            for try await (id, original, purchase, info, sha, created, asOf) in rows.decode(
                (String, String, Int64, String, ByteBuffer?, Int64?, Int64).self)
            {
                transactions.append(
                    TransactionMerge.ReceiptRow(
                        transaction: StoredTransaction(
                            transactionID: id, originalTransactionID: original, purchaseMilliseconds: purchase, json: info),
                        asOfMilliseconds: asOf))
                if let sha, let created, created > (newest?.created ?? .min) { newest = (created, sha) }
            }
            var latest: [UInt8]?
            if let newest {
                for try await data in try await client.query("SELECT data FROM receipts WHERE sha256 = \(newest.sha256)", logger: logger).decode(
                    ByteBuffer.self)
                {
                    latest = Array(buffer: data)
                }
            }
            let notified = try await Self.readNotified(
                client, logger: logger, bundleID: bundleID, environment: environment,
                originalTransactionIDs: originalTransactionIDs)
            return PurchaseHistory(
                transactions: TransactionMerge.merge(transactions, notified.transactions), latestReceipt: latest,
                pendingRenewals: notified.renewals)
        }
    }

    public func apps() async throws -> [AppRegistration] {
        try await database { [client, logger] in
            var apps: [AppRegistration] = []
            let rows = try await client.query(PostgresQuery(unsafeSQL: StoreStatements.selectApps), logger: logger)
            for try await (bundle, secret, appleID, legacy) in rows.decode((String, ByteBuffer?, Int64?, Int64).self) {
                apps.append(
                    AppRegistration(
                        bundleID: bundle, sharedSecretHash: secret.map { Array(buffer: $0) }, appleID: appleID,
                        acceptsUnprovenLegacyProduction: legacy != 0))
            }
            return apps
        }
    }

    public func register(_ apps: [AppRegistration]) async throws {
        try await database { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in
                for app in apps {
                    var binds = PostgresBindings()
                    binds.append(app.bundleID)
                    binds.append(app.sharedSecretHash.map { ByteBuffer(bytes: $0) })
                    binds.append(app.appleID)
                    _ = try await connection.query(
                        PostgresQuery(unsafeSQL: StoreStatements.numbered(StoreStatements.upsertApp), binds: binds), logger: logger)
                }
            }
        }
    }

    public func counts() async throws -> StoreCounts {
        try await database { [client, logger] in
            for try await (receipts, transactions, notifications) in try await client.query(
                PostgresQuery(unsafeSQL: StoreStatements.counts), logger: logger
            )
            .decode((Int64, Int64, Int64).self) {
                return StoreCounts(receipts: receipts, transactions: transactions, notifications: notifications)
            }
            throw StoreError.database("COUNT returned no row")
        }
    }

    public func ping() async throws {
        try await database { [client, logger] in _ = try await client.query("SELECT 1", logger: logger).decode(Int.self).reduce(0, +) }
    }

    /// Runs the writer until graceful shutdown (or cancellation), commits what was queued, then
    /// closes the pool.
    public func run() async throws {
        async let notifications: Void = notificationWriter.runUntilShutdown()
        await writer.runUntilShutdown()
        await notifications
        clientTask.cancel()
        await clientTask.value
    }

    /// How long one call may wait (for a connection, or for the server) before it fails:
    /// `StorageDeadline.defaultLimit`.
    static let callTimeout: Duration = StorageDeadline.defaultLimit

    /// Runs `body` within `callTimeout` (less when the request's `StorageDeadline` ends sooner),
    /// reporting any failure as `StoreError.database`. The caller resumes at the deadline even
    /// if `body` never returns.
    func database<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await withDeadline(StorageDeadline.limit(Self.callTimeout), body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.database(Self.reason(error))
        }
    }
}

extension PostgresStore {
    /// A driver error for logs: its code and the server's message, never the query or its binds
    /// (which hold receipt bytes).
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        var text = "\(error.code)"
        if let state = error.serverInfo?[.sqlState] { text += " [\(state)]" }
        if let message = error.serverInfo?[.message] { text += ": \(message)" }
        return text
    }
}
