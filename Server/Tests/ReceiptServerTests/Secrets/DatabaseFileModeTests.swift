import Foundation
import HummingbirdTesting
@testable import ReceiptServer
@testable import receipt_server
import ReceiptStore
import Testing

/// The SQLite database's files are the owner's only: created 0600 (with `-wal` and `-shm`), and an
/// existing one that group or others may read is refused at start, naming the file, its mode and
/// the fix.
@Suite struct DatabaseFileModeTests {
    @Test func newDatabaseFilesAre0600() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let path = try #require(database.sqlitePath)
        let umask = Self.umaskValue()
        try await TestServer.with(TestServer.configuration(database)) { client in
            try await client.expectStatus(0, Synthetic.body(StatusTests.consumable))
            for file in [path, path + "-wal", path + "-shm"] {
                #expect(try SecretsInspect.mode(file) == 0o600, "\(file) (umask \(String(umask, radix: 8)))")
            }
        }
    }

    @Test func exposedDatabaseIsRefused() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let path = try #require(database.sqlitePath)
        try await TestServer.with(TestServer.configuration(database)) { _ in }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let error = await #expect(throws: StoreError.self) {
            _ = try await ServerApplication.make(TestServer.configuration(database), logger: TestServer.logger)
        }
        let message = error?.description ?? ""
        #expect(message.contains(path) && message.contains("0644") && message.contains("chmod 600 \(path)"), "\(message)")

        // The executable says the same on standard error and exits non-zero.
        let (status, errors) = try await LiveServer.runForErrors(["stats", "--database", database.url])
        #expect(status != 0 && errors.contains("chmod 600 \(path)"), "\(errors)")

        // Fixed as the message says, it starts; a WAL that others may read is refused as well.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try await TestServer.with(TestServer.configuration(database)) { client in
            try await client.expectStatus(0, Synthetic.body(StatusTests.consumable))
        }
        _ = FileManager.default.createFile(atPath: path + "-wal", contents: Data(), attributes: [.posixPermissions: 0o640])
        let walError = await #expect(throws: StoreError.self) {
            _ = try await ServerApplication.make(TestServer.configuration(database), logger: TestServer.logger)
        }
        #expect(walError?.description.contains("chmod 600 \(path)-wal") == true)
    }

    static func umaskValue() -> mode_t {
        let value = umask(0o022)
        umask(value)
        return value
    }
}
