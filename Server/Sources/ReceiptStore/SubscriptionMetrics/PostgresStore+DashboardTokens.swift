import PostgresNIO

/// Dashboard credentials in PostgreSQL, each edit one statement.
extension PostgresStore {
    public func dashboardTokens() async throws -> [DashboardTokenRecord] {
        try await database { [client, logger] in
            try await client.query(PostgresQuery(unsafeSQL: DashboardTokenStatements.select), logger: logger)
                .decode((String, ByteBuffer, Int64, Int64?).self).all()
                .map { DashboardTokenRecord(id: $0.0, sha256: Array(buffer: $0.1), createdMilliseconds: $0.2, revokedMilliseconds: $0.3) }
        }
    }

    public func addDashboardToken(_ token: DashboardTokenRecord) async throws {
        var binds = PostgresBindings()
        binds.append(token.id)
        binds.append(ByteBuffer(bytes: token.sha256))
        binds.append(token.createdMilliseconds)
        _ = try await runEdit(DashboardTokenStatements.insert, binds)
    }

    public func revokeDashboardToken(id: String, at milliseconds: Int64) async throws -> Bool {
        var binds = PostgresBindings()
        binds.append(milliseconds)
        binds.append(id)
        return try await runEdit(DashboardTokenStatements.revoke, binds) > 0
    }
}
