import AsyncHTTPClient
import Foundation
@testable import ReceiptStore
import Testing

/// The `receipt-server` executable with notifications: `ingest`, `stats`, logs without tokens.
@Suite(.serialized) struct NotificationLiveTests {
    typealias N = SyntheticNotifications
    typealias Story = NotificationLifecycleTests

    static func write(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-ingest-\(UUID().uuidString)")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func summary(_ output: String) throws -> [String: Any] {
        try JSONAnswer.object(Data(output.utf8))
    }

    /// `ingest` stores notifications from files of JSON lines, bare JWS lines or one JSON object,
    /// as the endpoints would; prints a summary; exits non-zero when any entry failed.
    @Test(arguments: TestDatabase.backends)
    func ingestReplaysFiles(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await LiveServer.createDatabase(database)   // ingest refuses a database that is not there
        let subscribed = Story.story[0].token, renewed = Story.story[1].token
        var parts = Story.story[2].token.split(separator: ".").map(String.init)
        parts[2] = NotificationEndpointTests.changingOneCharacter(parts[2])
        let lines =
            String(decoding: N.body(subscribed), as: UTF8.self) + "\n\n" + renewed + "\n" + parts.joined(separator: ".") + "\n"
            + #"{"nope": 1}"# + "\n"
        let file = try Self.write(lines)
        let arguments = ["ingest", "--database", database.url, "--root-g3", N.rootPath, file]
        for _ in 0 ..< 2 {   // a second replay stores nothing new
            let (status, output) = try await LiveServer.run(arguments)
            #expect(status == 1)
            let summary = try Self.summary(output)
            #expect(summary["files"] as? Int == 1 && summary["notifications"] as? Int == 4)
            #expect(summary["stored"] as? Int == 2 && summary["failed"] as? Int == 2)
            let failures = try #require(summary["failures"] as? [[String: Any]])
            #expect(failures.map { $0["line"] as? Int } == [4, 5])
            #expect(failures.map { $0["status"] as? Int } == [401, 400])
            #expect(failures.allSatisfy { $0["file"] as? String == file && $0["reason"] is String })
        }
        #expect(try await LiveServer.stats(database) == ["receipts": 0, "transactions": 2, "notifications": 2])

        // Apple's TEST notification (Sandbox) as one pretty-printed object, under Apple Root CA - G3.
        if Fixtures.shouldRun {
            let token = String(decoding: try Fixtures.bytes("jws/apple-real-test-notification.jws"), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let pretty = try Self.write("{\n  \"signedPayload\" : \"\(token)\"\n}\n")
            let (status, output) = try await LiveServer.run(["ingest", "--database", database.url, pretty])
            #expect(status == 0, "\(output)")
            #expect(try Self.summary(output)["stored"] as? Int == 1)
            #expect(try await LiveServer.stats(database)["notifications"] == 3)
        }
        let missing = try await LiveServer.run(["ingest", "--database", database.url, "/nonexistent/notifications.jsonl"])
        #expect(missing.status == 1)
        #expect(try (Self.summary(missing.output)["failures"] as? [[String: Any]])?.first?["reason"] as? String == "cannot read the file")

        // What was ingested is in the next verifyReceipt answer.
        let history = try await Inspect.history(database, originalTransactionIDs: [Story.first])
        #expect(history.transactions.map(\.transactionID) == [Story.renewal, Story.first])
        #expect(history.pendingRenewals.map(\.originalTransactionID) == [Story.first])
    }

    /// `root-g3` in a config file is `--root-g3`; a file that is not a certificate stops start-up
    /// (and `ingest`) with an error instead of trusting nothing or everything.
    @Test func rootG3FromConfigFile() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let config = try Self.write(
            String(
                decoding: try JSONSerialization.data(withJSONObject: [
                    "database": database.url, "root-g3": [N.rootPath],
                ]), as: UTF8.self))
        let server = try await LiveServer.start(["--config", config])
        let client = HTTPClient()
        let stored = try await LiveClient.post(client, server.baseURL + "/notifications/v2", N.body(Story.story[0].token))
        #expect(stored.code == 200 && stored.json["status"] as? String == "stored")
        try await client.shutdown()
        #expect(server.terminate() == 0)
        #expect(try await LiveServer.stats(database)["notifications"] == 1)

        let notACertificate = try Self.write("not a certificate")
        #expect(try await LiveServer.run(["serve", "--database", database.url, "--root-g3", notACertificate]).status != 0)
        #expect(try await LiveServer.run(["ingest", "--database", database.url, "--root-g3", notACertificate, config]).status != 0)
    }

    /// Logs are JSON lines naming notifications by UUID, type and result, never holding a token,
    /// even at trace level and for refused ones.
    @Test func logsHoldNoToken() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let server = try await LiveServer.start([
            "--database", database.url, "--root", Synthetic.rootPath, "--root-g3", N.rootPath,
            "--log-level", "trace",
        ])
        let stored = Story.story[1].token
        var parts = Story.story[3].token.split(separator: ".").map(String.init)
        parts[2] = NotificationEndpointTests.changingOneCharacter(parts[2])
        let tampered = parts.joined(separator: ".")
        let client = HTTPClient()
        for (token, expected) in [(stored, 200), (tampered, 401), (stored, 200)] {
            var request = HTTPClientRequest(url: server.baseURL + "/notifications/v2")
            request.method = .POST
            request.body = .bytes(N.body(token))
            let response = try await client.execute(request, timeout: .seconds(30))
            #expect(response.status.code == UInt(expected))
        }
        try await client.shutdown()
        #expect(server.terminate() == 0)
        #expect(try await LiveServer.stats(database) == ["receipts": 0, "transactions": 1, "notifications": 1])
        let log = server.logText
        for line in log.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not a JSON line: \(line.prefix(80))")
        }
        #expect(log.contains(#""result":"stored""#) && log.contains(#""result":"not_authentic""#))
        #expect(log.contains(#""type":"DID_RENEW""#))
        for token in [stored, tampered] {
            for part in token.split(separator: ".").dropFirst() {   // payload and signature (the header is the public chain)
                for offset in stride(from: 0, to: part.count - 24, by: 64) {
                    let start = part.index(part.startIndex, offsetBy: offset)
                    #expect(!log.contains(part[start ..< part.index(start, offsetBy: 24)]))
                }
            }
        }
    }

    /// A SQLite database that a server holds is refused by `ingest` (the server keeps reads in
    /// memory between its own commits and would not see what ingest stores), and nothing is stored.
    @Test func ingestRefusesADatabaseAServerHolds() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await LiveServer.createDatabase(database)
        guard case .sqlite(let path) = try DatabaseLocation(database.url) else {
            Issue.record("not a SQLite location: \(database.url)")
            return
        }
        let lock = try DatabaseLock(database: path)
        let file = try Self.write(Story.story[0].token + "\n")
        let (status, errors) = try await LiveServer.runForErrors(["ingest", "--database", database.url, "--root-g3", N.rootPath, file])
        lock.release()
        #expect(status != 0)
        #expect(errors.contains("is being served by another receipt-server"), "\(errors)")
        #expect(try await LiveServer.stats(database)["notifications"] == 0)
    }
}
