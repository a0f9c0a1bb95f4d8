/// Migration 5, secrets at rest (issue 25):
/// - `apps.shared_secret_hash` replaces `apps.shared_secret_sha256` (left NULL): a versioned,
///   salted hash (`ReceiptService.SharedSecretHash`).
/// - `apps.encryption_key_sealed` replaces `apps.encryption_key` (left NULL): the app's AES-256 key
///   sealed under the operator's secrets key (AES-256-GCM, the bundle id as associated data).
/// - `secrets_check`: one row, a constant sealed under the operator key, so a server started with
///   another key stops at start instead of failing requests later.
///
/// Its data step (`Migration.Rewrite.sealSecrets`) converts the rows of version 4 in the same
/// transaction: each raw key is sealed, each unsalted SHA-256 is salted, and the old columns are
/// emptied. Columns are not dropped: SQLite would need the table rebuilt, and an emptied column
/// holds nothing to read.
extension Schema {
    static let secretsAtRest = Migration(
        version: 5, name: "secrets at rest: sealed app keys, salted shared secrets, key check",
        rewrite: .sealSecrets
    ) { d in
        [
            "ALTER TABLE apps ADD COLUMN shared_secret_hash \(d.bytes)",
            "ALTER TABLE apps ADD COLUMN encryption_key_sealed \(d.bytes)",
            """
            CREATE TABLE secrets_check (
                id \(d.int64) PRIMARY KEY CHECK (id = 1),
                sealed \(d.bytes) NOT NULL,
                created_ms \(d.int64) NOT NULL
            )
            """,
        ]
    }
}

/// SQL of migration 5's data step and of the key check.
enum SecretsStatements {
    static let legacyApps = "SELECT bundle_id, shared_secret_sha256, encryption_key FROM apps ORDER BY bundle_id"
    static let convertApp = """
        UPDATE apps SET shared_secret_hash = ?, encryption_key_sealed = ?, shared_secret_sha256 = NULL, encryption_key = NULL
        WHERE bundle_id = ?
        """
    static let insertCheck = "INSERT INTO secrets_check (id, sealed, created_ms) VALUES (1, ?, ?)"
    static let selectCheck = "SELECT sealed FROM secrets_check WHERE id = 1"

    /// A row of `apps` as version 4 stored it.
    struct LegacyApp {
        let bundleID: String
        let sharedSecretSHA256: [UInt8]?
        let encryptionKey: [UInt8]?
    }

    /// The new columns of a version-4 row: the salted hash and the sealed key.
    static func convert(_ app: LegacyApp, _ secrets: any SecretsCodec) throws -> (hash: [UInt8]?, sealed: [UInt8]?) {
        (
            app.sharedSecretSHA256.map(secrets.saltedSharedSecretHash(fromSHA256:)),
            try app.encryptionKey.map { try secrets.sealEncryptionKey($0, bundleID: app.bundleID) }
        )
    }

    /// Throws unless `checkValue` (nil: the row is missing) was made under `secrets`.
    static func verify(checkValue: [UInt8]?, _ secrets: any SecretsCodec, database: String) throws(StoreError) {
        guard let checkValue else { throw .database("secrets_check has no row") }
        guard secrets.recognizes(checkValue: checkValue) else { throw .wrongSecretsKey(database: database) }
    }
}
