import AsyncHTTPClient
import Foundation
import Testing

/// The `receipt-server` executable with `--legacy-intermediate` (flag and config-file key): a
/// synthetic transaction receipt is answered through the real process; a file that is not a
/// certificate stops start-up.
@Suite(.serialized) struct TransactionReceiptLiveTests {
    @Test func legacyIntermediateFlagAndConfigKey() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await SyntheticLegacy.trustProductionClaims(database)
        let flags =
            ["--database", database.url, "--root", SyntheticLegacy.rootPath]
            + SyntheticLegacy.intermediatePaths.flatMap { ["--legacy-intermediate", $0] }
        let config = try NotificationLiveTests.write(
            String(
                decoding: try JSONSerialization.data(withJSONObject: [
                    "database": database.url, "root": [SyntheticLegacy.rootPath], "legacy-intermediate": SyntheticLegacy.intermediatePaths,
                ]), as: UTF8.self))
        for arguments in [flags, ["--config", config]] {
            let server = try await LiveServer.start(arguments)
            let client = HTTPClient()
            let answer = try await LiveClient.post(
                client, server.baseURL + "/verifyReceipt",
                SyntheticLegacy.body(TransactionReceiptStatusTests.running))
            #expect(answer.code == 200 && answer.json["status"] as? Int == 0, "\(arguments.first ?? "")")
            try await client.shutdown()
            #expect(server.terminate() == 0)
        }
        // Without the test intermediates the synthetic signer chains to nothing the server holds.
        let server = try await LiveServer.start(["--database", database.url, "--root", SyntheticLegacy.rootPath])
        let client = HTTPClient()
        let refused = try await LiveClient.post(
            client, server.baseURL + "/verifyReceipt",
            SyntheticLegacy.body(TransactionReceiptStatusTests.expired))
        #expect(refused.json["status"] as? Int == 21003)
        try await client.shutdown()
        #expect(server.terminate() == 0)

        let notACertificate = try NotificationLiveTests.write("not a certificate")
        let run = try await LiveServer.runForErrors(["serve", "--database", database.url, "--legacy-intermediate", notACertificate])
        #expect(run.status != 0 && run.errors.contains("--legacy-intermediate \(notACertificate): not a certificate"), "\(run.errors)")
    }
}
