import Foundation
import Testing

/// `receipt-server webhook …`: refusals are one line on standard error and a nonzero exit;
/// secrets are shown once and stored only sealed.
@Suite struct WebhookCommandTests {
    @Test(arguments: TestDatabase.backends)
    func refusalsAndSecrets(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await LiveServer.createDatabase(database)
        _ = try await CommandLineRegistry.run(database, ["app", "add", Synthetic.bundleID])
        let refused: [([String], String)] = [
            (["ftp://127.0.0.1/hook", "--app", Synthetic.bundleID], "http or https, not ftp"),
            (["file:///etc/passwd", "--app", Synthetic.bundleID], "http or https, not file"),
            (["https://user:secret@example.com/hook", "--app", Synthetic.bundleID], "user name or password"),
            (["https://example.com/hook#x", "--app", Synthetic.bundleID], "fragment"),
            (["https://example.com/hook", "--app", "com.example.unregistered"], "no app com.example.unregistered is registered"),
            (["https://example.com/hook", "--app", Synthetic.bundleID, "--environment", "Xcode"], "Production or Sandbox"),
            (["https://example.com/hook", "--app", Synthetic.bundleID, "--events", "SUBSCRIBED,nope"], "\"nope\" is not an event type"),
        ]
        for (arguments, message) in refused {
            let run = try await LiveServer.runForErrors(["webhook", "add"] + arguments + ["--database", database.url])
            #expect(run.status != 0, "\(arguments)")
            #expect(run.errors.hasSuffix("\n") && run.errors.dropLast().split(separator: "\n").count == 1, "\(run.errors)")
            #expect(run.errors.contains(message), "\(run.errors)")
            #expect(!run.errors.contains("secret@"), "\(run.errors)")
        }
        for arguments in [["remove", "we_nope"], ["redeliver", "evt_nope"]] {
            let run = try await LiveServer.runForErrors(["webhook"] + arguments + ["--database", database.url])
            #expect(run.status != 0 && run.errors.split(separator: "\n").count == 1, "\(run.errors)")
        }
        #expect(try await CommandLineRegistry.list(database, ["webhook", "list"]).isEmpty)

        let added = try await CommandLineRegistry.run(
            database,
            ["webhook", "add", "http://127.0.0.1:9/hook", "--app", Synthetic.bundleID, "--environment", "Sandbox", "--events", "REFUND,SUBSCRIBED"])
        let secret = try #require(added["secret"] as? String)
        let id = try #require(added["id"] as? String)
        #expect(Set(added.keys) == ["id", "secret"] && secret.hasPrefix("whsec_") && secret.count == 6 + 44)
        let listed = try await CommandLineRegistry.list(database, ["webhook", "list"])
        #expect(listed.count == 1)
        let endpoint = try #require(listed.first)
        #expect(endpoint["id"] as? String == id && endpoint["url"] as? String == "http://127.0.0.1:9/hook")
        #expect(endpoint["bundleId"] as? String == Synthetic.bundleID && endpoint["environment"] as? String == "Sandbox")
        #expect(endpoint["events"] as? [String] == ["REFUND", "SUBSCRIBED"])
        let printed = try await LiveServer.run(["webhook", "list", "--database", database.url]).output
        #expect(!printed.contains(String(secret.dropFirst(6))) && !printed.contains("whsec_") && !printed.lowercased().contains("secret"))
        // Stored sealed: neither the secret's text nor its base64 is in the database.
        let stored = try await CommandLineRegistry.everythingStored(database)
        #expect(!stored.contains(String(secret.dropFirst(6))))
        #expect(try await CommandLineRegistry.run(database, ["webhook", "remove", id])["removed"] as? Bool == true)
        #expect(try await CommandLineRegistry.list(database, ["webhook", "list"]).isEmpty)
    }
}
