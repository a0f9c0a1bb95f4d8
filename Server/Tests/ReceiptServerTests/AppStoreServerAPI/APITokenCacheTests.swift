import Foundation
import Logging
import ReceiptService
import ReceiptStore
import Testing

/// The authenticator's work and memory: verified tokens cached until they expire but refused once
/// their key is revoked or replaced; keys reloaded at most once a second.
struct APITokenCacheTests {
    static let now = APIJWTTests.now
    let signer = APIJWTSigner()

    @Test func cachedTokenIsRefusedOnceRevocationTakesEffect() async throws {
        let store = MemoryIAPKeyStore([signer.record()])
        let authenticator = AppStoreAPIAuthenticator(store: store, registry: AppRegistry(), logger: Logger(label: "test"))
        let header = "Bearer " + (try signer.token(now: Self.now))
        #expect(await authenticator.authenticate(header, now: Self.now) != nil)
        #expect(authenticator.cachedTokenCount == 1)
        #expect(try await store.revokeIAPKey(id: signer.keyID, at: Self.now))
        // Within the second the key snapshot serves, the cached token still passes …
        #expect(await authenticator.authenticate(header, now: Self.now + 999) != nil)
        // … and from then on it is refused, though its signature is cached.
        #expect(await authenticator.authenticate(header, now: Self.now + 1_000) == nil)
        #expect(authenticator.cachedTokenCount == 1)
        #expect(store.reads == 2)
    }

    @Test func cachedTokenIsRefusedWhenItsKeyIsReplaced() async throws {
        let store = MemoryIAPKeyStore([signer.record()])
        let authenticator = AppStoreAPIAuthenticator(store: store, registry: AppRegistry(), logger: Logger(label: "test"))
        let header = "Bearer " + (try signer.token(now: Self.now))
        #expect(await authenticator.authenticate(header, now: Self.now) != nil)
        var replacement = APIJWTSigner()
        replacement.keyID = signer.keyID
        try await store.putIAPKey(replacement.record())
        #expect(await authenticator.authenticate(header, now: Self.now + 1_000) == nil)
        #expect(await authenticator.authenticate("Bearer " + (try replacement.token(now: Self.now)), now: Self.now + 1_000) != nil)
    }

    @Test func cachedTokenExpires() async throws {
        let authenticator = AppStoreAPIAuthenticator(
            store: MemoryIAPKeyStore([signer.record()]), registry: AppRegistry(), logger: Logger(label: "test"))
        let header = "Bearer " + (try signer.token(now: Self.now))   // exp: now + 1800 s
        #expect(await authenticator.authenticate(header, now: Self.now) != nil)
        #expect(await authenticator.authenticate(header, now: Self.now + 1_859_000) != nil)
        #expect(await authenticator.authenticate(header, now: Self.now + 1_860_000) == nil)
    }

    @Test func newKeyTakesEffectWithinASecondAndUnknownKidsCostOneReadASecond() async throws {
        let store = MemoryIAPKeyStore()
        let authenticator = AppStoreAPIAuthenticator(store: store, registry: AppRegistry(), logger: Logger(label: "test"))
        let header = "Bearer " + (try signer.token(now: Self.now))
        for offset in stride(from: Int64(0), to: 1_000, by: 10) {
            #expect(await authenticator.authenticate(header, now: Self.now + offset) == nil)
        }
        #expect(store.reads == 1)
        try await store.putIAPKey(signer.record())
        #expect(await authenticator.authenticate(header, now: Self.now + 1_000) != nil)
        #expect(store.reads == 2)
    }

    /// Refused tokens are not cached; the cache holds at most its capacity.
    @Test func onlyVerifiedTokensAreCachedAndTheCacheIsBounded() async throws {
        let authenticator = AppStoreAPIAuthenticator(
            store: MemoryIAPKeyStore([signer.record(apps: ["com.example.app"])]), registry: AppRegistry(), logger: Logger(label: "test"),
            cacheCapacity: 4)
        let wrongApp = "Bearer " + (try signer.token(now: Self.now, bundleID: "com.example.other"))
        #expect(await authenticator.authenticate(wrongApp, now: Self.now) == nil)
        let forged = try signer.token(header: signer.header(), claims: signer.claims(now: Self.now), signature: Array(repeating: 7, count: 64))
        #expect(await authenticator.authenticate("Bearer " + forged, now: Self.now) == nil)
        #expect(authenticator.cachedTokenCount == 0)
        var tokens: [String] = []
        for second in 0 ..< 9 {
            let token = try signer.token(now: Self.now + Int64(second) * 1000)
            tokens.append(token)
            #expect(await authenticator.authenticate("Bearer " + token, now: Self.now) != nil)
            #expect(authenticator.cachedTokenCount <= 4)
        }
        // Every token still verifies after eviction.
        for token in tokens { #expect(await authenticator.authenticate("Bearer " + token, now: Self.now) != nil) }
    }

    /// Many concurrent requests with a stale snapshot share one reload.
    @Test func concurrentRequestsShareOneReload() async throws {
        let store = MemoryIAPKeyStore([signer.record()])
        let authenticator = AppStoreAPIAuthenticator(store: store, registry: AppRegistry(), logger: Logger(label: "test"))
        let header = "Bearer " + (try signer.token(now: Self.now))
        let accepted = await withTaskGroup(of: Bool.self) { group in
            for _ in 0 ..< 50 { group.addTask { await authenticator.authenticate(header, now: Self.now) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(accepted == 50)
        #expect(store.reads == 1)
    }
}
