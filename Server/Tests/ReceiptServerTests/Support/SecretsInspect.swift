import Foundation
import GRDB
import PostgresNIO
import Synchronization
import Testing

/// Looks at how a test database keeps secrets, from outside the server.
enum SecretsInspect {
    /// The secret columns of one `apps` row.
    struct AppRow: Sendable, Equatable {
        var sharedSecretSHA256: [UInt8]?
        var sharedSecretHash: [UInt8]?
        var encryptionKey: [UInt8]?
        var sealedEncryptionKey: [UInt8]?
    }

    static let appColumns = "shared_secret_sha256, shared_secret_hash, encryption_key, encryption_key_sealed"

    /// The row of `bundleID` (schema version 5).
    static func app(_ database: TestDatabase, _ bundleID: String) async throws -> AppRow? {
        let sql = "SELECT \(appColumns) FROM apps WHERE bundle_id = '\(bundleID)'"
        return try await Inspect.rows(
            database, sql,
            sqlite: { row in
                AppRow(
                    sharedSecretSHA256: (row[0] as Data?).map(Array.init), sharedSecretHash: (row[1] as Data?).map(Array.init),
                    encryptionKey: (row[2] as Data?).map(Array.init), sealedEncryptionKey: (row[3] as Data?).map(Array.init))
            },
            postgres: { row in
                let (a, b, c, d) = try row.decode((ByteBuffer?, ByteBuffer?, ByteBuffer?, ByteBuffer?).self)
                return AppRow(
                    sharedSecretSHA256: a.map { Array(buffer: $0) }, sharedSecretHash: b.map { Array(buffer: $0) },
                    encryptionKey: c.map { Array(buffer: $0) }, sealedEncryptionKey: d.map { Array(buffer: $0) })
            }
        ).first
    }

    /// Runs one statement on the test database (a change made outside the server).
    static func execute(_ database: TestDatabase, _ sql: String) async throws {
        switch database.backend {
        case .sqlite:
            let queue = try DatabaseQueue(path: database.sqlitePath!)
            try await queue.write { try $0.execute(sql: sql) }
            try queue.close()
        case .postgres:
            try await Inspect.postgres(database) { client in _ = try await client.query(PostgresQuery(unsafeSQL: sql)) }
        }
    }

    /// Whether `bytes` appear anywhere the database keeps data: the SQLite file with its WAL and
    /// shared memory, or (PostgreSQL) any row of any table, bytea written as hex.
    static func holds(_ database: TestDatabase, _ bytes: [UInt8]) async throws -> Bool {
        if let path = database.sqlitePath {
            return ["", "-wal", "-shm"].compactMap { FileManager.default.contents(atPath: path + $0) }
                .contains { Array($0).contains(subsequence: bytes) }
        }
        let text = try await CommandLineRegistry.everythingStored(database)
        return text.contains(bytes.map { String(format: "%02x", $0) }.joined())
    }

    /// An SQL literal of `bytes` in the backend's dialect.
    static func literal(_ bytes: [UInt8], _ backend: TestDatabase.Backend) -> String {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        return backend == .sqlite ? "X'\(hex)'" : "'\\x\(hex)'::bytea"
    }

    /// Mode 0600 for a SQLite database a test made with GRDB (which follows the umask), as the
    /// server requires.
    static func makePrivate(_ database: TestDatabase) throws {
        guard let path = database.sqlitePath else { return }
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        }
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }
}

extension Array where Element: Equatable {
    /// Whether `subsequence` occurs in the array.
    func contains(subsequence: [Element]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return subsequence.isEmpty }
        return (0 ... count - subsequence.count).contains { self[$0 ..< $0 + subsequence.count].elementsEqual(subsequence) }
    }
}
