import AsyncHTTPClient
import Foundation
import Testing

/// The operator's opt-in through the real executable: `receipt-server app add BUNDLE
/// --accept-unproven-legacy-production` (shown by `app list`), kept when `--app` names the app at
/// start-up, and what a running server then answers for a transaction receipt that claims
/// production; without it, 21007 with the claim. Both backends.
@Suite(.serialized) struct TransactionReceiptOptInCommandTests {
    @Test(arguments: TestDatabase.backends)
    func optInIsAnAppSetting(_ backend: TestDatabase.Backend) async throws {
        let trusting = try await TestDatabase.make(backend)
        let plain = try await TestDatabase.make(backend)
        for database in [trusting, plain] { try await LiveServer.createDatabase(database) }
        _ = try await CommandLineRegistry.run(trusting, ["app", "add", Synthetic.bundleID, "--accept-unproven-legacy-production"])
        _ = try await CommandLineRegistry.run(plain, ["app", "add", Synthetic.bundleID])
        let listed = try await CommandLineRegistry.list(trusting, ["app", "list"])
        #expect(listed.first?["accept_unproven_legacy_production"] as? Bool == true)
        #expect(try await CommandLineRegistry.list(plain, ["app", "list"]).first?["accept_unproven_legacy_production"] == nil)

        for (database, expected) in [(trusting, 0), (plain, 21007)] {
            let server = try await LiveServer.start(
                ["--database", database.url, "--root", SyntheticLegacy.rootPath, "--app", Synthetic.bundleID]
                    + SyntheticLegacy.intermediatePaths.flatMap { ["--legacy-intermediate", $0] })
            let client = HTTPClient()
            let answer = try await LiveClient.post(
                client, server.baseURL + "/verifyReceipt", SyntheticLegacy.body(TransactionReceiptStatusTests.running))
            #expect(answer.json["status"] as? Int == expected, "\(answer.json)")
            #expect(answer.json["claimed_environment"] as? String == "Production" && answer.json["environment_proven"] as? Bool == false)
            try await client.shutdown()
            #expect(server.terminate() == 0)
        }
    }
}
