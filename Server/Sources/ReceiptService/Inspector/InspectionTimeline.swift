extension InspectionSummary {
    /// The report's `subscriptions` member, for the page's timelines: per subscription its
    /// original transaction id, products, whether it is active, its periods (transaction, product,
    /// start, end, cancellation, badges; times in milliseconds) and the gaps between them. At most
    /// `maxPeriods` periods in all, each subscription's latest first: a receipt of thousands of
    /// renewals draws no better than one of hundreds. `periods_omitted` counts the rest.
    func timelines(maxPeriods: Int) -> [[String: Any]] {
        var remaining = maxPeriods
        var timelines: [[String: Any]] = []
        for group in subscriptions where remaining > 0 {
            let shown = Array(group.suffix(remaining))
            remaining -= shown.count
            var products: [String] = []
            for index in shown where !products.contains(purchases[index].product) { products.append(purchases[index].product) }
            timelines.append([
                "original_transaction_id": purchases[group[0]].original, "product_ids": products,
                "active": shown.contains { badges[$0].contains("active") }, "periods": shown.map(period),
                "gaps": gaps(shown).map { ["start_ms": $0.start, "end_ms": $0.end] }, "periods_omitted": group.count - shown.count,
            ])
        }
        return timelines
    }

    func period(_ index: Int) -> [String: Any] {
        let purchase = purchases[index]
        var period: [String: Any] = [
            "transaction_id": purchase.transaction, "product_id": purchase.product, "start_ms": purchase.purchased,
            "end_ms": purchase.expires ?? purchase.purchased, "badges": badges[index],
        ]
        period["cancelled_ms"] = purchase.cancelled
        return period
    }

    /// The stretches of more than a minute with no period in force, between the first period's
    /// start and the last one's end (a refunded or upgraded period ends at its cancellation).
    func gaps(_ periods: [Int]) -> [(start: Int64, end: Int64)] {
        var gaps: [(start: Int64, end: Int64)] = []
        var covered: Int64?
        for index in periods {
            let purchase = purchases[index]
            if let covered, purchase.purchased > covered + 60_000 { gaps.append((covered, purchase.purchased)) }
            let end = min(purchase.expires ?? purchase.purchased, purchase.cancelled ?? .max)
            covered = max(covered ?? end, end)
        }
        return gaps
    }
}
