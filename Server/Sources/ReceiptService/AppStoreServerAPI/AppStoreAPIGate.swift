import ReceiptStore

/// What every App Store Server API request passes before its answer: Apple's bearer JWT
/// (`AppStoreAPIAuthenticator`; any failure: 401 with an empty body, as Apple's), then the key's
/// token bucket (429 4290000 with `Retry-After`). The storage calls of all of it (a key reload,
/// the look-ups, a save) share one deadline (`StorageDeadline`), so a request is answered (5000001
/// when storage fails) within it.
public struct AppStoreAPIGate: Sendable {
    let authenticator: AppStoreAPIAuthenticator
    let rate: RateLimiter

    /// A gate checking tokens with `authenticator`, then `rate` per key.
    public init(authenticator: AppStoreAPIAuthenticator, rate: RateLimiter) {
        self.authenticator = authenticator
        self.rate = rate
    }

    /// `answer` for the caller's app (the token's `bid`) once the `Authorization` header's token
    /// and the key's rate admit the request; else the refusal.
    public func admit(authorization: String?, _ answer: (String) async -> ServiceAnswer) async -> ServiceAnswer {
        await StorageDeadline.shared {
            guard let caller = await authenticator.authenticate(authorization, now: EpochMilliseconds.now()) else {
                return .empty(httpStatus: 401)
            }
            if let retryAfter = rate.take(caller.keyID) {
                return AppStoreAPIError.rateLimited.answer(retryAfter: retryAfter)
            }
            return await answer(caller.bundleID)
        }
    }
}
