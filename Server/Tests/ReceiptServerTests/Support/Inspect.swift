import Foundation
import GRDB
import Logging
import PostgresNIO
import ReceiptStore
import Synchronization

/// Looks into a test database from outside the server.
enum Inspect {
    static func counts(_ database: TestDatabase) async throws -> StoreCounts {
        try await Stores.with(DatabaseLocation(database.url), secrets: TestSecrets.key, logger: TestServer.logger) { try await $0.counts() }
    }

    static func history(_ database: TestDatabase, originalTransactionIDs: [String], environment: String = "Production") async throws
        -> PurchaseHistory
    {
        try await Stores.with(DatabaseLocation(database.url), secrets: TestSecrets.key, logger: TestServer.logger) {
            try await $0.history(bundleID: Synthetic.bundleID, environment: environment, originalTransactionIDs: originalTransactionIDs)
        }
    }

    /// Makes every insert into `table` fail inside the database (a real storage failure).
    static func breakInserts(_ database: TestDatabase, table: String = "receipts") async throws {
        switch database.backend {
        case .sqlite:
            let queue = try DatabaseQueue(path: database.sqlitePath!)
            try await queue.write { db in
                try db.execute(
                    sql: "CREATE TRIGGER injected_failure_\(table) BEFORE INSERT ON \(table) BEGIN SELECT RAISE(ABORT, 'injected failure'); END")
            }
            try queue.close()
        case .postgres:
            try await postgres(database) { client in
                _ = try await client.query(
                    """
                    CREATE OR REPLACE FUNCTION injected_failure() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql
                    """)
                _ = try await client.query(
                    PostgresQuery(
                        unsafeSQL: """
                            CREATE TRIGGER injected_failure_\(table) BEFORE INSERT ON \(table) FOR EACH ROW EXECUTE FUNCTION injected_failure()
                            """))
            }
        }
    }

    /// Every row `sql` selects on the test database, each made by `sqlite` or `postgres` (the
    /// backend's row, columns in the statement's order).
    static func rows<T: Sendable>(
        _ database: TestDatabase, _ sql: String, sqlite: @escaping @Sendable (GRDB.Row) throws -> T,
        postgres: @escaping @Sendable (PostgresRow) throws -> T
    ) async throws -> [T] {
        switch database.backend {
        case .sqlite:
            let queue = try DatabaseQueue(path: database.sqlitePath!)
            defer { try? queue.close() }
            return try await queue.read { db in try GRDB.Row.fetchAll(db, sql: sql).map(sqlite) }
        case .postgres:
            let found = Mutex<[T]>([])
            try await Self.postgres(database) { client in
                for try await row in try await client.query(PostgresQuery(unsafeSQL: sql)) {
                    let value = try postgres(row)
                    found.withLock { $0.append(value) }
                }
            }
            return found.withLock { $0 }
        }
    }

    /// Runs `body` with a client on the test's PostgreSQL database.
    static func postgres(_ database: TestDatabase, _ body: @Sendable (PostgresClient) async throws -> Void) async throws {
        guard case .postgres(let location) = try DatabaseLocation(database.url) else { return }
        let configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user,
            password: location.password, database: location.database, tls: .disable)
        let client = PostgresClient(configuration: configuration, backgroundLogger: TestServer.logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await body(client)
        }
    }
}
