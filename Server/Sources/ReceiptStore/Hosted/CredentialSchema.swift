/// The hosted-validator API's tables (DESIGN §12's app registry grows here):
/// - `apps.token_id`, `apps.token_sha256`: the app token's public id and the SHA-256 of the whole
///   token (never the token); `apps.encryption_key`: the app's AES-256 key for encrypted answers
///   (raw until version 5 moved it, sealed, to `apps.encryption_key_sealed`).
/// - `api_keys`: each API key's public id, the SHA-256 of the whole key, whether it may use every
///   app's token (`all_apps` 1) or only those listed in `api_key_apps`, created and revoked dates.
extension Schema {
    static let hostedValidator = Migration(version: 4, name: "app tokens, encryption keys, api keys") { d in
        [
            "ALTER TABLE apps ADD COLUMN token_id TEXT",
            "ALTER TABLE apps ADD COLUMN token_sha256 \(d.bytes)",
            "ALTER TABLE apps ADD COLUMN encryption_key \(d.bytes)",
            "CREATE UNIQUE INDEX apps_by_token ON apps (token_id)",
            """
            CREATE TABLE api_keys (
                key_id TEXT PRIMARY KEY,
                key_sha256 \(d.bytes) NOT NULL,
                all_apps \(d.int64) NOT NULL,
                created_ms \(d.int64) NOT NULL,
                revoked_ms \(d.int64)
            )
            """,
            """
            CREATE TABLE api_key_apps (
                key_id TEXT NOT NULL REFERENCES api_keys (key_id),
                bundle_id TEXT NOT NULL,
                PRIMARY KEY (key_id, bundle_id)
            )
            """,
        ]
    }
}

/// SQL of the credential tables, with `?` placeholders (numbered for PostgreSQL).
enum CredentialStatements {
    static let selectAppRecords = """
        SELECT bundle_id, shared_secret_hash, apple_id, token_id, token_sha256, encryption_key_sealed, unproven_legacy_production
        FROM apps ORDER BY bundle_id
        """
    static let putApp = """
        INSERT INTO apps (bundle_id, shared_secret_hash, apple_id, token_id, token_sha256, encryption_key_sealed, unproven_legacy_production)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (bundle_id) DO UPDATE SET shared_secret_hash = excluded.shared_secret_hash, apple_id = excluded.apple_id,
            token_id = excluded.token_id, token_sha256 = excluded.token_sha256, encryption_key_sealed = excluded.encryption_key_sealed,
            unproven_legacy_production = excluded.unproven_legacy_production
        """
    static let deleteApp = "DELETE FROM apps WHERE bundle_id = ? RETURNING bundle_id"
    static let deleteAppFromKeys = "DELETE FROM api_key_apps WHERE bundle_id = ?"
    static let selectKeys = "SELECT key_id, key_sha256, all_apps, created_ms, revoked_ms FROM api_keys ORDER BY created_ms, key_id"
    static let selectKeyApps = "SELECT key_id, bundle_id FROM api_key_apps ORDER BY key_id, bundle_id"
    static let insertKey = "INSERT INTO api_keys (key_id, key_sha256, all_apps, created_ms, revoked_ms) VALUES (?, ?, ?, ?, NULL)"
    static let insertKeyApp = "INSERT INTO api_key_apps (key_id, bundle_id) VALUES (?, ?)"
    static let revokeKey = "UPDATE api_keys SET revoked_ms = COALESCE(revoked_ms, ?) WHERE key_id = ? RETURNING key_id"

    /// Keys from their rows and the rows of `api_key_apps`.
    static func keys(
        _ rows: [(id: String, sha256: [UInt8], allApps: Int64, created: Int64, revoked: Int64?)],
        apps: [(id: String, bundleID: String)]
    ) -> [APIKeyRecord] {
        let listed = Dictionary(grouping: apps, by: \.id).mapValues { $0.map(\.bundleID) }
        return rows.map { row in
            APIKeyRecord(
                id: row.id, sha256: row.sha256, apps: row.allApps != 0 ? nil : listed[row.id] ?? [],
                createdMilliseconds: row.created, revokedMilliseconds: row.revoked)
        }
    }

    /// An app record from its columns; credentials only when the app has a token.
    static func app(
        bundleID: String, secret: [UInt8]?, appleID: Int64?, tokenID: String?, tokenSHA256: [UInt8]?,
        sealedEncryptionKey: [UInt8]?, acceptsUnprovenLegacyProduction: Bool
    ) -> AppRecord {
        let credentials = tokenID.flatMap { id in
            tokenSHA256.map { AppCredentials(tokenID: id, tokenSHA256: $0, sealedEncryptionKey: sealedEncryptionKey) }
        }
        return AppRecord(
            registration: AppRegistration(
                bundleID: bundleID, sharedSecretHash: secret, appleID: appleID,
                acceptsUnprovenLegacyProduction: acceptsUnprovenLegacyProduction),
            credentials: credentials)
    }
}
