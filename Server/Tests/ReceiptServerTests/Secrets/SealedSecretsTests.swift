import CryptoExtras
import Foundation
import HummingbirdTesting
import ReceiptService
import ReceiptStore
import Testing

/// What the database holds of the apps' secrets, on both backends: the AES key only sealed
/// under the operator key (bound to its bundle id), the shared secret only salted.
@Suite struct SealedSecretsTests {
    @Test(arguments: TestDatabase.backends)
    func databaseHoldsNoKeyAndNoUnsaltedHash(_ backend: TestDatabase.Backend) async throws {
        let setup = try await HostedSetup.make(backend)
        let row = try #require(try await SecretsInspect.app(setup.database, Synthetic.bundleID))
        let sealed = try #require(row.sealedEncryptionKey)
        #expect(row.encryptionKey == nil && row.sharedSecretSHA256 == nil)
        #expect(try TestSecrets.key.openEncryptionKey(sealed, bundleID: Synthetic.bundleID) == setup.encryptionKey)
        #expect(SharedSecretHash.matches("s3cret", stored: try #require(row.sharedSecretHash)))
        #expect(!(try await SecretsInspect.holds(setup.database, setup.encryptionKey)), "the raw AES key is not stored")
        #expect(!(try await SecretsInspect.holds(setup.database, Array(SHA256.hash(data: Array("s3cret".utf8))))), "nor the unsalted hash")
    }

    /// A sealed key copied into another app's row does not open there (the bundle id is the
    /// associated data): that app's encrypted answers fail (500) instead of using the other key.
    @Test(arguments: TestDatabase.backends)
    func sealedKeyCopiedToAnotherAppDoesNotOpen(_ backend: TestDatabase.Backend) async throws {
        let setup = try await HostedSetup.make(backend)
        try await SecretsInspect.execute(
            setup.database,
            """
            UPDATE apps SET encryption_key_sealed = (SELECT encryption_key_sealed FROM apps WHERE bundle_id = '\(Synthetic.bundleID)')
            WHERE bundle_id = '\(HostedSetup.otherBundleID)'
            """)
        try await TestServer.with(TestServer.configuration(setup.database)) { client in
            let body = HostedSetup.form(apiKey: setup.key, token: setup.otherToken, receipt: HostedStatusTests.otherApp)
            let reply = try await client.hosted(body, encrypted: true)
            #expect(reply.status == 500 && reply.object["encrypted"] == nil)
            #expect(try await client.hosted(body).status == 0, "the plain endpoint is unaffected")
            let own = try await client.hosted(
                HostedSetup.form(apiKey: setup.key, token: setup.token, receipt: StatusTests.subscription),
                encrypted: true)
            #expect(own.status == 0)
        }
    }
}
