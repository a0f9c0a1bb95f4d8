import Logging
import ReceiptStore

/// Subscription metrics (DESIGN §18) of the caller's app and environment, by UTC day, computed in
/// SQL by the store (`SubscriptionMetricsStore`): what `GET /inApps/v1/metrics`, `receipt-server
/// report` and the dashboard show.
public struct SubscriptionMetricsService: Sendable {
    let store: any SubscriptionMetricsStore
    let logger: Logger
    let clock: @Sendable () -> Int64

    /// Metrics read from `store`; `clock` is the time a period must have ended by to count as an
    /// expiration (milliseconds since 1970).
    public init(store: any SubscriptionMetricsStore, logger: Logger, clock: @escaping @Sendable () -> Int64 = EpochMilliseconds.now) {
        self.store = store
        self.logger = logger
        self.clock = clock
    }

    /// The endpoint's answer: 200 with `SubscriptionMetricsJSON`, 400 for a bad window, 500 when
    /// storage fails.
    public func metrics(query: [(name: String, value: String)], bundleID: String, environment: String) async -> ServiceAnswer {
        let window: MetricsWindowRequest
        do throws(MetricsWindowRequest.Refusal) {
            window = try MetricsWindowRequest(query: query)
        } catch {
            return error.error.answer()
        }
        do {
            let days = try await self.days(window, bundleID: bundleID, environment: environment)
            return ServiceAnswer(SubscriptionMetricsJSON.body(bundleID: bundleID, environment: environment, days: days))
        } catch {
            logger.error("metrics not read", metadata: ["error": "\(error)", "surface": "subscription metrics"])
            return AppStoreAPIError.unknown.answer()
        }
    }

    /// Every day of `window`.
    public func days(_ window: MetricsWindowRequest, bundleID: String, environment: String) async throws -> [MetricsDay] {
        try await store.subscriptionMetrics(
            MetricsWindow(bundleID: bundleID, environment: environment, firstDay: window.firstDay, lastDay: window.lastDay, now: clock()))
    }
}

/// The metrics body: `{"bundleId", "environment", "days": [{"date", "activeSubscriptions", …,
/// "revenue": {CUR: milliunits}, "mrr": {…}}]}`, currencies in code order.
public enum SubscriptionMetricsJSON {
    /// The body for `days`.
    public static func body(bundleID: String, environment: String, days: [MetricsDay]) -> String {
        APIJSON.object([
            "bundleId": APIJSON.quoted(bundleID), "environment": APIJSON.quoted(environment),
            "days": APIJSON.array(days.map(day)),
        ])
    }

    static func day(_ d: MetricsDay) -> String {
        APIJSON.object([
            "date": APIJSON.quoted(UTCDay.format(d.day)), "activeSubscriptions": String(d.activeSubscriptions),
            "newSubscriptions": String(d.newSubscriptions), "renewals": String(d.renewals), "expirations": String(d.expirations),
            "refunds": String(d.refunds), "trialStarts": String(d.trialStarts), "trialConversions": String(d.trialConversions),
            "revenue": amounts(d.revenue), "mrr": amounts(d.mrr),
        ])
    }

    static func amounts(_ byCurrency: [String: Int64]) -> String {
        "{" + byCurrency.sorted { $0.key < $1.key }.map { APIJSON.quoted($0.key) + ":" + String($0.value) }.joined(separator: ",") + "}"
    }
}
