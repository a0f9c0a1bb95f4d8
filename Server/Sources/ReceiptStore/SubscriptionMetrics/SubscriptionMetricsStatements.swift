/// The subscription metrics of one window in one statement, the same text on both backends
/// (DESIGN §18). Every member is defined here; the server's status rule (DESIGN §13) decides who
/// is active:
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
/// - `expirations`: subscriptions whose last transaction (of all known) is not revoked and whose
///   `expiresDate` is that day and not after `now` (`x` rows).
/// - `trialConversions`: RENEWAL transactions, not free trials, purchased that day, right after a
///   FREE_TRIAL transaction of the same subscription (`c` rows).
///
/// Only the subscriptions that can count in the window are read whole: those with a transaction
/// expiring from the window's first day on, or in a grace period then (index
/// `notification_transactions_by_expiry`); the day's purchases and refunds are read by their
/// indexes, the subscriptions' transactions from `notification_transactions_by_subscription` alone.
/// Only rows holding a JWS are seen, as everywhere in the App Store Server API (`product_type` is
/// only ever written with the JWS).
enum SubscriptionMetricsStatements {
    static let day: Int64 = 86_400_000
    static let autoRenewable = "'Auto-Renewable Subscription'"
    /// Later than any date (year 2262 in milliseconds is far below it).
    static let never: Int64 = 1 << 62

