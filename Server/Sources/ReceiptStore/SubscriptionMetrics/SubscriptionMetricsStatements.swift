/// The subscription metrics of one window in three statements, one text for both backends but for
/// the few places named below (DESIGN §18). Every member is defined here; the server's status
/// rule (DESIGN §13) decides who is active:
///
/// - A subscription is the auto-renewable transactions of one original transaction id. At a time
///   T its last transaction is the one with the latest `purchaseDate` ≤ T (ties: the longer, then
///   greater transaction id); it is active (status 1 or 4) unless revoked at T, when its
///   `expiresDate` > T, or when its renewal info says billing retry with `gracePeriodExpiresDate`
///   > T. So each transaction is the subscription's active one over [purchase, end) with end =
///   min(next purchase, revocation, max(expires, grace)); a day counts what is active at its last
///   millisecond (T = day end − 1 ms).
/// - `activeSubscriptions` and `mrr`: the spans holding the day's end. Each span adds itself on
///   the day it starts and removes itself on the day it ends; the SQL returns the spans counted
///   by those two days (`a` rows: start day, earlier ones folded into the first day; end day, 0
///   after the window) and `days(_:_:)` adds the changes up. MRR is the span's `price` made
///   monthly by its period (`monthly_price`, `SubscriptionSpanSchema`).
/// - `newSubscriptions`: auto-renewable transactions that are their own original, purchased that
///   day; `renewals`: `transactionReason` RENEWAL; `trialStarts`: `offerDiscountType` FREE_TRIAL;
///   `revenue`: the sum of `price` by `currency` of every purchase that day, any product type,
///   refunded or not (`p` rows).
/// - `refunds`: transactions whose `revocationDate` is that day (`r` rows).
/// - `expirations`: subscriptions whose last transaction (of all known: `next_purchase_ms` null)
///   is not revoked and whose `expiresDate` is that day and not after `now` (`x` rows).
/// - `trialConversions`: RENEWAL transactions, not free trials, purchased that day, right after a
///   FREE_TRIAL transaction of the same subscription (`previous_offer_discount_type`; `p` rows).
///
/// Each transaction's successor and predecessor are stored with it (version 13,
/// `SubscriptionOrderSchema`), and from them its span's end without a grace period and its
/// monthly price (version 15, `SubscriptionSpanSchema`, generated columns), so spans are one
/// range of `notification_transactions_by_span_end` (`spans`); grace periods are applied to
/// that count from `renewal_infos_in_billing_retry`, the few subscriptions in billing retry
/// (`graceCorrections`). The day's purchases come from
/// `notification_transactions_by_purchase_signed`, refunds from
/// `notification_transactions_by_revocation`, expirations from the span index again. SQLite has
/// no statistics, so its text names those indexes (`INDEXED BY`) and keeps `purchase_date_ms` off
/// the span read's index choice (`+`). The statements run at once, each on its own connection.
/// Only rows holding a JWS are seen, as everywhere in the App Store Server API (`product_type` is
/// only ever written with the JWS).
enum SubscriptionMetricsStatements {
    static let day: Int64 = 86_400_000
    /// The `type` Apple signs for an auto-renewable subscription's transactions.
    static let autoRenewableType = "Auto-Renewable Subscription"
    /// `autoRenewableType` as an SQL literal.
    static let autoRenewable = "'\(autoRenewableType)'"
    /// Later than any date (year 2262 in milliseconds is far below it).
    static let never: Int64 = 1 << 62

    /// The statements; their rows together are what `days` reads.
    static func statements(_ w: MetricsWindow, _ d: SQLDialect) -> [SQLStatement] {
        [spans(w, d), graceCorrections(w, d), dayCounts(w, d)]
    }

    /// The day `column` falls on, or the window's first day when earlier.
    static func dayFrom(_ column: String, _ w: MetricsWindow) -> String {
        "CASE WHEN \(column) < \(w.firstDay * day) THEN \(w.firstDay) ELSE \(column) / \(day) END"
    }

    /// The day `column` falls on, or 0 when at or after the window's end.
    static func dayUntil(_ column: String, _ w: MetricsWindow) -> String {
        "CASE WHEN \(column) >= \((w.lastDay + 1) * day) THEN 0 ELSE \(column) / \(day) END"
    }

