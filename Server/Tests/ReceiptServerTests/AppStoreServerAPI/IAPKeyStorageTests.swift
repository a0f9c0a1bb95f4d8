import Foundation
import ReceiptStore
import Testing

/// `iap_keys` (schema version 7) on both backends: keys round-trip, list oldest first, a put
/// replaces and un-revokes, revocation keeps its first date.
struct IAPKeyStorageTests {
    @Test(arguments: TestDatabase.backends)
    func keysRoundTrip(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let first = APIJWTSigner().record(apps: ["com.example.b", "com.example.a"], created: 2_000)
        var secondSigner = APIJWTSigner()
        secondSigner.keyID = "ANOTHER123"
        secondSigner.issuerID = "issuer-2"
        let second = secondSigner.record(apps: [], created: 1_000)
        try await Stores.with(DatabaseLocation(database.url), secrets: TestSecrets.key, logger: TestServer.logger) { store in
            #expect(try await store.iapKeys().isEmpty)
            #expect(try await store.revokeIAPKey(id: "NOSUCHKEY", at: 5) == false)
            try await store.putIAPKey(first)
            try await store.putIAPKey(second)
            #expect(try await store.iapKeys() == [second, first])

            #expect(try await store.revokeIAPKey(id: first.keyID, at: 3_000))
            #expect(try await store.revokeIAPKey(id: first.keyID, at: 4_000))
            #expect(try await store.iapKeys().first { $0.keyID == first.keyID }?.revokedMilliseconds == 3_000)

            var replaced = APIJWTSigner().record(apps: ["com.example.c"], created: 5_000)
            replaced.keyID = first.keyID
            try await store.putIAPKey(replaced)
            #expect(try await store.iapKeys() == [second, replaced])
        }
        // Another connection (as another instance would) reads the same keys.
        let again = try await Stores.with(DatabaseLocation(database.url), secrets: TestSecrets.key, logger: TestServer.logger) {
            try await $0.iapKeys()
        }
        #expect(again.map(\.keyID) == [second.keyID, first.keyID] && again[1].publicKey.count == 65)
    }
}
