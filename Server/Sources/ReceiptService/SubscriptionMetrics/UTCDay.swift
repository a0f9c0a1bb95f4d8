import DER

/// A UTC calendar day as days since 1970-01-01, read from and written as `YYYY-MM-DD` (ISO 8601
/// calendar date, proleptic Gregorian calendar; DER's `CivilTime` does the arithmetic), years 1970
/// to 9999.
public enum UTCDay {
    /// Milliseconds in a day.
    public static let milliseconds: Int64 = 86_400_000

    /// The day `text` names, or nil unless it is exactly `YYYY-MM-DD` of a day that exists
    /// (`2026-02-30`, `2026-2-3`, `2026-02-03T00:00Z` and years before 1970 are not).
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes[0 ..< 4]), let month = number(bytes[5 ..< 7]), let day = number(bytes[8 ..< 10]),
            year >= 1970, (1 ... 12).contains(month), (1 ... Int64(CivilTime.daysInMonth(Int(month), year: Int(year)))).contains(day)
        else { return nil }
        return CivilTime.daysSince1970(year: Int(year), month: Int(month), day: Int(day))
    }

    /// `YYYY-MM-DD` of a day since 1970-01-01.
    public static func format(_ day: Int64) -> String {
        let c = CivilTime.components(secondsSince1970: max(0, day) * 86_400)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(c.year)-\(two(c.month))-\(two(c.day))"
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
}
