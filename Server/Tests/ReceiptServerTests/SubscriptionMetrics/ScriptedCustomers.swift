import Foundation
import ReceiptTestSupport

/// 300 customers of one app told as a script (two currencies, monthly and yearly products, free
/// trials, auto-renew off, refunds, billing retry with grace, non-consumables), from which the
/// test builds signed tokens and, independently of the server's SQL, the truth: each day's
/// figures by a plain day-by-day walk over the script, and each customer's entitlements now.
struct ScriptedCustomers {
    static let day: Int64 = 86_400_000
    static let monthly = "com.example.receipts.monthly", yearly = "com.example.receipts.yearly"
    static let lifetime = "com.example.receipts.lifetime"
    static let group = "21000001"

    /// One paid or free period of a subscription, or a one-time purchase.
    struct Purchase {
        var transactionID: String
        var product: String
        var purchased: Int64
        /// Nil for the non-consumable.
        var expires: Int64?
        var price: Int64
        var currency: String
        var trial: Bool
        var reason: String
        var revoked: Int64?
    }

    /// One customer: a subscription's periods in order (possibly none), its renewal state now,
    /// and perhaps a non-consumable.
    struct Customer {
        var index: Int
        var token: String
        var original: String
        var periods: [Purchase] = []
        var autoRenew = true
        var billingRetry = false
        var grace: Int64?
        var lifetime: Purchase?
    }

    let now: Int64
    /// The 90-day window: days since 1970.
    let firstDay: Int64, lastDay: Int64
    var customers: [Customer] = []

    /// Nominal months of a product's period (`Product.monthly` 1, yearly 12); a trial is a week.
    static func months(_ product: String) -> Int64 { product == yearly ? 12 : 1 }

    static func price(_ product: String, _ currency: String) -> Int64 {
        switch (product, currency) {
        case (yearly, "USD"): 79_990
        case (yearly, _): 69_990
        case (lifetime, "USD"): 29_990
        case (lifetime, _): 24_990
        case (_, "USD"): 9_990
        default: 8_990
        }
    }

    init(now: Int64, count: Int = 300, seed: UInt64 = 39) {
        self.now = now
        let today = now / Self.day
        lastDay = today - 1
        firstDay = lastDay - 89
        var random = SplitMix64(seed: seed)
        for index in 0 ..< count {
            var customer = Self.customer(index, &random, now: now, firstDay: firstDay, lastDay: lastDay)
            // A date within an hour of now would make the answer depend on the request's second.
            while Self.dates(customer).contains(where: { abs($0 - now) < 3_600_000 }) {
                customer = Self.customer(index, &random, now: now, firstDay: firstDay, lastDay: lastDay)
            }
            customers.append(customer)
        }
    }

    static func dates(_ c: Customer) -> [Int64] {
        c.periods.flatMap { [$0.purchased, $0.expires ?? 0, $0.revoked ?? 0] } + [c.grace ?? 0, c.lifetime?.purchased ?? 0, c.lifetime?.revoked ?? 0]
    }

    /// Customer `index`: its kind from the index, its dates from `random`.
    static func customer(_ index: Int, _ random: inout SplitMix64, now: Int64, firstDay: Int64, lastDay: Int64) -> Customer {
        let currency = index % 2 == 0 ? "USD" : "EUR"
        let product = index % 3 == 0 ? yearly : monthly
        let token = String(format: "%08x-0000-4000-8000-%012x", 0x39_0000 + index, index)
        let original = String(4_000_000_000 + index * 100)
        var c = Customer(index: index, token: token, original: original)
        let onlyLifetime = index % 10 == 9
        if index % 7 == 3 || onlyLifetime {
            let bought = (firstDay - 10 + Int64(random.below(Int(lastDay - firstDay + 10)))) * day + Int64(random.below(Int(day)))
            var purchase = Purchase(
                transactionID: String(5_000_000_000 + index), product: lifetime, purchased: min(bought, now - 3 * day), expires: nil,
                price: price(lifetime, currency), currency: currency, trial: false, reason: "PURCHASE")
            if index % 14 == 3 { purchase.revoked = purchase.purchased + Int64(1 + random.below(5)) * day / 2 }
            c.lifetime = purchase
        }
        guard !onlyLifetime else { return c }
        let startDay = firstDay - 30 + Int64(random.below(Int(lastDay - firstDay + 30)))
        var start = startDay * day + Int64(random.below(Int(day)))
        let fate = index % 5
        let paidPeriods = 1 + random.below(4)
        var number = 0
        func add(_ expires: Int64, price: Int64, trial: Bool) {
            c.periods.append(
                Purchase(
                    transactionID: number == 0 ? original : String(Int(original)! + number), product: product, purchased: start,
                    expires: expires, price: price, currency: currency, trial: trial, reason: number == 0 ? "PURCHASE" : "RENEWAL"))
            number += 1
            start = expires
        }
        if index % 4 == 1 {
            add(start + 7 * day, price: 0, trial: true)
            if fate == 4 || start > now {   // the trial not converted
                c.autoRenew = false
                return c
            }
        }
        let length = months(product) == 12 ? 365 * day : 30 * day
        while start <= now {
            add(start + length, price: price(product, currency), trial: false)
            let paid = c.periods.filter { !$0.trial }.count
            if fate != 0 && paid >= paidPeriods { break }
        }
        let last = c.periods[c.periods.count - 1]
        switch fate {
        case 1, 4: c.autoRenew = false
        case 2:
            c.periods[c.periods.count - 1].revoked = min(last.purchased + 3 * day, now - 7_200_000)
            c.autoRenew = false
            if c.periods[c.periods.count - 1].revoked! <= last.purchased { c.periods[c.periods.count - 1].revoked = nil }
        case 3 where last.expires! <= now:
            c.billingRetry = true
            c.grace = last.expires! + 16 * day
        default: break
        }
        return c
    }
}

