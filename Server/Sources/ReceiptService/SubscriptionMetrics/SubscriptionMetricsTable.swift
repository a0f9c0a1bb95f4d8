import ReceiptStore

/// The metrics as a text table for `receipt-server report` (without `--json`): one line per day,
/// the same figures as `SubscriptionMetricsJSON`, amounts in currency units with three decimals
/// (milliunits exactly).
public enum SubscriptionMetricsTable {
    static let headers = ["date", "active", "new", "renewals", "expirations", "refunds", "trial starts", "conversions", "revenue", "mrr"]

    /// The table, columns aligned, a header first.
    public static func text(_ days: [MetricsDay]) -> String {
        let rows = [headers] + days.map(row)
        let widths = headers.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { cells in
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 || column >= 8 ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }

    static func row(_ d: MetricsDay) -> [String] {
        [UTCDay.format(d.day)]
            + [d.activeSubscriptions, d.newSubscriptions, d.renewals, d.expirations, d.refunds, d.trialStarts, d.trialConversions].map {
                String($0)
            } + [amounts(d.revenue), amounts(d.mrr)]
    }

    /// `EUR 12.340 USD 4.990`, currencies in code order; `-` when none.
    static func amounts(_ byCurrency: [String: Int64]) -> String {
        guard !byCurrency.isEmpty else { return "-" }
        return byCurrency.sorted { $0.key < $1.key }.map { "\($0.key) \(units($0.value))" }.joined(separator: " ")
    }

    /// Milliunits as units with three decimals.
    static func units(_ milliunits: Int64) -> String {
        let magnitude = milliunits.magnitude
        let fraction = String(magnitude % 1000)
        return (milliunits < 0 ? "-" : "") + "\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
