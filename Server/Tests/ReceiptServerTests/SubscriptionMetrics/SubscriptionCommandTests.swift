import Foundation
import Testing

/// `receipt-server entitlement set|list|remove` and `dashboard-token create|list|revoke` as an
/// operator runs them, on a SQLite database.
@Suite struct SubscriptionCommandTests {
    @Test func entitlementsAndDashboardTokensAreData() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await LiveServer.createDatabase(database)
        let app = "com.example.receipts"
        func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
            try await LiveServer.run(arguments + ["--database", database.url])
        }
        #expect(try await run(["entitlement", "set", app, "premium", "b.monthly", "a.yearly", "b.monthly"]).status == 0)
        #expect(try await run(["entitlement", "set", app, "lifetime", "c.forever"]).status == 0)
        #expect(try await run(["entitlement", "set", app, "premium", "a.yearly"]).status == 0)   // replaces
        let list = try await run(["entitlement", "list", app])
        #expect(
            list.output.trimmingCharacters(in: .newlines)
                == #"[{"name":"lifetime","products":["c.forever"]},{"name":"premium","products":["a.yearly"]}]"#)
        #expect(try await run(["entitlement", "list", "com.example.other"]).output.trimmingCharacters(in: .newlines) == "[]")
        #expect(try await run(["entitlement", "remove", app, "lifetime"]).status == 0)
        #expect(try await run(["entitlement", "remove", app, "lifetime"]).status == 1)
        #expect(try await run(["entitlement", "set", app, "bad name", "x"]).status != 0)
        #expect(try await run(["entitlement", "set", "not a bundle", "premium", "x"]).status != 0)
        #expect(try await run(["entitlement", "set", app, "premium"]).status != 0)

        let created = try await run(["dashboard-token", "create"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(created.output.utf8)) as? [String: String])
        let token = try #require(object["token"]), id = try #require(object["id"])
        #expect(token.hasPrefix("dsh_\(id)_") && token.count == 4 + 16 + 1 + 64)
        let listed = try await run(["dashboard-token", "list"])
        #expect(listed.output.contains(id) && !listed.output.contains(token))
        #expect(try await run(["dashboard-token", "revoke", token]).status == 0)
        #expect(try await run(["dashboard-token", "list"]).output.contains("revoked"))
        #expect(try await run(["dashboard-token", "revoke", "0000000000000000"]).status == 1)
        // The database never holds the token.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: database.sqlitePath!))
        #expect(bytes.range(of: Data(token.utf8)) == nil)

        // report refuses a bad window before opening anything.
        let bad = try await LiveServer.runForErrors(["report", app, "--from", "2026-02-30", "--to", "2026-03-01", "--database", database.url])
        #expect(bad.status != 0 && bad.errors.contains("not a UTC date"))
    }
}
