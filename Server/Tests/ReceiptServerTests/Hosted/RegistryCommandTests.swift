import AsyncHTTPClient
import Foundation
import NIOCore
import ReceiptService
import ReceiptStore
import Testing

/// `receipt-server apikey create|list|revoke` and `app add|list|remove`: JSON out, secrets once,
/// one registry with `--app`, both backends; and a key revoked while a server runs.
@Suite(.serialized) struct RegistryCommandTests {
    @Test(arguments: TestDatabase.backends)
    func commandsPrintJSONAndEditOneRegistry(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await LiveServer.createDatabase(database)   // commands refuse a database that is not there
        let added = try await CommandLineRegistry.run(
            database,
            [
                "app", "add", "com.example.a", "--shared-secret", "s3cret",
                "--apple-id", "1234", "--encryption-key",
            ])
        #expect(added["bundle_id"] as? String == "com.example.a")
        let token = try #require(added["token"] as? String)
        #expect(token.hasPrefix("app_") && token.count == 85)
        let key = try #require((added["encryption_key"] as? String).flatMap { Data(base64Encoded: $0) })
        #expect(key.count == 32)
        let plain = try await CommandLineRegistry.run(database, ["app", "add", "com.example.b"])
        #expect(plain["encryption_key"] == nil && plain["token"] is String)

        let created = try await CommandLineRegistry.run(database, ["apikey", "create"])
        let apiKey = try #require(created["apikey"] as? String)
        let keyID = try #require(created["id"] as? String)
        #expect(apiKey.hasPrefix("act_") && apiKey.contains(keyID))
        let restricted = try await CommandLineRegistry.run(database, ["apikey", "create", "--app", "com.example.b"])
        #expect(restricted["apps"] as? [String] == ["com.example.b"])
        #expect(try await LiveServer.run(["apikey", "create", "--app", "com.example.nowhere", "--database", database.url]).status == 1)

        let apps = try await CommandLineRegistry.list(database, ["app", "list"])
        #expect(apps.map { $0["bundle_id"] as? String } == ["com.example.a", "com.example.b"])
        #expect(apps[0]["shared_secret"] as? Bool == true && apps[0]["apple_id"] as? Int == 1234)
        #expect(apps[0]["encryption_key"] as? Bool == true && apps[1]["encryption_key"] as? Bool == false)
        #expect(apps[0]["token_id"] as? String == String(token.dropFirst(4).prefix(16)))
        let listText = try await LiveServer.run(["app", "list", "--database", database.url]).output
        #expect(!listText.contains(token) && !listText.contains(key.base64EncodedString()))

        let keys = try await CommandLineRegistry.list(database, ["apikey", "list"])
        #expect(keys.count == 2 && keys.allSatisfy { $0["revoked"] == nil })
        #expect(!(try await LiveServer.run(["apikey", "list", "--database", database.url]).output.contains(apiKey)))
        let revoked = try await CommandLineRegistry.run(database, ["apikey", "revoke", apiKey])
        #expect(revoked["id"] as? String == created["id"] as? String && revoked["revoked"] is String)
        let byID = try await CommandLineRegistry.run(database, ["apikey", "revoke", restricted["id"] as! String])
        #expect(byID["revoked"] is String)
        #expect(try await CommandLineRegistry.list(database, ["apikey", "list"]).allSatisfy { $0["revoked"] is String })
        #expect(
            try await LiveServer.run([
                "apikey", "revoke", "act_0000000000000000_" + String(repeating: "0", count: 64),
                "--database", database.url,
            ]).status == 1)

        // The same registry as --app: the server started with another --app serves both, and the
        // flag keeps the app's token.
        let server = try await LiveServer.start(LiveTests.serverArguments(database, ["--app", "com.example.a=other-secret"]))
        #expect(server.terminate() == 0)
        let after = try await Stores.with(DatabaseLocation(database.url), secrets: TestSecrets.key, logger: TestServer.logger) {
            try await $0.appRecords()
        }
        #expect(after.count == 2 && after[0].credentials?.tokenID == apps[0]["token_id"] as? String)
        #expect(
            SharedSecretHash.matches("other-secret", stored: after[0].registration.sharedSecretHash ?? [])
                && after[0].registration.appleID == nil)

        #expect(try await CommandLineRegistry.run(database, ["app", "remove", "com.example.b"])["removed"] as? Bool == true)
        #expect(try await LiveServer.run(["app", "remove", "com.example.b", "--database", database.url]).status == 1)
        #expect(try await CommandLineRegistry.list(database, ["app", "list"]).count == 1)
        #expect(try await LiveServer.run(["app", "add", "bad bundle", "--database", database.url]).status != 0)
    }

    /// A key revoked (or an app removed) by the command while the server runs is refused within
    /// the registry's reload interval.
    @Test func revocationReachesARunningServer() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await LiveServer.createDatabase(database)
        let token = try #require(try await CommandLineRegistry.run(database, ["app", "add", Synthetic.bundleID])["token"] as? String)
        let key = try #require(try await CommandLineRegistry.run(database, ["apikey", "create"])["apikey"] as? String)
        let server = try await LiveServer.start(LiveTests.serverArguments(database))
        let client = HTTPClient()
        func status() async throws -> Int? {
            var request = HTTPClientRequest(url: server.baseURL + "/v1/receipt")
            request.method = .POST
            request.body = .bytes(ByteBuffer(bytes: Array(HostedSetup.form(apiKey: key, token: token, receipt: StatusTests.consumable))))
            let response = try await client.execute(request, timeout: .seconds(30))
            return try JSONAnswer.object(try await response.body.collect(upTo: 1 << 20))["status"] as? Int
        }
        #expect(try await status() == 0)
        _ = try await CommandLineRegistry.run(database, ["apikey", "revoke", key])
        var refusedAfter: Duration?
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(12) {
            if try await status() == 401 { refusedAfter = ContinuousClock.now - start; break }
            try await Task.sleep(for: .milliseconds(250))
        }
        try await client.shutdown()
        #expect(server.terminate() == 0)
        let after = try #require(refusedAfter, "the revoked key was still accepted after 12 s")
        #expect(after < .seconds(10), "refused only after \(after)")   // the 5 s reload, with room for a loaded machine
    }
}
