import PostgresNIO

/// Subscription metrics in PostgreSQL: one statement.
extension PostgresStore {
    public func subscriptionMetrics(_ window: MetricsWindow) async throws -> [MetricsDay] {
        let statement = SubscriptionMetricsStatements.statement(window, .postgres)
        let rows = try await database { [client, logger] in
            try await client.query(Self.query(statement), logger: logger).decode(SubscriptionMetricsStatements.Columns.self).all()
        }
        return SubscriptionMetricsStatements.days(window, rows)
    }
}
