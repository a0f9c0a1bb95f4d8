import Synchronization

/// A token bucket per key (an API key, or a client address for `/inspect`): each key may send
/// `burst` requests at once and `rate` a second after that; past it requests are refused (HTTP
/// 429) until the bucket refills. For API keys, buckets exist only for keys that authenticated, so
/// their number is bounded by the keys in the database. For keys anyone can make (addresses),
/// `maxKeys` bounds the table: when it is full, buckets that have refilled (the same as no bucket)
/// are dropped (a sweep at most once a second, so a flood of new keys costs no more than one sweep
/// a second), and if none has, a new key is refused until one does. Each process keeps its own
/// buckets: N instances behind a balancer allow N times the rate.
public final class RateLimiter: Sendable {
    /// Requests a second per key; 0 turns limiting off.
    public let rate: Double
    /// Requests a key may send at once.
    public let burst: Double
    /// Buckets kept at most.
    public let maxKeys: Int

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private struct Table {
        var buckets: [String: Bucket] = [:]
        var swept: ContinuousClock.Instant?
    }

    private let table = Mutex(Table())

    /// `rate` a second after a burst of `burst`; at most `maxKeys` buckets.
    public init(rate: Double, burst: Int, maxKeys: Int = .max) {
        self.rate = max(0, rate)
        self.burst = Double(max(1, burst))
        self.maxKeys = max(1, maxKeys)
    }

    /// Takes one token from `key`'s bucket. Nil when allowed; otherwise the whole seconds until a
    /// token is back (for `Retry-After`).
    public func take(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        guard rate > 0 else { return nil }
        return table.withLock { table in
            if table.buckets[key] == nil && table.buckets.count >= maxKeys {
                if table.swept.map({ now - $0 >= .seconds(1) }) ?? true {
                    table.swept = now
                    table.buckets = table.buckets.filter { refilled($0.value, now: now) < burst }
                }
                if table.buckets.count >= maxKeys { return Int((burst / rate).rounded(.up)) }
            }
            var bucket = table.buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = refilled(bucket, now: now)
            bucket.updated = max(now, bucket.updated)
            defer { table.buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return Int(((1 - bucket.tokens) / rate).rounded(.up)) }
            bucket.tokens -= 1
            return nil
        }
    }

    /// Buckets kept now.
    public var count: Int { table.withLock { $0.buckets.count } }

    private func refilled(_ bucket: Bucket, now: ContinuousClock.Instant) -> Double {
        let elapsed = now - bucket.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return min(burst, bucket.tokens + max(0, seconds) * rate)
    }
}
