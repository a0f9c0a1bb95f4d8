/// A UTC calendar day as days since 1970-01-01, read from and written as `YYYY-MM-DD` (ISO 8601
/// calendar date, proleptic Gregorian calendar), years 1970 to 9999.
public enum UTCDay {
    /// Milliseconds in a day.
    public static let milliseconds: Int64 = 86_400_000

    /// The day `text` names, or nil unless it is exactly `YYYY-MM-DD` of a day that exists
    /// (`2026-02-30`, `2026-2-3`, `2026-02-03T00:00Z` and years before 1970 are not).
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes[0 ..< 4]), let month = number(bytes[5 ..< 7]), let day = number(bytes[8 ..< 10]),
            year >= 1970, (1 ... 12).contains(month), (1 ... daysInMonth(year, month)).contains(day)
        else { return nil }
        return daysFromCivil(year, month, day)
    }

    /// `YYYY-MM-DD` of a day since 1970-01-01.
    public static func format(_ day: Int64) -> String {
        let (year, month, dayOfMonth) = civil(day)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(dayOfMonth))"
    }

    /// The day holding `milliseconds` since 1970 (not before 1970).
    public static func of(milliseconds: Int64) -> Int64 { max(0, milliseconds) / Self.milliseconds }

    static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for byte in digits {
            guard (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Gregorian leap years: every 4th, except centuries not divisible by 400.
    static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a civil date (H. Hinnant, "chrono-Compatible Low-Level Date
    /// Algorithms", `days_from_civil`), for years from 1970 on.
    static func daysFromCivil(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of days since 1970-01-01 (`civil_from_days`, same source), from 1970 on.
    static func civil(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = max(0, days) + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
