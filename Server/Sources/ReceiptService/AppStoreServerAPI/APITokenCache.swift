import CryptoPrimitives
import Synchronization

/// Tokens whose signature verified, by the SHA-256 of their bytes (32 bytes a token, whatever
/// its length), until they expire: a client that reuses its token costs one P-256 verification
/// per token, not per request. An entry records the signature only; the claims and the key are
/// checked again on every hit, so a revoked or replaced key, or an expired token, is refused
/// even when cached. At most `capacity` entries: when full, expired entries go first, and if
/// none has expired the cache starts again empty.
final class APITokenCache: Sendable {
    struct Entry: Sendable {
        let keyID: String
        /// The key that verified the signature (its stored point).
        let publicKeyBytes: [UInt8]
        let claims: APIJWTClaims
    }

    let capacity: Int
    private let entries: Mutex<[Digest: Entry]> = Mutex([:])

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The cache key of a token.
    static func digest(_ token: [UInt8]) -> Digest {
        SHA256.hash(token)
    }

    func entry(_ digest: Digest) -> Entry? {
        entries.withLock { $0[digest] }
    }

    /// Remembers a verified token; `now` decides which entries have expired when the cache is full.
    func insert(_ digest: Digest, _ entry: Entry, now: Int64) {
        entries.withLock { entries in
            if entries.count >= capacity, entries[digest] == nil {
                let oldest = now - APIJWTClaims.leewayMilliseconds
                entries = entries.filter { $0.value.claims.expiresMilliseconds > oldest }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[digest] = entry
        }
    }

    /// Entries held.
    var count: Int { entries.withLock { $0.count } }
}
