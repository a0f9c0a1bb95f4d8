import Foundation
import Logging
import ReceiptService
import ReceiptStore
import Testing

/// One registry for every surface (issue 33): a token's `bid` must be an app the registry serves
/// (every app while it is empty), as for notifications (403) and verifyReceipt (21010), and one of
/// the key's apps when the key names some. Anything else is 401 with an empty body.
@Suite struct APIRegistryTests {
    static let now = APIJWTTests.now
    let signer = APIJWTSigner()

    static func registry(_ apps: [String]) -> AppRegistry {
        AppRegistry(apps.map { AppRegistration(bundleID: $0, sharedSecretHash: nil) })
    }

    /// Whether the authenticator takes a token of `signer` for `bundleID`.
    func accepted(_ authenticator: AppStoreAPIAuthenticator, _ bundleID: String, now: Int64 = Self.now) async throws -> Bool {
        await authenticator.authenticate("Bearer " + (try signer.token(now: Self.now, bundleID: bundleID)), now: now) != nil
    }

    @Test func keyWithoutAppsReachesOnlyServedApps() async throws {
        let store = MemoryIAPKeyStore([signer.record()])
        let served = AppStoreAPIAuthenticator(store: store, registry: Self.registry(["com.example.app"]), logger: Logger(label: "test"))
        #expect(try await accepted(served, "com.example.app"))
        #expect(try await !accepted(served, "com.example.other"))
        // An empty registry serves every bundle id, as everywhere else.
        let open = AppStoreAPIAuthenticator(store: store, registry: AppRegistry(), logger: Logger(label: "test"))
        #expect(try await accepted(open, "com.example.other"))
    }

    @Test func keyWithAppsReachesThoseTheRegistryServes() async throws {
        let store = MemoryIAPKeyStore([signer.record(apps: ["com.example.app", "com.example.unserved"])])
        let authenticator = AppStoreAPIAuthenticator(
            store: store, registry: Self.registry(["com.example.app", "com.example.other"]), logger: Logger(label: "test"))
        #expect(try await accepted(authenticator, "com.example.app"))
        #expect(try await !accepted(authenticator, "com.example.unserved"))   // the key's, not served
        #expect(try await !accepted(authenticator, "com.example.other"))   // served, not the key's
        #expect(authenticator.cachedTokenCount == 1)
    }

    /// The registry is asked on every use, so a cached token loses an app the registry drops.
    @Test func cachedTokenIsRefusedOnceItsAppIsNoLongerServed() async throws {
        let registry = Self.registry(["com.example.app"])
        let authenticator = AppStoreAPIAuthenticator(store: MemoryIAPKeyStore([signer.record()]), registry: registry, logger: Logger(label: "test"))
        let header = "Bearer " + (try signer.token(now: Self.now, bundleID: "com.example.app"))
        #expect(await authenticator.authenticate(header, now: Self.now) != nil)
        registry.replace(with: [AppRegistration(bundleID: "com.example.other", sharedSecretHash: nil)])
        #expect(await authenticator.authenticate(header, now: Self.now) == nil)
        #expect(authenticator.cachedTokenCount == 1)
    }

    /// Over HTTP, on both backends: with `--app` naming another app, a key without apps gets 401
    /// with an empty body on reads and posts; with its app registered it is answered.
    @Test(arguments: TestDatabase.backends)
    func unservedAppIsUnauthorized(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let posted = SignedAPIData.purchase(
            "6300000001", type: "Consumable", product: "com.example.coins", purchased: APISession.now - 60_000, signed: APISession.now - 60_000)
        try await APISession.with(database, configure: { $0.apps = ["com.example.other"] }) { api in
            for reply in [
                try await api.get("/inApps/v1/transactions/6300000001"),
                try await api.get("/inApps/v2/history/6300000001"),
                try await api.post("/inApps/v1/transactions", SignedAPIData.posted(posted)),
                try await api.post("/inApps/v1/notifications/history", json: ["startDate": 1, "endDate": 2]),
            ] {
                #expect(reply.status == 401 && reply.body.isEmpty, "\(reply.status) \(reply.text)")
            }
        }
        try await APISession.with(database, configure: { $0.apps = ["com.example.other", Synthetic.bundleID] }) { api in
            let read = try await api.get("/inApps/v1/transactions/6300000001")
            #expect(read.status == 404)   // nothing was stored above
            let post = try await api.post("/inApps/v1/transactions", SignedAPIData.posted(posted))
            #expect(post.status == 200)
        }
    }
}