    /// The statement: rows of (kind, day, currency, n1, n2, n3, n4, n5) as `Row` reads them.
    static func statement(_ w: MetricsWindow, _ d: SQLDialect) -> SQLStatement {
        let start = w.firstDay * day, end = (w.lastDay + 1) * day
        let (least, greatest) = d == .sqlite ? ("MIN", "MAX") : ("LEAST", "GREATEST")
        let byID = d == .postgres ? #"t.transaction_id COLLATE "C""# : "t.transaction_id"
        let int = d.int64
        func dayOf(_ column: String) -> String {
            "CASE WHEN \(column) / \(day) < \(w.firstDay) THEN \(w.firstDay) ELSE \(column) / \(day) END"
        }
        var s = SQLStatement(
            d,
            """
            WITH candidates AS (
                SELECT original_transaction_id FROM notification_transactions
                WHERE bundle_id = ? AND environment = ? AND expires_date_ms >= ? AND purchase_date_ms < ?
                    AND product_type = \(autoRenewable) AND signed_transaction IS NOT NULL
                UNION
                SELECT original_transaction_id FROM renewal_infos
                WHERE bundle_id = ? AND environment = ? AND billing_retry = 1 AND grace_period_expires_ms >= ?
                    AND signed_renewal_info IS NOT NULL
            ),
            ordered AS (
                SELECT t.purchase_date_ms AS purchased, COALESCE(t.expires_date_ms, t.purchase_date_ms) AS expires,
                    t.revocation_date_ms AS revoked, t.price AS price, t.currency AS currency, t.offer_discount_type AS discount,
                    t.transaction_reason AS reason, r.grace_period_expires_ms AS grace,
                    LEAD(t.purchase_date_ms) OVER w AS next_purchased, LAG(t.offer_discount_type) OVER w AS previous_discount
                FROM notification_transactions t
                LEFT JOIN renewal_infos r ON r.bundle_id = t.bundle_id AND r.environment = t.environment
                    AND r.original_transaction_id = t.original_transaction_id AND r.billing_retry = 1 AND r.signed_renewal_info IS NOT NULL
                WHERE t.bundle_id = ? AND t.environment = ? AND t.product_type = \(autoRenewable)
                    AND t.original_transaction_id IN (SELECT original_transaction_id FROM candidates)
                WINDOW w AS (PARTITION BY t.original_transaction_id ORDER BY t.purchase_date_ms, LENGTH(t.transaction_id), \(byID))
            ),
            spans AS (
                SELECT purchased AS start_ms, currency,
                    \(least)(COALESCE(next_purchased, \(never)), COALESCE(revoked, \(never)), \(greatest)(expires, COALESCE(grace, expires))) AS end_ms,
                    CASE WHEN price IS NULL OR currency IS NULL THEN 0
                        WHEN expires - purchased < \(19 * day) THEN price * 52 / 12
                        WHEN expires - purchased < \(46 * day) THEN price
                        WHEN expires - purchased < \(76 * day) THEN price / 2
                        WHEN expires - purchased < \(137 * day) THEN price / 3
                        WHEN expires - purchased < \(274 * day) THEN price / 6
                        ELSE price / 12 END AS monthly
                FROM ordered WHERE purchased < ?
            ),
            changes AS (
                SELECT \(dayOf("start_ms")) AS day, currency, 1 AS active, monthly FROM spans WHERE end_ms > start_ms AND end_ms >= ?
                UNION ALL
                SELECT \(dayOf("end_ms")), currency, -1, -monthly FROM spans WHERE end_ms > start_ms AND end_ms >= ? AND end_ms < ?
            )
            SELECT 'a', day, currency, CAST(SUM(active) AS \(int)), CAST(SUM(monthly) AS \(int)), 0, 0, 0 FROM changes GROUP BY day, currency
            UNION ALL
            SELECT 'x', expires / \(day), CAST(NULL AS TEXT), CAST(COUNT(*) AS \(int)), 0, 0, 0, 0 FROM ordered
            WHERE next_purchased IS NULL AND revoked IS NULL AND expires >= ? AND expires < ? AND expires <= ? GROUP BY expires / \(day)
            UNION ALL
            SELECT 'c', purchased / \(day), CAST(NULL AS TEXT), CAST(COUNT(*) AS \(int)), 0, 0, 0, 0 FROM ordered
            WHERE previous_discount = 'FREE_TRIAL' AND COALESCE(discount, '') <> 'FREE_TRIAL' AND reason = 'RENEWAL'
                AND purchased >= ? AND purchased < ? GROUP BY purchased / \(day)
            UNION ALL
            SELECT 'p', purchase_date_ms / \(day), currency,
                CAST(SUM(CASE WHEN product_type = \(autoRenewable) AND transaction_id = original_transaction_id THEN 1 ELSE 0 END) AS \(int)),
                CAST(SUM(CASE WHEN transaction_reason = 'RENEWAL' THEN 1 ELSE 0 END) AS \(int)),
                CAST(SUM(CASE WHEN offer_discount_type = 'FREE_TRIAL' THEN 1 ELSE 0 END) AS \(int)),
                CAST(SUM(COALESCE(price, 0)) AS \(int)), CAST(COUNT(price) AS \(int))
            FROM notification_transactions
            WHERE bundle_id = ? AND environment = ? AND purchase_date_ms >= ? AND purchase_date_ms < ? AND signed_transaction IS NOT NULL
            GROUP BY purchase_date_ms / \(day), currency
            UNION ALL
            SELECT 'r', revocation_date_ms / \(day), CAST(NULL AS TEXT), CAST(COUNT(*) AS \(int)), 0, 0, 0, 0 FROM notification_transactions
            WHERE bundle_id = ? AND environment = ? AND revocation_date_ms >= ? AND revocation_date_ms < ? AND signed_transaction IS NOT NULL
            GROUP BY revocation_date_ms / \(day)
            """)
        let (b, e) = (SQLValue.text(w.bundleID), SQLValue.text(w.environment))
        // candidates; ordered; spans (purchased before the window's end); changes (ends after the
        // first day's end, ended ones only within the window); x; c; p; r.
        s.values = [
            b, e, .integer(start), .integer(end), b, e, .integer(start),
            b, e,
            .integer(end),
            .integer(start + day), .integer(start + day), .integer(end),
            .integer(start), .integer(end), .integer(w.now),
            .integer(start), .integer(end),
            b, e, .integer(start), .integer(end),
            b, e, .integer(start), .integer(end),
        ]
        return s
    }

    /// One row of `statement`.
    typealias Columns = (String, Int64, String?, Int64, Int64, Int64, Int64, Int64)

    /// The window's days from the statement's rows: the day's own counts, and the running sums
    /// of the active spans' changes.
    static func days(_ w: MetricsWindow, _ rows: [Columns]) -> [MetricsDay] {
        guard w.lastDay >= w.firstDay else { return [] }
        var days = (w.firstDay ... w.lastDay).map(MetricsDay.init(day:))
        var activeChanges = [Int64](repeating: 0, count: days.count)
        var mrrChanges = [[String: Int64]](repeating: [:], count: days.count)
        for (kind, day, currency, n1, n2, n3, n4, n5) in rows {
            let index = Int(day - w.firstDay)
            guard days.indices.contains(index) else { continue }
            switch kind {
            case "a":
                activeChanges[index] += n1
                if let currency { mrrChanges[index][currency, default: 0] += n2 }
            case "x": days[index].expirations += n1
            case "c": days[index].trialConversions += n1
            case "r": days[index].refunds += n1
            case "p":
                days[index].newSubscriptions += n1
                days[index].renewals += n2
                days[index].trialStarts += n3
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
