import Logging
import PostgresNIO

extension PostgresStore {
    /// `SignedTransactionBackfill` in the migration's transaction.
    static func fillSignedTransactionFacts(_ connection: PostgresConnection, logger: Logger) async throws {
        var after: (String, String, String)?
        while true {
            let statement = SignedTransactionBackfill.next(after: after, .postgres)
            let rows = try await connection.query(query(statement), logger: logger).decode((String, String, String, String).self).all()
            for (bundle, environment, id, jws) in rows {
                let update = SignedTransactionBackfill.update(
                    SignedTransactionBackfill.facts(jws), key: (bundle, environment, id), .postgres)
                _ = try await connection.query(query(update), logger: logger)
            }
            guard rows.count == SignedTransactionBackfill.batch, let last = rows.last else { return }
            after = (last.0, last.1, last.2)
        }
    }
}
