import GRDB

/// Subscription metrics in SQLite: one statement on a reader connection.
extension SQLiteStore {
    public func subscriptionMetrics(_ window: MetricsWindow) async throws -> [MetricsDay] {
        let statement = SubscriptionMetricsStatements.statement(window, .sqlite)
        let rows = try await read { db in
            try Self.rows(db, statement) { row -> SubscriptionMetricsStatements.Columns in
                (row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7])
            }
        }
        return SubscriptionMetricsStatements.days(window, rows)
    }
}
