import PostgresNIO

/// Entitlements in PostgreSQL: an edit is one transaction; an account is read on one connection.
extension PostgresStore {
    public func entitlements(bundleID: String) async throws -> [EntitlementDefinition] {
        try await database { [client, logger] in
            var binds = PostgresBindings()
            binds.append(bundleID)
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: StoreStatements.numbered(EntitlementStatements.select), binds: binds), logger: logger
            ).decode((String, String).self).all()
            return EntitlementStatements.definitions(rows)
        }
    }

    public func setEntitlement(bundleID: String, _ definition: EntitlementDefinition) async throws {
        try await database { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in
                _ = try await connection.query(Self.deleteEntitlement(bundleID, definition.name), logger: logger)
                for product in Set(definition.productIDs) {
                    var binds = PostgresBindings()
                    binds.append(bundleID)
                    binds.append(definition.name)
                    binds.append(product)
                    _ = try await connection.query(
                        PostgresQuery(unsafeSQL: StoreStatements.numbered(EntitlementStatements.insert), binds: binds), logger: logger)
                }
            }
        }
    }

    public func removeEntitlement(bundleID: String, name: String) async throws -> Bool {
        try await database { [client, logger] in
            try await !client.query(Self.deleteEntitlement(bundleID, name), logger: logger).decode(String.self).all().isEmpty
        }
    }

    public func account(bundleID: String, environment: String, appAccountToken: String) async throws -> CustomerRecords {
        try await database { [client, logger] in
            try await client.withConnection { connection in
                let named = EntitlementStatements.originals(bundleID: bundleID, environment: environment, token: appAccountToken, .postgres)
                let originals = EntitlementStatements.originalIDs(
                    try await connection.query(Self.query(named), logger: logger).decode(String.self).all())
                guard !originals.isEmpty else { return CustomerRecords(transactions: [], renewals: []) }
                return try await Self.readCustomer(connection, bundleID: bundleID, environment: environment, originals: originals, logger: logger)
            }
        }
    }

    private static func deleteEntitlement(_ bundleID: String, _ name: String) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(bundleID)
        binds.append(name)
        return PostgresQuery(unsafeSQL: StoreStatements.numbered(EntitlementStatements.delete), binds: binds)
    }
}
