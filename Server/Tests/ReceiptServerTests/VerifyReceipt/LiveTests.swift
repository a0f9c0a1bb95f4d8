import AsyncHTTPClient
import Foundation
import GRDB
import ReceiptStore
import Synchronization
import Testing

/// The `receipt-server` executable on a loopback port: load, crashes, signals, hostile
/// connections, logs.
@Suite(.serialized) struct LiveTests {

    static func serverArguments(_ database: TestDatabase, _ extra: [String] = []) -> [String] {
        ["--database", database.url, "--root", Synthetic.rootPath, "--log-level", "info"] + extra
    }

    /// 32 clients post the 2,000 distinct receipts and 1,000 repeats of them; every answer is 0
    /// and `receipt-server stats` counts each receipt and transaction exactly once.
    @Test(.enabled(if: Synthetic.distinctBodiesAvailable), arguments: TestDatabase.backends)
    func concurrentClients(_ backend: TestDatabase.Backend) async throws {
        let bodies = try Synthetic.distinctBodies()
        try #require(bodies.count >= 2_000)
        let database = try await TestDatabase.make(backend)
        let server = try await LiveServer.start(Self.serverArguments(database))
        var generator = SystemRandomNumberGenerator()
        let work = (Array(0 ..< 2_000) + (0 ..< 1_000).map { _ in Int.random(in: 0 ..< 2_000, using: &generator) }).shuffled()
        let next = SharedCounter()
        let failures = SharedCounter()
        let client = HTTPClient(
            configuration: .init(connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 32)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0 ..< 32 {
                group.addTask {
                    while true {
                        let index = next.increment()
                        guard index < work.count else { return }
                        let (code, answer) = try await LiveClient.post(client, server.baseURL + "/verifyReceipt", bodies[work[index]])
                        if code != 200 || (answer["status"] as? Int) != 0 { failures.increment() }
                    }
                }
            }
            try await group.waitForAll()
        }
        try await client.shutdown()
        #expect(failures.value == 0)
        #expect(server.terminate() == 0)
        #expect(try await LiveServer.stats(database) == ["receipts": 2_000, "transactions": 2_000, "notifications": 0])
    }

