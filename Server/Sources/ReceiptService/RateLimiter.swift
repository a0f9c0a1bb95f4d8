import Synchronization

/// A token bucket per API key: each key may send `burst` requests at once and `rate` a second
/// after that; past it requests are refused (HTTP 429) until the bucket refills. Buckets exist
/// only for keys that authenticated, so their number is bounded by the keys in the database. Each
/// process keeps its own buckets: N instances behind a balancer allow N times the rate.
final class RateLimiter: Sendable {
    /// Requests a second per key; 0 turns limiting off.
    let rate: Double
    /// Requests a key may send at once.
    let burst: Double

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let buckets = Mutex<[String: Bucket]>([:])

    init(rate: Double, burst: Int) {
        self.rate = max(0, rate)
        self.burst = Double(max(1, burst))
    }

    /// Takes one token from `key`'s bucket. Nil when allowed; otherwise the whole seconds until a
    /// token is back (for `Retry-After`).
    func take(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        guard rate > 0 else { return nil }
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + max(0, seconds) * rate)
            bucket.updated = max(now, bucket.updated)
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return Int(((1 - bucket.tokens) / rate).rounded(.up)) }
            bucket.tokens -= 1
            return nil
        }
    }
}
