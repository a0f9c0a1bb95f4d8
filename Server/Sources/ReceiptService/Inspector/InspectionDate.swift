import AppReceipt
import Foundation

/// Dates as the inspector reads and writes them: milliseconds since 1970 from JSON numbers (Xcode's
/// StoreKit testing writes fractional ones, `1697679936049.7297`), and short UTC text.
enum InspectionDate {
    /// A JSON number of milliseconds since 1970, the fraction dropped; nil for anything else
    /// (booleans, strings) and for numbers past year 30,000.
    static func milliseconds(_ value: Any?) -> Int64? {
        guard let number = value as? NSNumber, !InspectionDate.isBoolean(number) else { return nil }
        let milliseconds = number.doubleValue.rounded(.down)
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return nil }
        return Int64(milliseconds)
    }

    /// `2024-03-01 12:00Z`: minutes are what a person compares at a glance.
    static func short(_ milliseconds: Int64) -> String {
        String(AppleDateFormat.gmt(Date(millisecondsSince1970: milliseconds)).prefix(16)) + "Z"
    }

    /// Whether JSONSerialization read `number` from `true` or `false` (its two shared boolean
    /// instances; `as? Bool` also accepts the numbers 0 and 1).
    static func isBoolean(_ number: NSNumber) -> Bool {
        number === (true as NSNumber) || number === (false as NSNumber)
    }
}
