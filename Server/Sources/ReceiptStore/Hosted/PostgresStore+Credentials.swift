import Foundation
import PostgresNIO

/// The credential tables in PostgreSQL, each edit in its own transaction, within the call deadline.
extension PostgresStore {
    public func appRecords() async throws -> [AppRecord] {
        try await database { [client, logger] in
            var apps: [AppRecord] = []
            let rows = try await client.query(PostgresQuery(unsafeSQL: CredentialStatements.selectAppRecords), logger: logger)
            for try await (bundle, secret, appleID, tokenID, tokenSHA, key, legacy) in rows.decode(
                (String, ByteBuffer?, Int64?, String?, ByteBuffer?, ByteBuffer?, Int64).self)
            {
                apps.append(
                    CredentialStatements.app(
                        bundleID: bundle, secret: secret.map { Array(buffer: $0) }, appleID: appleID,
                        tokenID: tokenID, tokenSHA256: tokenSHA.map { Array(buffer: $0) },
                        sealedEncryptionKey: key.map { Array(buffer: $0) }, acceptsUnprovenLegacyProduction: legacy != 0))
            }
            return apps
        }
    }

    public func putApp(_ app: AppRecord) async throws {
        let r = app.registration, c = app.credentials
        var binds = PostgresBindings()
        binds.append(r.bundleID)
        binds.append(r.sharedSecretHash.map { ByteBuffer(bytes: $0) })
        binds.append(r.appleID)
        binds.append(c?.tokenID)
        binds.append(c.map { ByteBuffer(bytes: $0.tokenSHA256) })
        binds.append(c?.sealedEncryptionKey.map { ByteBuffer(bytes: $0) })
        binds.append(Int64(r.acceptsUnprovenLegacyProduction ? 1 : 0))
        _ = try await run(CredentialStatements.putApp, binds)
    }

    public func removeApp(bundleID: String) async throws -> Bool {
        var binds = PostgresBindings()
        binds.append(bundleID)
        let statements = [(CredentialStatements.deleteAppFromKeys, binds), (CredentialStatements.deleteApp, binds)]
        return try await database { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in
                var returned = 0
                for (sql, binds) in statements {
                    let rows = try await connection.query(PostgresQuery(unsafeSQL: StoreStatements.numbered(sql), binds: binds), logger: logger)
                    for try await _ in rows { returned += 1 }
                }
                return returned > 0
            }
        }
    }

    public func apiKeys() async throws -> [APIKeyRecord] {
        try await database { [client, logger] in
            var rows: [(id: String, sha256: [UInt8], allApps: Int64, created: Int64, revoked: Int64?)] = []
            for try await (id, sha, all, created, revoked) in try await client.query(
                PostgresQuery(unsafeSQL: CredentialStatements.selectKeys), logger: logger
            ).decode((String, ByteBuffer, Int64, Int64, Int64?).self) {
                rows.append((id, Array(buffer: sha), all, created, revoked))
            }
            var apps: [(id: String, bundleID: String)] = []
            for try await (id, bundle) in try await client.query(
                PostgresQuery(unsafeSQL: CredentialStatements.selectKeyApps), logger: logger
            ).decode((String, String).self) {
                apps.append((id, bundle))
            }
            return CredentialStatements.keys(rows, apps: apps)
        }
    }

    public func addAPIKey(_ key: APIKeyRecord) async throws {
        var statements: [(String, PostgresBindings)] = []
        var binds = PostgresBindings()
        binds.append(key.id)
        binds.append(ByteBuffer(bytes: key.sha256))
        binds.append(Int64(key.apps == nil ? 1 : 0))
        binds.append(key.createdMilliseconds)
        statements.append((CredentialStatements.insertKey, binds))
        for bundleID in key.apps ?? [] {
            var appBinds = PostgresBindings()
            appBinds.append(key.id)
            appBinds.append(bundleID)
            statements.append((CredentialStatements.insertKeyApp, appBinds))
        }
        let all = statements
        try await database { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in
                for (sql, binds) in all {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: StoreStatements.numbered(sql), binds: binds), logger: logger)
                }
            }
        }
    }

    public func revokeAPIKey(id: String, at milliseconds: Int64) async throws -> Bool {
        var binds = PostgresBindings()
        binds.append(milliseconds)
        binds.append(id)
        return try await run(CredentialStatements.revokeKey, binds) > 0
    }

    /// Runs one statement; returns the number of rows it returned.
    private func run(_ sql: String, _ binds: PostgresBindings) async throws -> Int {
        try await database { [client, logger] in
            var count = 0
            for try await _ in try await client.query(PostgresQuery(unsafeSQL: StoreStatements.numbered(sql), binds: binds), logger: logger) {
                count += 1
            }
            return count
        }
    }
}
