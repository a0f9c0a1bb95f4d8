import AsyncHTTPClient
import Foundation
import Synchronization
import Testing

/// The tests' own webhook receiver: `Server/Tests/webhook-receiver/receiver.py` run with the
/// virtual environment's python (`RECEIPT_SERVER_TEST_PYTHON`, where `Server/ci` installs the
/// pinned `standardwebhooks`), which verifies each request with that library and logs it.
final class WebhookReceiver: Sendable {
    static let script = Fixtures.repositoryRoot.appendingPathComponent("Server/Tests/webhook-receiver/receiver.py")

    /// One request as the receiver logged it.
    struct Request: Sendable {
        let id: String
        let valid: Bool
        let status: Int
        let body: String
        let received: Double

        /// The body's members.
        var json: [String: Any] { (try? JSONAnswer.object(Data(body.utf8))) ?? [:] }
    }

    let directory: URL
    let port: Int
    private let process = Mutex<Process?>(nil)

    var logPath: String { directory.appendingPathComponent("requests.jsonl").path }
    var secretsPath: String { directory.appendingPathComponent("secrets").path }

    /// A receiver (not started) on a free loopback port; its endpoint URLs are `url(name)`.
    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-webhooks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory.appendingPathComponent("secrets").path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("requests.jsonl").path, contents: nil)
        port = try PrivateCluster.freePort()
    }

    /// The URL of the endpoint `name` (whose secret is the file `secrets/name`).
    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }

    /// Keeps an endpoint's secret for verification.
    func setSecret(_ secret: String, for name: String) throws {
        try Data(secret.utf8).write(to: URL(fileURLWithPath: secretsPath).appendingPathComponent(name))
    }

    /// Starts the receiver; `fail` first verified requests are answered 500 (-1: all), each answer
    /// after `delay` seconds.
    func start(fail: Int = 0, delay: Double = 0) async throws {
        guard let python = AppleClient.python else { throw UnexpectedAnswer(description: "\(AppleClient.pythonVariable) is not set: run Server/ci") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Self.script.path, String(port), secretsPath, logPath, "--fail", String(fail), "--delay", String(delay)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        process.standardInput = FileHandle.nullDevice
        let ready = Mutex(false)
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            if chunk.isEmpty {
                handle.readabilityHandler = nil
            } else if String(decoding: chunk, as: UTF8.self).contains("listening") {
                ready.withLock { $0 = true }
            }
        }
        try process.run()
        self.process.withLock { $0 = process }
        for _ in 0 ..< 400 {
            if ready.withLock({ $0 }) { return }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        stop()
        throw UnexpectedAnswer(description: "the webhook receiver did not start")
    }

    /// Stops the receiver with SIGKILL (its port refuses connections until started again; it
    /// keeps nothing to flush: each request is logged as it comes).
    func stop() {
        guard let process = process.withLock({ $0 }) else { return }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }   // never an exited pid
        process.waitUntilExit()
        self.process.withLock { $0 = nil }
    }

    /// Every request logged so far.
    func requests() -> [Request] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONAnswer.object(Data(line.utf8)), let id = object["id"] as? String else { return nil }
            return Request(
                id: id, valid: object["valid"] as? Bool == true, status: object["status"] as? Int ?? 0, body: object["body"] as? String ?? "",
                received: object["received"] as? Double ?? 0)
        }
    }

    /// The requests once `done` holds of them, or a failure after `seconds`.
    func waitFor(_ seconds: Double, _ what: String, done: ([Request]) -> Bool) async throws -> [Request] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let requests = self.requests()
            if done(requests) { return requests }
            guard Date() < deadline else {
                throw UnexpectedAnswer(description: "\(what): not within \(seconds) s (\(requests.count) requests logged)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The events delivered (a verified 2xx) by id.
    func delivered() -> [String: Request] {
        var delivered: [String: Request] = [:]
        for request in requests() where request.valid && request.status == 204 { delivered[request.id] = request }
        return delivered
    }

    deinit {
        if let process = process.withLock({ $0 }), process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A database with an app registered and an endpoint added by the commands, a receiver for it,
/// and the server started as its own process (`LiveServer`).
struct WebhookSetup: Sendable {
    typealias N = SyntheticNotifications
    let database: TestDatabase
    let receiver: WebhookReceiver
    /// The endpoint's id (`webhook add`).
    let endpointID: String

    /// `database` created, `apps` registered (`app add`, with `--apple-id` where `appleIDs` has
    /// one), an endpoint for each app added (`webhook add`), their secrets given to a new receiver
    /// (not started); `endpointID` is `apps[0]`'s.
    static func make(
        _ database: TestDatabase, apps: [String] = [Synthetic.bundleID], appleIDs: [String: Int] = [:]
    ) async throws -> WebhookSetup {
        try await LiveServer.createDatabase(database)
        for app in apps {
            _ = try await CommandLineRegistry.run(database, ["app", "add", app] + (appleIDs[app].map { ["--apple-id", String($0)] } ?? []))
        }
        let receiver = try WebhookReceiver()
        var endpointID = ""
        for (index, app) in apps.enumerated() {
            let added = try await CommandLineRegistry.run(database, ["webhook", "add", receiver.url("hook\(index)"), "--app", app])
            try receiver.setSecret(try #require(added["secret"] as? String), for: "hook\(index)")
            if index == 0 { endpointID = try #require(added["id"] as? String) }
        }
        return WebhookSetup(database: database, receiver: receiver, endpointID: endpointID)
    }

    /// The server on the database, trusting the synthetic G3 root and Apple's, with `arguments`.
    func startServer(_ arguments: [String] = []) async throws -> LiveServer {
        var roots = ["--root-g3", N.rootPath]
        if Fixtures.isPresent { roots += ["--root-g3", Fixtures.directory.appendingPathComponent("certs/AppleRootCA-G3.cer").path] }
        return try await LiveServer.start(["--database", database.url] + roots + arguments)
    }

    /// `count` SUBSCRIBED notifications of distinct subscriptions; their tokens.
    static func tokens(_ count: Int, prefix: String) -> [String] {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return (0 ..< count).map { index in
            let id = "\(prefix)\(100_000 + index)"
            return N.token(
                "SUBSCRIBED", subtype: "INITIAL_BUY", signedDate: now,
                transaction: N.Transaction(
                    transactionId: id, originalTransactionId: id, purchaseDate: now - 1000, expiresDate: now + 30 * 86_400_000, signedDate: now))
        }
    }

    /// POSTs each token to the production endpoint (`sandbox`: the sandbox one), `parallel` at
    /// once; every answer must be "stored".
    static func post(_ tokens: [String], to server: LiveServer, sandbox: Bool = false, parallel: Int = 8) async throws {
        let client = HTTPClient()
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = tokens.makeIterator()
                func add() -> Bool {
                    guard let token = next.next() else { return false }
                    group.addTask {
                        let answer = try await LiveClient.post(
                            client, server.baseURL + (sandbox ? "/sandbox/notifications/v2" : "/notifications/v2"), N.body(token))
                        guard answer.code == 200, answer.json["status"] as? String == "stored" else {
                            throw UnexpectedAnswer(description: "notification not stored: \(answer.code) \(answer.json)")
                        }
                    }
                    return true
                }
                for _ in 0 ..< parallel where !add() { break }
                while try await group.next() != nil { _ = add() }
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    /// Waits until every token arrived as a verified, answered-2xx event whose `signedPayload` is
    /// the token; returns the events by token.
    func waitForAll(_ tokens: [String], seconds: Double) async throws -> [String: WebhookReceiver.Request] {
        let wanted = Set(tokens)
        _ = try await receiver.waitFor(seconds, "\(tokens.count) events delivered") { _ in
            Set(receiver.delivered().values.compactMap { $0.json["signedPayload"] as? String }).isSuperset(of: wanted)
        }
        var byToken: [String: WebhookReceiver.Request] = [:]
        for request in receiver.delivered().values {
            if let token = request.json["signedPayload"] as? String { byToken[token] = request }
        }
        return byToken
    }

    /// `webhook deliveries [--failed]`.
    func deliveries(failed: Bool = false) async throws -> [[String: Any]] {
        try await CommandLineRegistry.list(database, ["webhook", "deliveries"] + (failed ? ["--failed"] : []))
    }
}
