import Foundation
import GRDB

/// The credential tables in SQLite. Registry edits are rare (commands, start-up), so each is its
/// own write transaction outside the group-commit writer.
extension SQLiteStore {
    public func appRecords() async throws -> [AppRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: CredentialStatements.selectAppRecords).map { row in
                CredentialStatements.app(
                    bundleID: row[0], secret: Self.bytes(row[1]), appleID: row[2], tokenID: row[3],
                    tokenSHA256: Self.bytes(row[4]), sealedEncryptionKey: Self.bytes(row[5]),
                    acceptsUnprovenLegacyProduction: (row[6] as Int64) != 0)
            }
        }
    }

    public func putApp(_ app: AppRecord) async throws {
        try await write { db in
            let r = app.registration, c = app.credentials
            try db.execute(
                sql: CredentialStatements.putApp,
                arguments: [
                    r.bundleID, r.sharedSecretHash.map { Data($0) }, r.appleID, c?.tokenID, c.map { Data($0.tokenSHA256) },
                    c?.sealedEncryptionKey.map { Data($0) }, r.acceptsUnprovenLegacyProduction ? 1 : 0,
                ])
        }
    }

    public func removeApp(bundleID: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: CredentialStatements.deleteAppFromKeys, arguments: [bundleID])
            return try !String.fetchAll(db, sql: CredentialStatements.deleteApp, arguments: [bundleID]).isEmpty
        }
    }

    public func apiKeys() async throws -> [APIKeyRecord] {
        try await read { db in
            let rows = try Row.fetchAll(db, sql: CredentialStatements.selectKeys).map { row in
                (
                    id: row[0] as String, sha256: Self.bytes(row[1]) ?? [], allApps: row[2] as Int64, created: row[3] as Int64,
                    revoked: row[4] as Int64?
                )
            }
            let apps = try Row.fetchAll(db, sql: CredentialStatements.selectKeyApps).map { (id: $0[0] as String, bundleID: $0[1] as String) }
            return CredentialStatements.keys(rows, apps: apps)
        }
    }

    public func addAPIKey(_ key: APIKeyRecord) async throws {
        try await write { db in
            try db.execute(
                sql: CredentialStatements.insertKey,
                arguments: [key.id, Data(key.sha256), key.apps == nil ? 1 : 0, key.createdMilliseconds])
            for bundleID in key.apps ?? [] {
                try db.execute(sql: CredentialStatements.insertKeyApp, arguments: [key.id, bundleID])
            }
        }
    }

    public func revokeAPIKey(id: String, at milliseconds: Int64) async throws -> Bool {
        try await write { db in
            try !String.fetchAll(db, sql: CredentialStatements.revokeKey, arguments: [milliseconds, id]).isEmpty
        }
    }

    /// One write transaction, failures reported as `StoreError.database`.
    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.write(body)
        } catch {
            throw StoreError.database(String(describing: error))
        }
    }

    static func bytes(_ value: DatabaseValue) -> [UInt8]? {
        Data.fromDatabaseValue(value).map { [UInt8]($0) }
    }
}