    /// `a` rows without grace periods: the spans that can hold a day's end in the window (ending
    /// after the first day's end, purchased before the window's end, not empty), counted with
    /// their monthly price by the day they start (`dayFrom`), the day they end (`dayUntil`, the
    /// sixth column) and currency. One range of `notification_transactions_by_span_end`.
    static func spans(_ w: MetricsWindow, _ d: SQLDialect) -> SQLStatement {
        let (start, end) = (w.firstDay * day, (w.lastDay + 1) * day)
        let sqlite = d == .sqlite
        let int = d.int64
        var s = SQLStatement(
            d,
            """
            SELECT 'a', \(dayFrom("purchase_date_ms", w)), currency, CAST(COUNT(*) AS \(int)), CAST(SUM(monthly_price) AS \(int)),
                \(dayUntil("span_end_ms", w)), 0, 0, 0
            FROM notification_transactions\(sqlite ? " INDEXED BY notification_transactions_by_span_end" : "")
            WHERE bundle_id = ? AND environment = ? AND product_type = \(autoRenewable) AND span_end_ms >= ?
                AND span_end_ms > purchase_date_ms AND \(sqlite ? "+" : "")purchase_date_ms < ?
            GROUP BY 2, 6, currency
            """)
        s.values = [.text(w.bundleID), .text(w.environment), .integer(start + day), .integer(end)]
        return s
    }

    /// `a` rows that put the grace period into `spans`: for each transaction of a subscription in
    /// billing retry whose span ended by expiring (not cut by a next purchase or a revocation)
    /// before the window's end and whose grace period runs longer, its span as `spans` counted it
    /// is taken back (negative) and its span to min(cut, grace end) is added, each under
    /// `spans`' conditions. The subscriptions in billing retry first (`renewal_infos_in_billing_retry`),
    /// then each one's transactions (`notification_transactions_by_original`): SQLite's `CROSS
    /// JOIN` keeps that order, which it otherwise turned round, reading every transaction of the
    /// app (0.36 s at 272,087 transactions, against a few milliseconds).
    static func graceCorrections(_ w: MetricsWindow, _ d: SQLDialect) -> SQLStatement {
        let (start, end) = (w.firstDay * day, (w.lastDay + 1) * day)
        let sqlite = d == .sqlite
        let least = sqlite ? "MIN" : "LEAST"
        let int = d.int64
        let expires = "COALESCE(t.expires_date_ms, t.purchase_date_ms)"
        let cut = "\(least)(COALESCE(t.next_purchase_ms, \(never)), COALESCE(t.revocation_date_ms, \(never)))"
        var s = SQLStatement(
            d,
            """
            WITH retried AS (
                SELECT t.purchase_date_ms AS purchased, t.currency AS currency, t.monthly_price AS monthly, t.span_end_ms AS plain_end,
                    \(least)(\(cut), r.grace_period_expires_ms) AS grace_end
                FROM renewal_infos r\(sqlite ? " INDEXED BY renewal_infos_in_billing_retry" : "")
                CROSS JOIN notification_transactions t\(sqlite ? " INDEXED BY notification_transactions_by_original" : "")
                WHERE r.bundle_id = ? AND r.environment = ? AND r.billing_retry = 1 AND r.signed_renewal_info IS NOT NULL
                    AND t.bundle_id = r.bundle_id AND t.environment = r.environment AND t.original_transaction_id = r.original_transaction_id
                    AND t.product_type = \(autoRenewable) AND \(cut) > \(expires) AND r.grace_period_expires_ms > \(expires)
                    AND \(expires) < ? AND t.purchase_date_ms < ?
            )
            SELECT 'a', \(dayFrom("purchased", w)), currency, CAST(-COUNT(*) AS \(int)), CAST(-SUM(monthly) AS \(int)),
                \(dayUntil("plain_end", w)), 0, 0, 0
            FROM retried WHERE plain_end > purchased AND plain_end >= ? GROUP BY 2, 6, currency
            UNION ALL
            SELECT 'a', \(dayFrom("purchased", w)), currency, CAST(COUNT(*) AS \(int)), CAST(SUM(monthly) AS \(int)),
                \(dayUntil("grace_end", w)), 0, 0, 0
            FROM retried WHERE grace_end > purchased AND grace_end >= ? GROUP BY 2, 6, currency
            """)
        s.values = [.text(w.bundleID), .text(w.environment), .integer(end), .integer(end), .integer(start + day), .integer(start + day)]
        return s
    }