extension ScriptedCustomers {
    /// One day's expected figures.
    struct Day: Equatable, CustomStringConvertible {
        var date: String
        var active = 0, new = 0, renewals = 0, expirations = 0, refunds = 0, trialStarts = 0, conversions = 0
        var revenue: [String: Int64] = [:]
        var mrr: [String: Int64] = [:]
        var description: String {
            "\(date) active \(active) new \(new) renewals \(renewals) expirations \(expirations) refunds \(refunds) trials \(trialStarts) "
                + "conversions \(conversions) revenue \(revenue.sorted { $0.key < $1.key }) mrr \(mrr.sorted { $0.key < $1.key })"
        }
    }

    /// Every day of the window, walked customer by customer from the script.
    func expectedDays() -> [Day] {
        (firstDay ... lastDay).map { dayNumber in
            let start = dayNumber * Self.day, end = start + Self.day, close = end - 1
            var d = Day(date: Self.date(dayNumber))
            for c in customers {
                let purchases = c.periods + (c.lifetime.map { [$0] } ?? [])
                for p in purchases {
                    if (start ..< end).contains(p.purchased) { d.revenue[p.currency, default: 0] += p.price }
                    if let r = p.revoked, (start ..< end).contains(r) { d.refunds += 1 }
                }
                for (k, p) in c.periods.enumerated() where (start ..< end).contains(p.purchased) {
                    if k == 0 { d.new += 1 }
                    if p.reason == "RENEWAL" { d.renewals += 1 }
                    if p.trial { d.trialStarts += 1 }
                    if k > 0, c.periods[k - 1].trial, !p.trial { d.conversions += 1 }
                }
                if let last = c.periods.last, last.revoked == nil, let e = last.expires, (start ..< end).contains(e), e <= now {
                    d.expirations += 1
                }
                // Active at the day's last millisecond: the period in force then.
                if let p = c.periods.last(where: { $0.purchased <= close }), p.revoked.map({ $0 > close }) ?? true,
                    p.expires! > close || (c.billingRetry && (c.grace ?? 0) > close)
                {
                    d.active += 1
                    let monthly = p.trial ? 0 : p.price / Self.months(p.product)
                    if monthly != 0 { d.mrr[p.currency, default: 0] += monthly }
                }
            }
            return d
        }
    }

    /// One expected entitlement entry.
    struct Entry: Equatable, CustomStringConvertible {
        var name: String
        var active: Bool
        var product: String
        var original: String
        var expires: Int64?
        var status: Int?
        var willAutoRenew: Bool?
        var description: String {
            "\(name) \(active) \(product) \(original) \(expires ?? -1) \(status ?? -1) \(willAutoRenew.map(String.init) ?? "-")"
        }
    }

    /// The entitlements `premium` (monthly, yearly), `lifetime` (the non-consumable) and `any`
    /// (yearly and the non-consumable) of customer `c` at `now`, as the script says.
    func expectedEntitlements(_ c: Customer) -> [Entry] {
        var subscription: Entry?
        if let last = c.periods.last {
            let status: Int =
                if let r = last.revoked, r <= now { 5 } else if last.expires! > now { 1 } else if c.billingRetry {
                    (c.grace ?? 0) > now ? 4 : 3
                } else { 2 }
            subscription = Entry(
                name: "", active: status == 1 || status == 4, product: last.product, original: c.original, expires: last.expires,
                status: status, willAutoRenew: c.autoRenew)
        }
        let lifetime = c.lifetime.map { p in
            Entry(name: "", active: p.revoked == nil, product: p.product, original: p.transactionID, expires: nil, status: nil, willAutoRenew: nil)
        }
        var entries: [Entry] = []
        // `any`: the non-consumable when it is not revoked or the subscription is not active either.
        let anyCandidates = [subscription].compactMap { $0 }.filter { $0.product == Self.yearly } + [lifetime].compactMap { $0 }
        if let best = anyCandidates.sorted(by: { a, b in a.active != b.active ? a.active : (a.expires ?? .max) > (b.expires ?? .max) }).first {
            entries.append(named(best, "any"))
        }
        if let lifetime { entries.append(named(lifetime, "lifetime")) }
        if let subscription { entries.append(named(subscription, "premium")) }
        return entries
    }

    private func named(_ e: Entry, _ name: String) -> Entry {
        var e = e
        e.name = name
        return e
    }

    static func date(_ day: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(day * 86_400)))
    }
}
