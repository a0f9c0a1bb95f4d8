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
        return try await Inspect.rows(
            database, sql, sqlite: { Row(environment: $0[0], appTransactionID: $0[1], jws: $0[2]) },
            postgres: { row in
                let (environment, id, jws) = try row.decode((String, String, String).self)
                return Row(environment: environment, appTransactionID: id, jws: jws)
            })
    }
}
