import AsyncHTTPClient
import Foundation
import Testing

/// `sqlite:PATH` without traps (issue 26), with the built executable: only the server creates a
/// database (and logs where); every other command refuses a missing one, naming its absolute
/// path; one server per file; a clean stop leaves the database file alone, without `-wal`, `-shm`
/// or lock file.
@Suite(.serialized) struct DatabasePathTests {
    /// A new empty folder.
    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-newcomer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }

    /// The names in `folder`, sorted.
    static func contents(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// The fields of the first log line whose message is `message`.
    static func logLine(_ log: String, _ message: String) -> [String: Any]? {
        for line in log.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["message"] as? String == message
            else { continue }
            return object
        }
        return nil
    }

    /// `path` with symbolic links resolved (a temporary folder may be reached through one).
    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// `stats`, `app …`, `apikey …` and `ingest` refuse a SQLite file that is not there, on
    /// standard error with a non-zero status, naming the absolute path (also for a relative
    /// `--database` or one from `--config`); they create nothing: no database, no key file.
    @Test func commandsRefuseAMissingDatabase() async throws {
        let folder = try Self.folder()
        let path = folder + "/missing.sqlite"
        let notifications = folder + "/notifications.jsonl"
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: notifications))
        let expected = "no database at \(path); start the server once, or check --database"
        let commands = [
            ["stats"], ["app", "list"], ["app", "add", "com.example.a"], ["app", "remove", "com.example.a"],
            ["apikey", "list"], ["apikey", "create"], ["apikey", "revoke", "act_x"], ["ingest", notifications],
        ]
        for command in commands {
            let (status, errors) = try await LiveServer.runForErrors(
                command + ["--database", "sqlite:" + path],
                environment: TestSecrets.environmentWithoutKey)
            #expect(status != 0 && errors.contains(expected), "\(command): \(errors)")
        }

        let relative = try await LiveServer.runForErrors(["stats", "--database", "sqlite:./elsewhere/../relative.sqlite"], directory: folder)
        let named = relative.errors.components(separatedBy: "no database at ").dropFirst().first?.components(separatedBy: ";").first
        #expect(relative.status != 0 && named.map(Self.resolved) == Self.resolved(folder + "/relative.sqlite"), "\(relative.errors)")

        let config = folder + "/config.json"
        try JSONSerialization.data(withJSONObject: ["database": "sqlite:" + path]).write(to: URL(fileURLWithPath: config))
        let configured = try await LiveServer.runForErrors(["stats", "--config", config])
        #expect(configured.status != 0 && configured.errors.contains(expected), "\(configured.errors)")
        #expect(try Self.contents(folder) == ["config.json", "notifications.jsonl"])
    }

    /// The server creates a missing file and logs its absolute path (given relative here); the
    /// commands then find it, also while the server runs; a later start creates nothing.
    @Test func serverCreatesTheDatabaseAndSaysWhere() async throws {
        let folder = try Self.folder()
        let server = try await LiveServer.start(["--database", "sqlite:./new.sqlite"], directory: folder)
        let created = try #require(Self.logLine(server.logText, "created a new SQLite database"), "\(server.logText)")
        let logged = try #require(created["path"] as? String)
        #expect(logged.hasPrefix("/") && Self.resolved(logged) == Self.resolved(folder + "/new.sqlite"), "\(logged)")
        let configured = try #require(Self.logLine(server.logText, "receipt-server configured"))
        #expect(
            (configured["database"] as? String).map { Self.resolved(String($0.dropFirst("sqlite:".count))) } == Self.resolved(folder + "/new.sqlite"))

        let database = "sqlite:" + folder + "/new.sqlite"
        let beside = try await LiveServer.run(["app", "add", "com.example.a", "--database", database])
        #expect(beside.status == 0, "\(beside.output)")
        #expect(server.terminate() == 0)
        let stats = try await LiveServer.run(["stats", "--database", database])
        #expect(stats.status == 0 && stats.output.contains(#""receipts": 0"#), "\(stats.output)")

        let again = try await LiveServer.start(["--database", database])
        #expect(again.terminate() == 0)
        #expect(Self.logLine(again.logText, "created a new SQLite database") == nil)
    }

    /// A second server on the same file is refused at start, naming the file, the lock file and
    /// the first server's process; the first serves on. The lock dies with its process: after
    /// SIGKILL the next server starts; a clean stop removes the lock file.
    @Test func oneServerPerFile() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let path = try #require(database.sqlitePath)
        let lockFile = path + ".lock"
        let first = try await LiveServer.start(["--database", database.url])
        #expect(FileManager.default.fileExists(atPath: lockFile))

        let second = try await LiveServer.runForErrors(["serve", "--database", database.url, "--port", "0"])
        #expect(second.status != 0)
        #expect(
            second.errors.contains(
                "\(path) is being served by another receipt-server (process \(first.process.processIdentifier)) "
                    + "holding \(lockFile)"), "\(second.errors)")
        #expect(second.errors.contains("use PostgreSQL for several instances"))
        let health = try await HTTPClient.shared.execute(HTTPClientRequest(url: first.baseURL + "/health"), timeout: .seconds(10))
        #expect(health.status.code == 200)

        first.kill()
        let next = try await LiveServer.start(["--database", database.url])
        #expect(next.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: lockFile))
    }

    /// SIGTERM: the server finishes, closes the database and exits 0, leaving no `-wal` or `-shm`
    /// file (what was written is in the database file itself); nor does a command.
    @Test func cleanStopLeavesNoWALFiles() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let path = try #require(database.sqlitePath)
        let server = try await LiveServer.start(LiveTests.serverArguments(database))
        let answer = try await LiveClient.post(HTTPClient.shared, server.baseURL + "/verifyReceipt", Synthetic.body(StatusTests.consumable))
        #expect(answer.json["status"] as? Int == 0)
        #expect(FileManager.default.fileExists(atPath: path + "-wal") && FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(server.terminate() == 0)
        for suffix in ["-wal", "-shm", ".lock"] {
            #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(suffix) left behind")
        }
        #expect(try await LiveServer.stats(database) == ["receipts": 1, "transactions": 1, "notifications": 0])
        #expect(try Self.contents((path as NSString).deletingLastPathComponent) == ["test.sqlite"])
    }
}
