/// A metrics question: one app and environment, UTC days `firstDay` … `lastDay` (days since
/// 1970-01-01, inclusive), asked at `now` (milliseconds since 1970: a period still running then
/// has not expired).
public struct MetricsWindow: Sendable, Hashable {
    public var bundleID: String
    public var environment: String
    public var firstDay: Int64
    public var lastDay: Int64
    public var now: Int64

    /// A window.
    public init(bundleID: String, environment: String, firstDay: Int64, lastDay: Int64, now: Int64) {
        self.bundleID = bundleID
        self.environment = environment
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.now = now
    }
}

/// One UTC day's figures (DESIGN §18; the definitions are `SubscriptionMetricsStatements`'s).
public struct MetricsDay: Sendable, Hashable {
    /// Days since 1970-01-01.
    public var day: Int64
    public var activeSubscriptions: Int64 = 0
    public var newSubscriptions: Int64 = 0
    public var renewals: Int64 = 0
    public var expirations: Int64 = 0
    public var refunds: Int64 = 0
    public var trialStarts: Int64 = 0
    public var trialConversions: Int64 = 0
    /// Gross `price` of the day's purchases by `currency`, milliunits.
    public var revenue: [String: Int64] = [:]
    /// Monthly-normalised price of the subscriptions active at the day's end, by currency, milliunits.
    public var mrr: [String: Int64] = [:]

    /// An empty day.
    public init(day: Int64) {
        self.day = day
    }
}

/// Subscription metrics, computed in SQL by both backends (`SubscriptionMetricsStatements`).
public protocol SubscriptionMetricsStore: Sendable {
    /// Every day of `window`, in order.
    func subscriptionMetrics(_ window: MetricsWindow) async throws -> [MetricsDay]
}
