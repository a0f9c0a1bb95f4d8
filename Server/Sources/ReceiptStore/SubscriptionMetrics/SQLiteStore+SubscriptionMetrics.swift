import GRDB

/// Subscription metrics in SQLite: the statements at once, each on a reader connection.
extension SQLiteStore {
    public func subscriptionMetrics(_ window: MetricsWindow) async throws -> [MetricsDay] {
        let rows = try await withThrowingTaskGroup(of: [SubscriptionMetricsStatements.Columns].self) { group in
            for statement in SubscriptionMetricsStatements.statements(window, .sqlite) {
                group.addTask {
                    try await self.read { db in
                        try Self.rows(db, statement) { row -> SubscriptionMetricsStatements.Columns in
                            (row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8])
                        }
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return SubscriptionMetricsStatements.days(window, rows)
    }
}
