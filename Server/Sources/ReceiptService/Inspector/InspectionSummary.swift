/// What a person reads first about a set of purchases, judged at `now` (milliseconds since 1970):
/// badges per purchase (`active`, `expired`, `refunded`, `upgraded`, `trial`), the subscriptions
/// (purchases with an expiry, grouped by original transaction id) and one line of counts:
/// `5 purchases, 1 subscription, none active, 1 refunded`.
///
/// A subscription period is active when it expires after `now` and was neither refunded nor
/// upgraded. A receipt does not say "upgraded": a cancelled period counts as upgraded when another
/// product of the same subscription starts within a minute of the cancellation (Apple gives both
/// the moment of the upgrade); any other cancellation is a refund.
struct InspectionSummary {
    let purchases: [InspectionPurchase]
    let now: Int64
    /// Per purchase, in `purchases`' order.
    let badges: [[String]]
    /// Indexes into `purchases`: one array per subscription, its periods by purchase date; the
    /// subscriptions by their last expiry, latest first.
    let subscriptions: [[Int]]

    init(_ purchases: [InspectionPurchase], now: Int64) {
        self.purchases = purchases
        self.now = now
        var groups: [String: [Int]] = [:]
        for (index, purchase) in purchases.enumerated() where purchase.expires != nil {
            groups[purchase.original, default: []].append(index)
        }
        let subscriptions = groups.values.map { group in
            (periods: group.sorted { purchases[$0].purchased < purchases[$1].purchased }, end: group.map { purchases[$0].expires ?? 0 }.max() ?? 0)
        }
        self.subscriptions = subscriptions.sorted { lhs, rhs in
            lhs.end != rhs.end ? lhs.end > rhs.end : purchases[lhs.periods[0]].original < purchases[rhs.periods[0]].original
        }.map(\.periods)
        var upgraded = Set(purchases.indices.filter { purchases[$0].upgraded })
        for group in self.subscriptions {
            for index in group where Self.isUpgrade(index, in: group, of: purchases) {
                upgraded.insert(index)
            }
        }
        badges = purchases.indices.map { Self.badges(purchases[$0], upgraded: upgraded.contains($0), now: now) }
    }

    /// Whether the purchase at `index` was cancelled and another product of `group` (sorted by
    /// purchase date) starts within a minute of that. Looks at 16 purchases at most, so thousands
    /// bought at one moment cost no more than a few.
    static func isUpgrade(_ index: Int, in group: [Int], of purchases: [InspectionPurchase]) -> Bool {
        guard let cancelled = purchases[index].cancelled else { return false }
        var (low, high) = (0, group.count)
        while low < high {
            let middle = (low + high) / 2
            if purchases[group[middle]].purchased < cancelled - 60_000 { low = middle + 1 } else { high = middle }
        }
        return group[low...].prefix(16).contains { other in
            purchases[other].purchased <= cancelled + 60_000 && purchases[other].product != purchases[index].product
        }
    }

    /// `purchase`'s badges at `now`: how it ended or whether it runs (`upgraded`, `refunded`,
    /// `active`, `expired`; the last two for subscriptions only), then `trial`.
    static func badges(_ purchase: InspectionPurchase, upgraded: Bool, now: Int64) -> [String] {
        var badges: [String] = []
        if upgraded {
            badges.append("upgraded")
        } else if purchase.cancelled != nil {
            badges.append("refunded")
        } else if let expires = purchase.expires {
            badges.append(expires > now ? "active" : "expired")
        }
        if purchase.trial { badges.append("trial") }
        return badges
    }

    func count(_ badge: String) -> Int {
        badges.count(where: { $0.contains(badge) })
    }

    /// The subscriptions with an active period.
    var active: [[Int]] {
        subscriptions.filter { $0.contains { badges[$0].contains("active") } }
    }

    /// The last expiry of the active periods.
    var activeUntil: Int64? {
        active.joined().filter { badges[$0].contains("active") }.compactMap { purchases[$0].expires }.max()
    }

    /// `5 purchases, 2 subscriptions, 1 active until 2024-03-01 12:00Z, 1 refunded`.
    var text: String {
        var parts = [Self.plural(purchases.count, "purchase")]
        parts.append(subscriptions.isEmpty ? "no subscriptions" : Self.plural(subscriptions.count, "subscription"))
        if !subscriptions.isEmpty {
            let until = activeUntil.map(InspectionDate.short) ?? ""
            switch active.count {
            case 0: parts.append("none active")
            case 1: parts.append("1 active until \(until)")
            case let count: parts.append("\(count) active, the last until \(until)")
            }
        }
        for badge in ["refunded", "upgraded"] where count(badge) > 0 {
            parts.append("\(count(badge)) \(badge)")
        }
        return parts.joined(separator: ", ")
    }

    /// The report's `summary` member.
    var object: [String: Any] {
        var object: [String: Any] = [
            "text": text, "purchases": purchases.count, "subscriptions": subscriptions.count, "active": active.count,
            "refunded": count("refunded"), "upgraded": count("upgraded"), "judged_at": InspectionDate.short(now), "judged_at_ms": now,
        ]
        object["active_until"] = activeUntil.map(InspectionDate.short)
        object["active_until_ms"] = activeUntil
        return object
    }

    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
