import Foundation
import Testing

@testable import AppReceipt

/// The Los Angeles rules written from U.S. law (`PacificTime`) against the system's time-zone
/// database (Foundation's `TimeZone`, tzdata): an independent truth, over 1970–2040.
@Suite struct PacificTimeRuleTests {
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

    /// Every transition the database knows, one second either side and on it.
    @Test func everyTransitionFrom1970To2040() {
        var date = Date(timeIntervalSince1970: 0)
        let end = Date(timeIntervalSince1970: 2_209_075_200)   // 2040-01-01
        var transitions = 0
        while let next = Self.losAngeles.nextDaylightSavingTimeTransition(after: date), next < end {
            let seconds = Int64(next.timeIntervalSince1970)
            for instant in [seconds - 3601, seconds - 1, seconds, seconds + 1, seconds + 3599] {
                #expect(
                    PacificTime.offset(secondsSince1970: instant)
                        == Int64(Self.losAngeles.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))),
                    "\(instant)")
            }
            transitions += 1
            date = next
        }
        // Two a year from 1970 to 2039, 1974 and 1975 included.
        #expect(transitions == 140)
    }

    /// An instant every 7 hours 13 minutes (so every hour of the day and every weekday come up).
    @Test func manyInstantsFrom1970To2040() {
        var seconds: Int64 = 0
        var checked = 0
        while seconds < 2_209_075_200 {
            let expected = Int64(Self.losAngeles.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
            if PacificTime.offset(secondsSince1970: seconds) != expected {
                Issue.record("offset at \(seconds): \(PacificTime.offset(secondsSince1970: seconds)), tzdata \(expected)")
                return
            }
            seconds += 7 * 3600 + 13 * 60
            checked += 1
        }
        #expect(checked > 85_000)
    }

    /// The text forms, the Foundation-free ones against `DateFormatter` in Los Angeles.
    @Test func pacificTextMatchesDateFormatter() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = Self.losAngeles
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        for milliseconds: Int64 in [
            0, 1_173_607_199_999, 1_173_607_200_000, 1_194_163_199_999, 1_194_163_200_000, 1_708_709_236_789, 2_000_000_000_000,
        ] {
            let date = Date(millisecondsSince1970: milliseconds)
            #expect(AppleDateFormat.pacific(millisecondsSince1970: milliseconds) == formatter.string(from: date) + " America/Los_Angeles")
            #expect(AppleDateFormat.pacific(millisecondsSince1970: milliseconds) == AppleDateFormat.pacific(date))
            #expect(AppleDateFormat.gmt(millisecondsSince1970: milliseconds) == AppleDateFormat.gmt(date))
        }
        #expect(AppleDateFormat.gmt(millisecondsSince1970: -1) == "1969-12-31 23:59:59 Etc/GMT")
    }
}
