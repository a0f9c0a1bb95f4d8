import Logging
import ReceiptStore

/// Who called the App Store Server API: the In-App Purchase key that signed the token and the
/// app (`bid`) it asked about.
public struct AppStoreAPICaller: Sendable, Hashable {
    /// The key's id (the token's `kid`).
    public let keyID: String
    /// The token's `bid`: one of the key's apps, and served by the registry.
    public let bundleID: String

    /// A caller.
    public init(keyID: String, bundleID: String) {
        self.keyID = keyID
        self.bundleID = bundleID
    }
}

/// Checks the `Authorization: Bearer` JWT of App Store Server API requests (DESIGN §13) as
/// Apple does: ES256 signed by a registered, unrevoked In-App Purchase key, `iss` its issuer,
/// `aud` `appstoreconnect-v1`, `bid` one of its apps, `exp` required, an hour of lifetime at
/// most, 60 s of clock leeway (`APIJWT`, `APIJWTClaims`). `bid` must also be an app the
/// registry serves (`AppRegistry.serves`), the one registry notifications (403) and
/// verifyReceipt (21010) obey: a key names no app it could not reach elsewhere.
///
/// Work per request: a token's header and claims are read and checked before any signature, and
/// a signature is verified (one P-256 verification) only when `kid` names a known key and every
/// claim holds; a token whose signature verified is then cached until it expires
/// (`APITokenCache`, one entry per signed content), its claims, key and app checked again on
/// each use. Keys are reloaded from the store at most once a second (`APIKeySet`), so a key
/// revoked or added takes effect within about a second, cached tokens included.
public final class AppStoreAPIAuthenticator: Sendable {
    private let keys: APIKeySet
    private let registry: AppRegistry
    private let cache: APITokenCache
    private let logger: Logger

    /// An authenticator over the keys in `store` for the apps `registry` serves (the server's
    /// one registry: every bundle id while it is empty); `cacheCapacity` verified tokens are
    /// remembered.
    public init(store: any IAPKeyStore, registry: AppRegistry, logger: Logger, cacheCapacity: Int = 10_000) {
        keys = APIKeySet(store: store, logger: logger)
        self.registry = registry
        cache = APITokenCache(capacity: cacheCapacity)
        self.logger = logger
    }

    /// The caller a request's `Authorization` header proves at `now` (milliseconds since 1970);
    /// nil for every failure, which the routes answer with 401 and an empty body.
    public func authenticate(_ authorizationHeader: String?, now: Int64) async -> AppStoreAPICaller? {
        // Within 0 … 2⁵⁰ ms (35,000 years), no time arithmetic below can overflow.
        let now = min(max(now, 0), 1 << 50)
        guard let token = APIBearerToken.token(in: authorizationHeader), let digest = APITokenCache.digest(token) else { return nil }
        if let cached = cache.entry(digest) {
            guard let key = await keys.key(cached.keyID, now: now), key.publicKeyBytes == cached.publicKeyBytes,
                accepts(cached.claims, of: key, now: now)
            else { return nil }
            return AppStoreAPICaller(keyID: cached.keyID, bundleID: cached.claims.bundleID)
        }
        guard let jwt = APIJWT(token) else { return nil }
        guard let key = await keys.key(jwt.keyID, now: now) else {
            logger.debug("App Store Server API token of an unknown or revoked key", metadata: ["kid": "\(jwt.keyID.prefix(64))"])
            return nil
        }
        guard accepts(jwt.claims, of: key, now: now), jwt.isSigned(by: key.publicKey) else {
            logger.debug("App Store Server API token refused", metadata: ["kid": "\(jwt.keyID.prefix(64))"])
            return nil
        }
        cache.insert(digest, .init(keyID: jwt.keyID, publicKeyBytes: key.publicKeyBytes, claims: jwt.claims), now: now)
        return AppStoreAPICaller(keyID: jwt.keyID, bundleID: jwt.claims.bundleID)
    }

    /// Whether `claims` hold for `key` at `now` (`APIJWTClaims.accepts`: `bid` one of the key's
    /// apps, any when it names none) and the registry serves `bid` by the rule every surface
    /// applies (`AppRegistry.decision(for:)`). An app it does not serve fails like any other
    /// claim: 401, empty body (DESIGN §13).
    private func accepts(_ claims: APIJWTClaims, of key: APIKeySet.Key, now: Int64) -> Bool {
        claims.accepts(issuer: key.issuerID, bundleIDs: key.bundleIDs, now: now) && registry.serves(claims.bundleID)
    }

    /// Verified tokens held in the cache (for tests and metrics).
    public var cachedTokenCount: Int { cache.count }
}
