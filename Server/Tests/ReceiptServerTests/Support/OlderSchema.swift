import Foundation
import GRDB
import PostgresNIO
@testable import ReceiptStore

/// Databases as an earlier schema version left them, for the migration tests.
enum OlderSchema {
    /// Creates `database` with the migrations up to `version` applied and recorded, then runs
    /// `rows` (inserts written as that version wrote them). A SQLite file is left 0600.
    static func make(_ database: TestDatabase, version: Int, rows: [String]) async throws {
        let dialect = database.backend.dialect
        let statements =
            [Schema.migrationsTable(dialect)]
            + Schema.migrations.filter { $0.version <= version }.flatMap { migration in
                migration.statements(dialect)
                    + ["INSERT INTO schema_migrations (version, name, applied_ms) VALUES (\(migration.version), '\(migration.name)', 0)"]
            }
            + rows
        switch database.backend {
        case .sqlite:
            let queue = try DatabaseQueue(path: database.sqlitePath!)
            try await queue.write { db in
                for sql in statements { try db.execute(sql: sql) }
            }
            try queue.close()
            try SecretsInspect.makePrivate(database)
        case .postgres:
            try await Inspect.postgres(database) { client in
                for sql in statements { _ = try await client.query(PostgresQuery(unsafeSQL: sql)) }
            }
        }
    }

    /// The row that records `TestSecrets.key` as the database's secrets key (schema version 5 on),
    /// as a version-5-or-later database holds it.
    static func secretsCheck(_ database: TestDatabase) throws -> String {
        let check = try TestSecrets.key.makeCheckValue().map { String(format: "%02x", $0) }.joined()
        let sealed = database.backend == .sqlite ? "X'\(check)'" : "'\\x\(check)'"
        return "INSERT INTO secrets_check (id, sealed, created_ms) VALUES (1, \(sealed), 0)"
    }
}
