import GRDB

/// Entitlements in SQLite: definitions are edited by commands (each edit its own transaction
/// outside the group-commit writer); an account is read like a customer of the App Store Server
/// API (`customer(bundleID:environment:originals:)`, its cache included).
extension SQLiteStore {
    public func entitlements(bundleID: String) async throws -> [EntitlementDefinition] {
        try await read { db in
            EntitlementStatements.definitions(
                try Row.fetchAll(db, sql: EntitlementStatements.select, arguments: [bundleID]).map { ($0[0], $0[1]) })
        }
    }

    public func setEntitlement(bundleID: String, _ definition: EntitlementDefinition) async throws {
        try await writeEdit { db in
            _ = try Row.fetchAll(db, sql: EntitlementStatements.delete, arguments: [bundleID, definition.name])
            for product in Set(definition.productIDs) {
                try db.execute(sql: EntitlementStatements.insert, arguments: [bundleID, definition.name, product])
            }
        }
    }

    public func removeEntitlement(bundleID: String, name: String) async throws -> Bool {
        try await writeEdit { db in
            try !Row.fetchAll(db, sql: EntitlementStatements.delete, arguments: [bundleID, name]).isEmpty
        }
    }

    public func account(bundleID: String, environment: String, appAccountToken: String) async throws -> CustomerRecords {
        let statement = EntitlementStatements.originals(bundleID: bundleID, environment: environment, token: appAccountToken, .sqlite)
        let originals = try await read { db in
            EntitlementStatements.originalIDs(
                try String.fetchAll(db.cachedStatement(sql: statement.text), arguments: Self.arguments(statement)))
        }
        guard !originals.isEmpty else { return CustomerRecords(transactions: [], renewals: []) }
        return try await customer(bundleID: bundleID, environment: environment, originals: originals)
    }
}
