import AppStoreJWS
import Synchronization

/// The bearer tokens of one client: one signed by `AppStoreSigner` and reused until it is
/// `refresh` old, then a new one, so that no request carries a token close to its expiry.
final class BearerTokens: Sendable {
    let signer: AppStoreSigner
    let lifetime: Int64
    let refresh: Int64
    /// Seconds since 1970.
    let now: @Sendable () -> Int64
    private let current = Mutex<(token: String, issuedAt: Int64)?>(nil)

    init(signer: AppStoreSigner, lifetime: Duration, refresh: Duration, now: @escaping @Sendable () -> Int64) {
        self.signer = signer
        self.lifetime = max(1, min(lifetime.components.seconds, 3600))
        self.refresh = max(0, min(refresh.components.seconds, self.lifetime / 2))
        self.now = now
    }

    /// A token issued less than `refresh` ago (a clock that went back also gets a new one).
    func token() -> String {
        let time = now()
        return current.withLock { current in
            if let kept = current, time >= kept.issuedAt, time - kept.issuedAt < refresh { return kept.token }
            let token = signer.serverAPIToken(issuedAt: time, lifetime: lifetime)
            current = (token, time)
            return token
        }
    }
}
