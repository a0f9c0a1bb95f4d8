import Foundation
import GRDB
import PostgresNIO
import Synchronization

/// The `app_transactions` rows of a test database (schema version 9), read from outside the server.
enum InspectAppTransactions {
    /// One row.
    struct Row: Sendable, Hashable {
        var environment: String
        var appTransactionID: String
        var jws: String
    }

    /// Every row, by environment and `appTransactionId`.
    static func rows(_ database: TestDatabase) async throws -> [Row] {
        let sql = "SELECT environment, app_transaction_id, signed_app_transaction FROM app_transactions ORDER BY environment, app_transaction_id"
        switch database.backend {
        case .sqlite:
            let queue = try DatabaseQueue(path: database.sqlitePath!)
            defer { try? queue.close() }
            return try await queue.read { db in
                try GRDB.Row.fetchAll(db, sql: sql).map { Row(environment: $0[0], appTransactionID: $0[1], jws: $0[2]) }
            }
        case .postgres:
            let found = Mutex<[Row]>([])
            try await Inspect.postgres(database) { client in
                for try await (environment, id, jws) in try await client.query(PostgresQuery(unsafeSQL: sql)).decode((String, String, String).self) {
                    found.withLock { $0.append(Row(environment: environment, appTransactionID: id, jws: jws)) }
                }
            }
            return found.withLock { $0 }
        }
    }
}
