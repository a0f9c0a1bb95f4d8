import DER

/// America/Los_Angeles without a time-zone database: Pacific Standard Time (UTC−8) and, by the
/// United States' daylight-saving rules, Pacific Daylight Time (UTC−7), for the `_pst` forms of
/// `verifyReceipt`'s dates. Clocks change at 02:00 local time (15 U.S.C. §260a).
///
/// - Since 2007 (Energy Policy Act of 2005, §110): second Sunday of March to first Sunday of November.
/// - 1987–2006 (Public Law 99-359): first Sunday of April to last Sunday of October.
/// - 1967–1986 (Uniform Time Act of 1966): last Sunday of April to last Sunday of October, except
///   the energy-crisis years: 1974 from January 6 and 1975 from February 23 (Public Law 93-182).
/// - Before 1967: standard time all year (California's own wartime and local rules are not kept).
package enum PacificTime {
    /// Seconds east of UTC (−28 800 or −25 200) at the instant `seconds` after 1970 (UTC).
    package static func offset(secondsSince1970 seconds: Int64) -> Int64 {
        let standard: Int64 = -8 * 3600
        let year = CivilTime.components(secondsSince1970: seconds + standard).year
        guard let (start, end) = daylightSavingDays(year: year) else { return standard }
        // 02:00 PST is 10:00 UTC on the first day; 02:00 PDT is 09:00 UTC on the last.
        let begins = start * 86_400 + 10 * 3600
        let ends = end * 86_400 + 9 * 3600
        return seconds >= begins && seconds < ends ? standard + 3600 : standard
    }

    /// The days (since 1970-01-01) daylight saving time starts and ends in `year`, nil when it
    /// has none.
    static func daylightSavingDays(year: Int) -> (start: Int64, end: Int64)? {
        switch year {
        case ..<1967: return nil
        case 1974: return (CivilTime.daysSince1970(year: 1974, month: 1, day: 6), sunday(.last, 10, year))
        case 1975: return (CivilTime.daysSince1970(year: 1975, month: 2, day: 23), sunday(.last, 10, year))
        case ..<1987: return (sunday(.last, 4, year), sunday(.last, 10, year))
        case ..<2007: return (sunday(.first, 4, year), sunday(.last, 10, year))
        default: return (sunday(.second, 3, year), sunday(.first, 11, year))
        }
    }

    /// Which Sunday of a month.
    enum Which { case first, second, last }

    /// The day (since 1970-01-01) of the `which` Sunday of `month` in `year`.
    static func sunday(_ which: Which, _ month: Int, _ year: Int) -> Int64 {
        switch which {
        case .first: return onOrAfter(CivilTime.daysSince1970(year: year, month: month, day: 1))
        case .second: return onOrAfter(CivilTime.daysSince1970(year: year, month: month, day: 1)) + 7
        case .last:
            let lastDay = CivilTime.daysSince1970(year: year, month: month, day: CivilTime.daysInMonth(month, year: year))
            return onOrAfter(lastDay - 6)
        }
    }

    /// The first Sunday on or after `day`. 1970-01-01 was a Thursday: day 3 was a Sunday.
    static func onOrAfter(_ day: Int64) -> Int64 {
        let weekday = ((day - 3) % 7 + 7) % 7   // 0 on Sundays
        return weekday == 0 ? day : day + (7 - weekday)
    }
}