    /// `x` (expirations), `p` (purchases: new, renewals, trial starts, revenue and its count,
    /// trial conversions) and `r` (refunds) rows, per day.
    static func dayCounts(_ w: MetricsWindow, _ d: SQLDialect) -> SQLStatement {
        let start = w.firstDay * day, end = (w.lastDay + 1) * day
        let purchaseIndex = d == .sqlite ? " INDEXED BY notification_transactions_by_purchase_signed" : ""
        let spanIndex = d == .sqlite ? " INDEXED BY notification_transactions_by_span_end" : ""
        let int = d.int64
        var s = SQLStatement(
            d,
            """
            SELECT 'x', span_end_ms / \(day), CAST(NULL AS TEXT), CAST(COUNT(*) AS \(int)), 0, 0, 0, 0, 0
            FROM notification_transactions\(spanIndex)
            WHERE bundle_id = ? AND environment = ? AND product_type = \(autoRenewable) AND span_end_ms >= ? AND span_end_ms < ?
                AND span_end_ms <= ? AND next_purchase_ms IS NULL AND revocation_date_ms IS NULL GROUP BY span_end_ms / \(day)
            UNION ALL
            SELECT 'p', purchase_date_ms / \(day), currency,
                CAST(SUM(CASE WHEN product_type = \(autoRenewable) AND transaction_id = original_transaction_id THEN 1 ELSE 0 END) AS \(int)),
                CAST(SUM(CASE WHEN transaction_reason = 'RENEWAL' THEN 1 ELSE 0 END) AS \(int)),
                CAST(SUM(CASE WHEN offer_discount_type = 'FREE_TRIAL' THEN 1 ELSE 0 END) AS \(int)),
                CAST(SUM(COALESCE(price, 0)) AS \(int)), CAST(COUNT(price) AS \(int)),
                CAST(SUM(CASE WHEN product_type = \(autoRenewable) AND previous_offer_discount_type = 'FREE_TRIAL'
                    AND COALESCE(offer_discount_type, '') <> 'FREE_TRIAL' AND transaction_reason = 'RENEWAL' THEN 1 ELSE 0 END) AS \(int))
            FROM notification_transactions\(purchaseIndex)
            WHERE bundle_id = ? AND environment = ? AND purchase_date_ms >= ? AND purchase_date_ms < ? AND signed_transaction IS NOT NULL
            GROUP BY purchase_date_ms / \(day), currency
            UNION ALL
            SELECT 'r', revocation_date_ms / \(day), CAST(NULL AS TEXT), CAST(COUNT(*) AS \(int)), 0, 0, 0, 0, 0 FROM notification_transactions
            WHERE bundle_id = ? AND environment = ? AND revocation_date_ms >= ? AND revocation_date_ms < ? AND signed_transaction IS NOT NULL
            GROUP BY revocation_date_ms / \(day)
            """)
        let (b, e) = (SQLValue.text(w.bundleID), SQLValue.text(w.environment))
        s.values = [
            b, e, .integer(start), .integer(end), .integer(w.now),
            b, e, .integer(start), .integer(end),
            b, e, .integer(start), .integer(end),
        ]
        return s
    }

    /// One row of `statements`.
    typealias Columns = (String, Int64, String?, Int64, Int64, Int64, Int64, Int64, Int64)

    /// The window's days from the statement's rows: the day's own counts, and the running sums
    /// of the active spans' changes.
    static func days(_ w: MetricsWindow, _ rows: [Columns]) -> [MetricsDay] {
        guard w.lastDay >= w.firstDay else { return [] }
        var days = (w.firstDay ... w.lastDay).map(MetricsDay.init(day:))
        var activeChanges = [Int64](repeating: 0, count: days.count)
        var mrrChanges = [[String: Int64]](repeating: [:], count: days.count)
        for (kind, day, currency, n1, n2, n3, n4, n5, n6) in rows {
            let index = Int(day - w.firstDay)
            guard days.indices.contains(index) else { continue }
            switch kind {
            case "a":
                activeChanges[index] += n1
                if let currency { mrrChanges[index][currency, default: 0] += n2 }
                let endIndex = Int(n3 - w.firstDay)
                if n3 != 0, days.indices.contains(endIndex) {
                    activeChanges[endIndex] -= n1
                    if let currency { mrrChanges[endIndex][currency, default: 0] -= n2 }
                }
            case "x": days[index].expirations += n1
            case "r": days[index].refunds += n1
            case "p":
                days[index].newSubscriptions += n1
                days[index].renewals += n2
                days[index].trialStarts += n3
                days[index].trialConversions += n6
                if let currency, n5 > 0 { days[index].revenue[currency, default: 0] += n4 }
            default: continue
            }
        }
        var active: Int64 = 0
        var mrr: [String: Int64] = [:]
        for index in days.indices {
            active += activeChanges[index]
            mrr.merge(mrrChanges[index], uniquingKeysWith: +)
            days[index].activeSubscriptions = active
            days[index].mrr = mrr.filter { $0.value != 0 }
        }
        return days
    }
}
