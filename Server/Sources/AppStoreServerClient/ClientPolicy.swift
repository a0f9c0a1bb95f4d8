import Foundation

/// How an `AppStoreServerAPIClient` waits, retries and bounds what it reads, whatever the
/// server answers.
public struct AppStoreServerAPIClientPolicy: Sendable, Hashable {
    /// Attempts per request at most, the first included: 429, 5xx, timeouts and connection
    /// failures are tried again until then.
    public var maxAttempts: Int
    /// The first backoff after a 5xx or a failure without an answer; doubled each time, with
    /// jitter (half to all of it).
    public var baseDelay: Duration
    /// The longest backoff.
    public var maxDelay: Duration
    /// The longest wait a 429's `Retry-After` may ask for (a longer one is cut to this).
    public var maxRetryAfter: Duration
    /// One attempt, from connecting to the last byte of the body.
    public var requestTimeout: Duration
    /// The largest response body read; a larger one fails the request, unread.
    public var maxResponseBytes: Int
    /// The bearer token's lifetime (Apple refuses more than an hour).
    public var tokenLifetime: Duration
    /// A token older than this is replaced before it is sent: well before it expires.
    public var tokenRefresh: Duration

    /// The defaults: 5 attempts, backoff from 0.5 s to 30 s, `Retry-After` up to 60 s, 30 s an
    /// attempt, bodies up to 4 MiB (a page of 20 of Apple's tokens is about 100 KiB), tokens of
    /// 20 minutes replaced after 10.
    public init(
        maxAttempts: Int = 5, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30),
        maxRetryAfter: Duration = .seconds(60), requestTimeout: Duration = .seconds(30), maxResponseBytes: Int = 4 << 20,
        tokenLifetime: Duration = .seconds(1200), tokenRefresh: Duration = .seconds(600)
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.requestTimeout = requestTimeout
        self.maxResponseBytes = maxResponseBytes
        self.tokenLifetime = tokenLifetime
        self.tokenRefresh = tokenRefresh
    }

    /// The backoff before attempt `attempt + 1` after a failure of attempt `attempt` (1-based),
    /// before jitter.
    func backoff(after attempt: Int) -> Duration {
        var delay = baseDelay
        for _ in 1 ..< max(1, attempt) {
            delay *= 2
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }

    /// The wait a 429 asks for: its `Retry-After` in seconds, cut to `maxRetryAfter`; nil when the
    /// header is absent or not a number of seconds (the backoff applies).
    func retryAfter(_ header: String?) -> Duration? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        guard text.utf8.count <= 9, let seconds = Int64(text) else { return maxRetryAfter }
        return min(.seconds(seconds), maxRetryAfter)
    }
}
