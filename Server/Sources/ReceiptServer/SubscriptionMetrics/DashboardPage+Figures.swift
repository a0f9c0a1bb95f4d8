import Foundation
import ReceiptService

extension DashboardPage {
    /// The headline tiles, the charts and the day-by-day table of `days`.
    static func figures(_ form: Form, _ days: [SubscriptionMetricsDay]) -> String {
        guard let last = days.last else { return "" }
        let dates = days.map(\.day)
        let currencies = Set(days.flatMap { Array($0.mrr.keys) + Array($0.revenue.keys) }).sorted()
        func total(_ key: KeyPath<SubscriptionMetricsDay, Int64>) -> Int64 { days.reduce(0) { $0 + $1[keyPath: key] } }
        let trialStarts = total(\.trialStarts), conversions = total(\.trialConversions)
        let revenue = currencies.map { c in (c, days.reduce(0) { $0 + ($1.revenue[c] ?? 0) }) }.filter { $0.1 != 0 }
        var html = #"<p class="scope" id="scope">\#(escape(form.bundleID)) · \#(escape(form.environment)) · "#
        html += "\(UTCDay.format(dates[0])) to \(UTCDay.format(last.day)) (\(days.count) days, UTC)</p>"
        html += #"<section class="tiles" id="tiles">"#
        html += tile("active", "Active subscriptions", count(last.activeSubscriptions), "at the end of \(UTCDay.format(last.day))")
        html += tile(
            "mrr", "MRR", last.mrr.isEmpty ? "—" : last.mrr.sorted { $0.key < $1.key }.map { money($0.value, $0.key) }.joined(separator: "<br>"),
            "monthly recurring revenue", raw: true, money: true)
        html += tile("new", "New subscriptions", count(total(\.newSubscriptions)), "in the window")
        html += tile("churned", "Expirations", count(total(\.expirations)), "periods ended, not renewed")
        html += tile(
            "conversion", "Trial conversions", count(conversions), "to paid; \(count(trialStarts)) trials started in the window")
        html += tile("refunds", "Refunds", count(total(\.refunds)), "in the window")
        html += tile(
            "revenue", "Revenue", revenue.isEmpty ? "—" : revenue.map { money($0.1, $0.0) }.joined(separator: "<br>"), "gross, in the window",
            raw: true, money: true)
        html += "</section>"
        html += #"<section class="charts">"#
        html +=
            DashboardChart(
                id: "chart-active", title: "Active subscriptions", days: dates, kind: .line,
                series: [.init(label: "active at the day's end", cssClass: "s1", values: days.map { Double($0.activeSubscriptions) })],
                format: countTick
            ).html
        for (number, currency) in currencies.enumerated() where days.contains(where: { $0.mrr[currency] != nil }) {
            html +=
                DashboardChart(
                    id: "chart-mrr-\(escape(currency))", title: "MRR · \(currency)", days: dates, kind: .line,
                    series: [.init(label: "MRR in \(currency)", cssClass: "s\(number % 4 + 2)", values: days.map { Double($0.mrr[currency] ?? 0) })],
                    format: { amountTick($0) }
                ).html
        }
        html +=
            DashboardChart(
                id: "chart-churn", title: "New vs churned", days: dates, kind: .bars,
                series: [
                    .init(label: "new subscriptions", cssClass: "good", values: days.map { Double($0.newSubscriptions) }),
                    .init(label: "expirations (below the line)", cssClass: "bad", values: days.map { -Double($0.expirations) }),
                ], format: countTick
            ).html
        html +=
            DashboardChart(
                id: "chart-trials", title: "Trial conversion", days: dates, kind: .bars,
                series: [
                    .init(label: "trial starts", cssClass: "s3", values: days.map { Double($0.trialStarts) }),
                    .init(label: "conversions to paid", cssClass: "good", values: days.map { Double($0.trialConversions) }),
                ], format: countTick
            ).html
        html +=
            DashboardChart(
                id: "chart-refunds", title: "Refunds", days: dates, kind: .bars,
                series: [.init(label: "refunds", cssClass: "bad", values: days.map { Double($0.refunds) })], format: countTick
            ).html
        html += "</section>"
        return html + table(days, currencies)
    }

    static func tile(_ id: String, _ title: String, _ value: String, _ note: String, raw: Bool = false, money: Bool = false) -> String {
        let valueClass = money ? "value money" : "value"
        return #"<div class="tile" id="tile-\#(id)"><h2>\#(title)</h2><p class="\#(valueClass)">\#(raw ? value : escape(value))</p>"#
            + #"<p class="note">\#(escape(note))</p></div>"#
    }

    /// A count axis tick: whole numbers, one decimal between them, thousands as `k` (short
    /// enough for the axis at a phone's width).
    static func countTick(_ value: Double) -> String {
        if abs(value) >= 1000 { return countTick(value / 1000) + "k" }
        return value == value.rounded() ? count(Int64(value)) : String((value * 10).rounded() / 10)
    }

    /// A money axis tick (the currency is in the chart's title): units, two decimals below 10.
    static func amountTick(_ milliunits: Double) -> String {
        let units = milliunits / 1000
        return abs(units) < 10 && units != 0 ? String(format: "%.2f", units) : countTick(units.rounded())
    }

    /// Every figure, day by day.
    static func table(_ days: [SubscriptionMetricsDay], _ currencies: [String]) -> String {
        var html = #"<details id="table"><summary>Day by day</summary><div class="scroll"><table><thead><tr><th>Date</th><th>Active</th>"#
        html += "<th>New</th><th>Renewals</th><th>Expirations</th><th>Refunds</th><th>Trial starts</th><th>Conversions</th>"
        html += currencies.map { "<th>Revenue \(escape($0))</th><th>MRR \(escape($0))</th>" }.joined() + "</tr></thead><tbody>"
        for d in days {
            html += "<tr><td>\(UTCDay.format(d.day))</td>"
            html += [d.activeSubscriptions, d.newSubscriptions, d.renewals, d.expirations, d.refunds, d.trialStarts, d.trialConversions]
                .map { "<td>\(count($0))</td>" }.joined()
            html += currencies.map { "<td>\(money(d.revenue[$0] ?? 0, $0))</td><td>\(money(d.mrr[$0] ?? 0, $0))</td>" }.joined()
            html += "</tr>"
        }
        return html + "</tbody></table></div></details>"
    }

    /// An integer with thousands separators.
    static func count(_ n: Int64) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(character)
        }
        return (n < 0 ? "−" : "") + out
    }

    /// Milliunits as `USD 1,234.56` (two decimals, truncated toward zero).
    static func money(_ milliunits: Int64, _ currency: String) -> String {
        let cents = (milliunits / 10).magnitude
        let (units, fraction) = (cents / 100, cents % 100)
        return "\(escape(currency)) \(milliunits <= -10 ? "−" : "")\(count(Int64(units))).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
