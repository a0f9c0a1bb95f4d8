import Foundation
import Testing

/// Start-up failures a newcomer meets (issue 26), with the built executable: a port another
/// process holds stops the server before the database is touched; a PostgreSQL server that cannot
/// be reached is named (host, port, database, never the password) within 5 s.
@Suite(.serialized) struct StartupFailureTests {
    /// A port held by another socket: the server stops at once with the address and the flag to
    /// change, and nothing was written: no database, no key file, no lock file. The same for the
    /// metrics listener's port.
    @Test func portInUseStopsBeforeTheDatabase() async throws {
        let held = try HeldPort()
        defer { held.close() }
        let folder = try DatabasePathTests.folder()
        let database = "sqlite:" + folder + "/never.sqlite"
        let bare = TestSecrets.environmentWithoutKey

        let main = try await LiveServer.runForErrors(
            ["serve", "--database", database, "--host", "127.0.0.1", "--port", "\(held.port)"],
            environment: bare)
        #expect(main.status != 0)
        #expect(main.errors.contains("cannot listen on 127.0.0.1:\(held.port): address already in use"), "\(main.errors)")
        #expect(main.errors.contains("choose another --port") && !main.errors.contains("bind(descriptor"))
        #expect(try DatabasePathTests.contents(folder).isEmpty)

        let metrics = try await LiveServer.runForErrors(
            ["serve", "--database", database, "--port", "0", "--metrics-port", "\(held.port)"],
            environment: bare)
        #expect(metrics.status != 0)
        #expect(
            metrics.errors.contains("cannot listen on 127.0.0.1:\(held.port)") && metrics.errors.contains("choose another --metrics-port"),
            "\(metrics.errors)")
        #expect(try DatabasePathTests.contents(folder).isEmpty)
    }

    /// A closed port: `stats` and the server fail at once, naming host, port and database and the
    /// reason; the password never appears. "connection refused" (not "no answer within 5 s") is
    /// the proof that nothing waited; the time bound only tells the answer from the pool's minute
    /// of retries, with room for starting a process on a loaded two-core machine (CI ran one
    /// `app list` in 5.9 s beside 190 other tests).
    @Test func unreachablePostgreSQLIsNamedAtOnce() async throws {
        let port = try HeldPort.closed()
        let url = "postgres://receipts:hunter2@127.0.0.1:\(port)/receipts"
        for command in [["stats"], ["serve", "--port", "0"], ["app", "list"]] {
            let started = ContinuousClock.now
            let (status, errors) = try await LiveServer.runForErrors(command + ["--database", url])
            let elapsed = ContinuousClock.now - started
            #expect(status != 0)
            #expect(
                errors.contains("cannot connect to PostgreSQL at 127.0.0.1:\(port), database receipts: connection refused"),
                "\(command): \(errors)")
            #expect(!errors.contains("hunter2") && !errors.contains("ConnectionPoolError"))
            #expect(elapsed < .seconds(30), "\(command): \(elapsed)")
        }
    }

    /// A port that accepts connections but never answers: the login times out after 5 s (the
    /// message says so; the upper bound leaves room for a loaded machine, and is still half the
    /// pool's minute of retries).
    @Test func silentPostgreSQLTimesOut() async throws {
        let silent = try HeldPort()
        defer { silent.close() }
        let started = ContinuousClock.now
        let (status, errors) = try await LiveServer.runForErrors(["stats", "--database", "postgres://receipts@127.0.0.1:\(silent.port)/receipts"])
        let elapsed = ContinuousClock.now - started
        #expect(status != 0)
        #expect(
            errors.contains("cannot connect to PostgreSQL at 127.0.0.1:\(silent.port), database receipts: no answer within 5 s"),
            "\(errors)")
        #expect(elapsed >= .seconds(4) && elapsed < .seconds(30), "\(elapsed)")
    }

    /// The real cluster, a database that is not there: the server's own message.
    @Test(.enabled(if: TestDatabase.postgresURL != nil)) func missingPostgreSQLDatabaseIsNamed() async throws {
        var url = try #require(TestDatabase.postgresURL.flatMap(URLComponents.init(string:)))
        url.path = "/receipt_no_such_database"
        let (status, errors) = try await LiveServer.runForErrors(["stats", "--database", try #require(url.string)])
        #expect(status != 0)
        #expect(
            errors.contains(
                "cannot connect to PostgreSQL at \(url.host ?? ""):\(url.port ?? 5432), database receipt_no_such_database: "
                    + #"database "receipt_no_such_database" does not exist"#), "\(errors)")
    }
}
