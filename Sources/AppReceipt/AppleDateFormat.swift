import DER
import Foundation

/// The three forms `verifyReceipt` gave every date: `2024-02-23 17:27:16 Etc/GMT`, milliseconds
/// as a string, and Los Angeles civil time with daylight saving, `2024-02-23 09:27:16
/// America/Los_Angeles`.
public enum AppleDateFormat: Sendable {
    /// The Los Angeles time zone from the system's database.
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

    /// `2024-02-23 17:27:16 Etc/GMT` (whole seconds, rounded down).
    public static func gmt(_ date: Date) -> String {
        civil(seconds: AppReceipt.floorSeconds(date)) + " Etc/GMT"
    }

    /// Milliseconds since 1970 as decimal text, `1708709236000`.
    public static func milliseconds(_ date: Date) -> String {
        String(date.millisecondsSince1970)
    }

    /// Los Angeles civil time with daylight saving, `2024-02-23 09:27:16 America/Los_Angeles`.
    public static func pacific(_ date: Date) -> String {
        let offset = losAngeles.secondsFromGMT(for: date)
        return civil(seconds: AppReceipt.floorSeconds(date) + Int64(offset)) + " America/Los_Angeles"
    }

    /// `yyyy-MM-dd HH:mm:ss` of a UTC instant.
    static func civil(seconds: Int64) -> String {
        CivilTime.text(secondsSince1970: seconds, separator: " ", suffix: "")
    }
}
