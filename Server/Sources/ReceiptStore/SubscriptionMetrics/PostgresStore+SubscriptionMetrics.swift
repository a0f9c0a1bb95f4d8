import PostgresNIO

/// Subscription metrics in PostgreSQL: the statements at once, each on a pool connection.
extension PostgresStore {
    public func subscriptionMetrics(_ window: MetricsWindow) async throws -> [MetricsDay] {
        let rows = try await database { [client, logger] in
            try await withThrowingTaskGroup(of: [SubscriptionMetricsStatements.Columns].self) { group in
                for statement in SubscriptionMetricsStatements.statements(window, .postgres) {
                    group.addTask {
                        try await client.query(Self.query(statement), logger: logger).decode(SubscriptionMetricsStatements.Columns.self).all()
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        }
        return SubscriptionMetricsStatements.days(window, rows)
    }
}