    /// `kill -9` during load: after a restart on the same database every receipt that was answered
    /// 0 is there, with its transaction, and the database opens cleanly.
    @Test(.enabled(if: Synthetic.distinctBodiesAvailable), arguments: TestDatabase.backends)
    func killNineLosesNothingAnswered(_ backend: TestDatabase.Backend) async throws {
        let bodies = try Synthetic.distinctBodies()
        let database = try await TestDatabase.make(backend)
        let server = try await LiveServer.start(Self.serverArguments(database))
        let answered = SharedList()
        let next = SharedCounter()
        let client = HTTPClient(
            configuration: .init(connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0 ..< 16 {
                group.addTask {
                    while true {
                        let index = next.increment()
                        guard index < bodies.count else { return }
                        guard let (_, answer) = try? await LiveClient.post(client, server.baseURL + "/verifyReceipt", bodies[index]) else {
                            return   // the server is gone
                        }
                        if answer["status"] as? Int == 0 { answered.append(index) }
                    }
                }
            }
            group.addTask {
                // Kill it mid-load, once a few hundred answers are in.
                while answered.values.count < 300 { try? await Task.sleep(for: .milliseconds(5)) }
                server.kill()
            }
        }
        try await client.shutdown()
        let confirmed = answered.values
        #expect(confirmed.count >= 300)
        #expect(next.value < bodies.count, "the kill came after the load had ended")

        if let path = database.sqlitePath {
            let queue = try DatabaseQueue(path: path)
            #expect(try await queue.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
            try queue.close()
        }
        let restarted = try await LiveServer.start(Self.serverArguments(database))
        #expect(restarted.terminate() == 0)
        let ids = confirmed.map(Synthetic.distinctBodyID)
        let history = try await Inspect.history(database, originalTransactionIDs: ids)
        #expect(Set(history.transactions.map(\.transactionID)).isSuperset(of: ids))
        // Each answered receipt is stored under its SHA-256 (its history names it as the latest receipt).
        for index in confirmed.prefix(50) {
            let own = try await Inspect.history(database, originalTransactionIDs: [Synthetic.distinctBodyID(index)])
            #expect(try own.latestReceipt == Synthetic.receiptBytes(bodies[index]))
        }
        let counts = try await LiveServer.stats(database)
        #expect(counts["receipts"]! >= confirmed.count && counts["receipts"] == counts["transactions"])
    }

    /// SIGTERM: in-flight requests finish with their answers, then the process exits 0.
    @Test(.enabled(if: Synthetic.distinctBodiesAvailable))
    func sigtermFinishesInFlightRequests() async throws {
        let bodies = try Synthetic.distinctBodies().prefix(64)
        let database = try await TestDatabase.make(.sqlite)
        let server = try await LiveServer.start(Self.serverArguments(database))
        let client = HTTPClient()
        let statuses = try await withThrowingTaskGroup(of: Int?.self) { group in
            for body in bodies {
                group.addTask {
                    let answer = try? await LiveClient.post(client, server.baseURL + "/verifyReceipt", body)
                    return answer?.json["status"] as? Int
                }
            }
            try await Task.sleep(for: .milliseconds(20))
            kill(server.process.processIdentifier, SIGTERM)
            return try await group.reduce(into: [Int?]()) { $0.append($1) }
        }
        server.process.waitUntilExit()
        try await client.shutdown()
        #expect(server.process.terminationStatus == 0)
        // Requests either completed with 0 or were refused before being read; none failed half-way.
        #expect(statuses.allSatisfy { $0 == nil || $0 == 0 })
        let answered = statuses.filter { $0 == 0 }.count
        #expect(try await LiveServer.stats(database)["receipts"]! >= answered)
    }

    /// 413 before the body is read: a declared length over `--max-body`, and a chunked body that
    /// passes it. A truncated request is closed after the idle timeout, and meanwhile the server
    /// answers others.
    @Test func hostileConnections() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let server = try await LiveServer.start(Self.serverArguments(database, ["--max-body", "6000", "--idle-timeout", "1"]))
        defer { _ = server.terminate() }

        let declared = try RawConnection(port: server.port)
        declared.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n")
        let refused = declared.receive(timeout: .seconds(5))
        #expect(String(decoding: refused.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 413"))

        let chunked = try RawConnection(port: server.port)
        chunked.send("POST /sandbox/verifyReceipt HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in 0 ..< 8 { chunked.send("400\r\n" + String(repeating: "A", count: 1024) + "\r\n") }
        let chunkedAnswer = chunked.receive(timeout: .seconds(5))
        #expect(String(decoding: chunkedAnswer.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 413"))

        let stalled = try RawConnection(port: server.port)
        stalled.send("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"receipt-data\"")
        let client = HTTPClient()
        let health = try await client.execute(HTTPClientRequest(url: server.baseURL + "/health"), timeout: .seconds(5))
        #expect(health.status.code == 200)
        let ok = try await LiveClient.post(client, server.baseURL + "/verifyReceipt", Synthetic.body(StatusTests.consumable))
        #expect(ok.json["status"] as? Int == 0)
        try await client.shutdown()
        let stalledEnd = stalled.receive(timeout: .seconds(10))
        #expect(stalledEnd.closed, "a stalled request is closed by the idle timeout")
        #expect(server.process.isRunning)
    }

    /// Logs are JSON lines that hold neither receipt bytes nor shared secrets, even at trace level
    /// and when storage fails.
    @Test func logsHoldNoReceiptOrSecret() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let secret = "f00dfeedcafe0123456789abcdef9999"
        let server = try await LiveServer.start([
            "--database", database.url, "--root", Synthetic.rootPath, "--log-level", "trace",
            "--app", "\(Synthetic.bundleID)=\(secret)",
        ])
        let client = HTTPClient()
        let receipt = StatusTests.subscription
        for password in [nil, "wrong-password-1234", secret] {
            _ = try await LiveClient.post(client, server.baseURL + "/verifyReceipt", Synthetic.body(receipt, password: password))
        }
        try await Inspect.breakInserts(database)
        let other = Synthetic.distinct(20_000)
        let failed = try await LiveClient.post(client, server.baseURL + "/verifyReceipt", Synthetic.body(other, password: secret))
        #expect(failed.json["status"] as? Int == 21100)
        try await client.shutdown()
        #expect(server.terminate() == 0)
        let log = server.logText
        #expect(log.contains("\"message\":\"listening\""))
        #expect(log.contains("storage unavailable"))
        for line in log.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not a JSON line: \(line.prefix(80))")
        }
        #expect(!log.contains(secret) && !log.contains("wrong-password-1234"))
        for bytes in [receipt, other] {
            let base64 = Data(bytes).base64EncodedString()
            for offset in stride(from: 0, to: base64.count - 24, by: 512) {
                let start = base64.index(base64.startIndex, offsetBy: offset)
                #expect(!log.contains(base64[start ..< base64.index(start, offsetBy: 24)]))
            }
        }
    }

    /// `--config FILE`: the same keys as the flags, flags win, unknown keys refused.
    @Test func configFile() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let folder = FileManager.default.temporaryDirectory
        let config = folder.appendingPathComponent("receipt-server-config-\(UUID().uuidString).json")
        let object: [String: Any] = [
            "database": database.url, "root": [Synthetic.rootPath], "app": ["com.example.other"],
            "cache": 5, "max-body": 100_000, "log-level": "info", "allow-xcode": true,
        ]
        try JSONSerialization.data(withJSONObject: object).write(to: config)
        let server = try await LiveServer.start(["--config", config.path])
        let client = HTTPClient()
        let notServed = try await LiveClient.post(client, server.baseURL + "/verifyReceipt", Synthetic.body(StatusTests.consumable))
        #expect(notServed.json["status"] as? Int == 21010)
        #expect(server.terminate() == 0)
        // The flag wins over the file's `app`.
        let flagged = try await LiveServer.start(["--config", config.path, "--app", Synthetic.bundleID])
        let served = try await LiveClient.post(client, flagged.baseURL + "/verifyReceipt", Synthetic.body(StatusTests.consumable))
        #expect(served.json["status"] as? Int == 0)
        #expect(flagged.terminate() == 0)
        try await client.shutdown()

        let bad = folder.appendingPathComponent("receipt-server-config-\(UUID().uuidString).json")
        try Data(#"{"prot": 8080}"#.utf8).write(to: bad)
        #expect(try await LiveServer.run(["serve", "--config", bad.path]).status != 0)
    }
}

/// A counter shared by concurrent clients.
final class SharedCounter: Sendable {
    private let count = Atomic<Int>(0)
    /// Adds one and returns the value before.
    @discardableResult
    func increment() -> Int { count.wrappingAdd(1, ordering: .relaxed).oldValue }
    var value: Int { count.load(ordering: .relaxed) }
}

/// A list shared by concurrent clients.
final class SharedList: Sendable {
    private let list = Mutex<[Int]>([])
    func append(_ value: Int) { list.withLock { $0.append(value) } }
    var values: [Int] { list.withLock { $0 } }
}
