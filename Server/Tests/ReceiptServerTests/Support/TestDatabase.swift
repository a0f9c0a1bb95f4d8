import Foundation
import Logging
import PostgresNIO

/// A fresh, empty database for one test: a SQLite file in a temporary folder, or a new database
/// on the PostgreSQL cluster that `Server/ci` starts (its URL in `RECEIPT_SERVER_TEST_POSTGRES`).
struct TestDatabase: Sendable, CustomStringConvertible {
    enum Backend: String, Sendable, CaseIterable, CustomStringConvertible {
        case sqlite, postgres
        var description: String { rawValue }
    }

    let backend: Backend
    /// The `--database` value.
    let url: String
    var description: String { url }

    /// The variable `Server/ci` sets: `postgres://USER@HOST:PORT/postgres` of a throwaway cluster.
    static let postgresVariable = "RECEIPT_SERVER_TEST_POSTGRES"
    static let postgresURL = ProcessInfo.processInfo.environment[postgresVariable]

    /// Backends the storage tests run against: both, except that PostgreSQL is left out on a
    /// developer machine without `RECEIPT_SERVER_TEST_POSTGRES`. Under `CI=true` it is always
    /// in, so a missing PostgreSQL fails the tests instead of skipping them.
    static let backends: [Backend] = postgresURL != nil || Fixtures.isCI ? [.sqlite, .postgres] : [.sqlite]

    /// Whether PostgreSQL tests run (see `backends`).
    static let postgresAvailable = postgresURL != nil || Fixtures.isCI

    /// A new empty database of `backend`.
    static func make(_ backend: Backend) async throws -> TestDatabase {
        switch backend {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return TestDatabase(backend: .sqlite, url: "sqlite:" + folder.appendingPathComponent("test.sqlite").path)
        case .postgres:
            guard let base = postgresURL, let components = URLComponents(string: base) else {
                throw UnexpectedAnswer(description: "\(postgresVariable) is not set: run Server/ci, which starts PostgreSQL")
            }
            let name = "receipt_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            try await admin(components) { client in
                _ = try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
            }
            var url = components
            url.path = "/" + name
            return TestDatabase(backend: .postgres, url: url.string!)
        }
    }

    /// The SQLite file's path (SQLite databases only).
    var sqlitePath: String? { url.hasPrefix("sqlite:") ? String(url.dropFirst("sqlite:".count)) : nil }

    /// Runs `body` with a client connected to the cluster's maintenance database.
    static func admin(_ components: URLComponents, _ body: @Sendable (PostgresClient) async throws -> Void) async throws {
        let configuration = PostgresClient.Configuration(
            host: components.host ?? "127.0.0.1", port: components.port ?? 5432,
            username: components.user ?? "postgres", password: components.password,
            database: "postgres", tls: .disable)
        let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "test-admin"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await body(client)
        }
    }
}
