import Foundation
import GRDB

/// In-App Purchase keys in SQLite. Edits are rare (commands), so each is its own write
/// transaction outside the group-commit writer.
extension SQLiteStore {
    public func iapKeys() async throws -> [IAPKeyRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: IAPKeyColumns.select).map { row in
                IAPKeyColumns.record(
                    keyID: row[0], issuerID: row[1], publicKey: Self.bytes(row[2]) ?? [], bundleIDs: row[3], created: row[4],
                    revoked: row[5])
            }
        }
    }

    public func putIAPKey(_ key: IAPKeyRecord) async throws {
        try await writeEdit { db in
            try db.execute(
                sql: IAPKeyColumns.put,
                arguments: [
                    key.keyID, key.issuerID, Data(key.publicKey), IAPKeyColumns.bundleIDs(key.bundleIDs), key.createdMilliseconds,
                    key.revokedMilliseconds,
                ])
        }
    }

    public func revokeIAPKey(id: String, at milliseconds: Int64) async throws -> Bool {
        try await writeEdit { db in
            try !String.fetchAll(db, sql: IAPKeyColumns.revoke, arguments: [milliseconds, id]).isEmpty
        }
    }

    /// One write transaction outside the group-commit writer (an edit by a command: keys,
    /// entitlements, dashboard tokens), failures reported as `StoreError.database`.
    func writeEdit<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.write(body)
        } catch {
            throw StoreError.database(String(describing: error))
        }
    }
}
