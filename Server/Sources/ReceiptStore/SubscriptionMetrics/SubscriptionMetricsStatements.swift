/// The subscription metrics of one window in two statements, one text for both backends but for
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
///   the day it starts and removes itself on the day it ends; the SQL returns those changes per
///   day (`a` rows, earlier ones folded into the first day) and `days(_:_:)` adds them up. MRR is
///   the span's `price` made monthly by its period (`expiresDate − purchaseDate`, the nearest of
///   1 week ×52/12, 1 month, 2, 3, 6 months, 1 year /12; below 19, 46, 76, 137, 274 days), each
///   truncated to a milliunit.
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
/// `SubscriptionOrderSchema`), so spans are read from `notification_transactions_by_span` alone,
/// only those that can reach the window's first day end; a span's grace period is looked up only
/// when it can move the span's end within the window (cut after an expiry before the window's
/// end): in SQLite by `renewal_infos_in_billing_retry` per span, in PostgreSQL by a hash join
/// with it. The day's
/// purchases come from `notification_transactions_by_purchase_signed`, refunds from
/// `notification_transactions_by_revocation`. SQLite has no statistics, so its text names those
/// indexes (`INDEXED BY`) and keeps `purchase_date_ms` off the span read's index choice (`+`).
/// The spans (`spanChanges`) and the day's own counts (`dayCounts`) are two statements, which the
/// stores run at once on two connections.
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

    /// Both statements; their rows together are what `days` reads.
    static func statements(_ w: MetricsWindow, _ d: SQLDialect) -> [SQLStatement] {
        [spanChanges(w, d), dayCounts(w, d)]
    }

    /// `a` rows: the spans' changes to actives and MRR per day (starts counted on their day, or
    /// the first day when earlier; ends within the window, negative).
    static func spanChanges(_ w: MetricsWindow, _ d: SQLDialect) -> SQLStatement {
        let start = w.firstDay * day, end = (w.lastDay + 1) * day
        let sqlite = d == .sqlite
        let (least, greatest) = sqlite ? ("MIN", "MAX") : ("LEAST", "GREATEST")
        let int = d.int64
        let expires = "COALESCE(t.expires_date_ms, t.purchase_date_ms)"
        let cut = "\(least)(COALESCE(t.next_purchase_ms, \(never)), COALESCE(t.revocation_date_ms, \(never)))"
        let inRetry = "r.billing_retry = 1 AND r.signed_renewal_info IS NOT NULL"
        let sameSubscription = """
            r.bundle_id = t.bundle_id AND r.environment = t.environment AND r.original_transaction_id = t.original_transaction_id
            """
        let (grace, join) =
            sqlite
            ? (
                "(SELECT r.grace_period_expires_ms FROM renewal_infos r INDEXED BY renewal_infos_in_billing_retry WHERE \(sameSubscription) AND \(inRetry))",
                ""
            )
            : ("r.grace_period_expires_ms", " LEFT JOIN renewal_infos r ON \(sameSubscription) AND \(inRetry)")
        func dayOf(_ column: String) -> String {
            "CASE WHEN \(column) / \(day) < \(w.firstDay) THEN \(w.firstDay) ELSE \(column) / \(day) END"
        }
        let pad = "0, 0, 0, 0"
        var s = SQLStatement(
            d,
            """
            WITH bounded AS (
                SELECT t.purchase_date_ms AS purchased, \(expires) AS expires, t.price AS price, t.currency AS currency, \(cut) AS cut,
                    CASE WHEN \(cut) > \(expires) AND \(expires) < ? THEN \(grace) END AS grace
                FROM notification_transactions t\(join)
                WHERE t.bundle_id = ? AND t.environment = ? AND t.product_type = \(autoRenewable)
                    AND (t.next_purchase_ms IS NULL OR t.next_purchase_ms >= ?) AND (t.revocation_date_ms IS NULL OR t.revocation_date_ms >= ?)
                    AND \(sqlite ? "+" : "")t.purchase_date_ms < ?
            ),
            spans AS (
                SELECT purchased AS start_ms, currency, \(least)(cut, \(greatest)(expires, COALESCE(grace, expires))) AS end_ms,
                    CASE WHEN price IS NULL OR currency IS NULL THEN 0
                        WHEN expires - purchased < \(19 * day) THEN price * 52 / 12
                        WHEN expires - purchased < \(46 * day) THEN price
                        WHEN expires - purchased < \(76 * day) THEN price / 2
                        WHEN expires - purchased < \(137 * day) THEN price / 3
                        WHEN expires - purchased < \(274 * day) THEN price / 6
                        ELSE price / 12 END AS monthly
                FROM bounded
            )
            SELECT 'a', \(dayOf("start_ms")), currency, CAST(COUNT(*) AS \(int)), CAST(SUM(monthly) AS \(int)), \(pad)
            FROM spans WHERE end_ms > start_ms AND end_ms >= ? GROUP BY \(dayOf("start_ms")), currency
            UNION ALL
            SELECT 'a', \(dayOf("end_ms")), currency, CAST(-COUNT(*) AS \(int)), CAST(-SUM(monthly) AS \(int)), \(pad)
            FROM spans WHERE end_ms > start_ms AND end_ms >= ? AND end_ms < ? GROUP BY \(dayOf("end_ms")), currency
            """)
        // bounded: the grace period only where it can move an end within the window (a span
        // expiring at or after the window's end ends there or later with or without it, or at its
        // cut); spans that can end after the first day's end, purchased before the window's end;
        // starts: ending after the first day's end; ends: only those within the window.
        s.values = [
            .integer(end), .text(w.bundleID), .text(w.environment), .integer(start + day), .integer(start + day), .integer(end),
            .integer(start + day), .integer(start + day), .integer(end),
        ]
        return s
    }

    /// `x` (expirations), `p` (purchases: new, renewals, trial starts, revenue and its count,
    /// trial conversions) and `r` (refunds) rows, per day.
    static func dayCounts(_ w: MetricsWindow, _ d: SQLDialect) -> SQLStatement {
        let start = w.firstDay * day, end = (w.lastDay + 1) * day
        let purchaseIndex = d == .sqlite ? " INDEXED BY notification_transactions_by_purchase_signed" : ""
        let int = d.int64
        let expires = "COALESCE(t.expires_date_ms, t.purchase_date_ms)"
        var s = SQLStatement(
            d,
            """
            SELECT 'x', \(expires) / \(day), CAST(NULL AS TEXT), CAST(COUNT(*) AS \(int)), 0, 0, 0, 0, 0 FROM notification_transactions t
            WHERE t.bundle_id = ? AND t.environment = ? AND t.product_type = \(autoRenewable) AND t.next_purchase_ms IS NULL
                AND t.revocation_date_ms IS NULL AND \(expires) >= ? AND \(expires) < ? AND \(expires) <= ? GROUP BY \(expires) / \(day)
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
