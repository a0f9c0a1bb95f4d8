import Foundation
import Logging
import PostgresNIO

/// Migration 5's data step and the key check, in PostgreSQL (inside the migration's transaction,
/// holding the advisory lock).
extension PostgresStore {
    /// Every version-4 row converted (raw key sealed, unsalted hash salted, old columns emptied),
    /// and the key check value stored.
    static func sealSecrets(_ connection: PostgresConnection, _ secrets: any SecretsCodec, logger: Logger) async throws {
        var rows: [SecretsStatements.LegacyApp] = []
        for try await (bundle, secret, key) in try await connection.query(PostgresQuery(unsafeSQL: SecretsStatements.legacyApps), logger: logger)
            .decode((String, ByteBuffer?, ByteBuffer?).self)
        {
            rows.append(
                SecretsStatements.LegacyApp(
                    bundleID: bundle, sharedSecretSHA256: secret.map { Array(buffer: $0) },
                    encryptionKey: key.map { Array(buffer: $0) }))
        }
        for app in rows {
            let (hash, sealed) = try SecretsStatements.convert(app, secrets)
            var binds = PostgresBindings()
            binds.append(hash.map { ByteBuffer(bytes: $0) })
            binds.append(sealed.map { ByteBuffer(bytes: $0) })
            binds.append(app.bundleID)
            _ = try await connection.query(
                PostgresQuery(unsafeSQL: StoreStatements.numbered(SecretsStatements.convertApp), binds: binds), logger: logger)
        }
        var binds = PostgresBindings()
        binds.append(ByteBuffer(bytes: try secrets.makeCheckValue()))
        binds.append(EpochMilliseconds.now())
        _ = try await connection.query(
            PostgresQuery(unsafeSQL: StoreStatements.numbered(SecretsStatements.insertCheck), binds: binds), logger: logger)
    }

    /// Throws `StoreError.wrongSecretsKey` unless the database's check value opens with `secrets`.
    static func checkSecrets(_ connection: PostgresConnection, _ secrets: any SecretsCodec, database: String, logger: Logger) async throws {
        var check: [UInt8]?
        for try await sealed in try await connection.query(PostgresQuery(unsafeSQL: SecretsStatements.selectCheck), logger: logger)
            .decode(ByteBuffer.self)
        {
            check = Array(buffer: sealed)
        }
        try SecretsStatements.verify(checkValue: check, secrets, database: database)
    }
}
