/// Conversions between proleptic Gregorian civil time (UTC) and seconds since 1970-01-01T00:00:00Z,
/// without Foundation. Shared by the ASN.1 time readers, the writer and higher layers.
public enum CivilTime: Sendable {
    /// A civil date and time of day in UTC.
    public struct Components: Sendable, Hashable {
        /// The fields in UTC: year (proleptic Gregorian), month 1–12, day, hour 0–23, minute and
        /// second 0–59. Not checked here: `CivilTime.secondsSince1970(_:)` returns `nil` out of range.
        public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

        /// Makes the components of a UTC date and time, unchecked; the time of day defaults to midnight.
        public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
            self.year = year; self.month = month; self.day = day
            self.hour = hour; self.minute = minute; self.second = second
        }
    }

    /// True for Gregorian leap years.
    @inlinable
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Days in `month` (1–12) of `year`.
    @inlinable
    public static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Seconds since 1970 for valid components (month 1–12, day within the month, hour 0–23,
    /// minute and second 0–59); `nil` otherwise.
    @inlinable @inline(__always)
    public static func secondsSince1970(_ c: Components) -> Int64? {
        guard c.year >= -1_000_000, c.year <= 1_000_000, c.month >= 1, c.month <= 12, c.day >= 1, c.day <= daysInMonth(c.month, year: c.year),
            c.hour >= 0, c.hour <= 23, c.minute >= 0, c.minute <= 59, c.second >= 0, c.second <= 59
        else { return nil }
        let days = daysSince1970(year: c.year, month: c.month, day: c.day)
        return days * 86_400 + Int64(c.hour * 3600 + c.minute * 60 + c.second)
    }

    /// Days since 1970-01-01 (H. Hinnant's `days_from_civil`).
    @inlinable @inline(__always)
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(year) - (month <= 2 ? 1 : 0)
        if y >= 0 {
            // Years 1–9999 (all that receipts and certificates write): the same formula with the
            // 400-year eras folded in, divisions by constants only.
            let m = Int64(month)
            let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
            return y * 365 + y / 4 - y / 100 + y / 400 + dayOfYear - 719_468
        }
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil components of `seconds` since 1970 (H. Hinnant's `civil_from_days`), computed in
    /// Int64. Where `Int` has 32 bits (wasm32, arm64_32) a year beyond its range (seconds past
    /// about 6.7·10^16) is clamped to `Int.min`/`Int.max` rather than trapping.
    public static func components(secondsSince1970 seconds: Int64) -> Components {
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return Components(
            year: Int(clamping: year), month: Int(month), day: Int(day),
            hour: Int(rest / 3600), minute: Int(rest % 3600 / 60), second: Int(rest % 60))
    }

    /// `2024-02-23T17:27:16Z` (RFC 3339) for `seconds` since 1970; the separator and zone suffix
    /// can be changed (`2024-02-23 17:27:16 Etc/GMT`).
    public static func text(secondsSince1970 seconds: Int64, separator: String = "T", suffix: String = "Z") -> String {
        let c = components(secondsSince1970: seconds)
        func pad(_ v: Int, _ width: Int) -> String {
            let digits = String(v)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(c.year, 4) + "-" + pad(c.month, 2) + "-" + pad(c.day, 2) + separator
            + pad(c.hour, 2) + ":" + pad(c.minute, 2) + ":" + pad(c.second, 2) + suffix
    }
}
