import DER

/// The three forms `verifyReceipt` gave every date: `2024-02-23 17:27:16 Etc/GMT`, milliseconds
/// as a string, and Los Angeles civil time with daylight saving, `2024-02-23 09:27:16
/// America/Los_Angeles`. Computed without Foundation (`PacificTime` has the Los Angeles rules);
/// the `Date` forms are in AppleDateFormat+Date.swift.
public enum AppleDateFormat: Sendable {
    /// `2024-02-23 17:27:16 Etc/GMT` (whole seconds, rounded down).
    public static func gmt(millisecondsSince1970 milliseconds: Int64) -> String {
        civil(seconds: floorSeconds(milliseconds)) + " Etc/GMT"
    }

    /// Los Angeles civil time with daylight saving, `2024-02-23 09:27:16 America/Los_Angeles`.
    public static func pacific(millisecondsSince1970 milliseconds: Int64) -> String {
        let seconds = floorSeconds(milliseconds)
        return civil(seconds: seconds + PacificTime.offset(secondsSince1970: seconds)) + " America/Los_Angeles"
    }

    /// `yyyy-MM-dd HH:mm:ss` of a UTC instant.
    static func civil(seconds: Int64) -> String {
        CivilTime.text(secondsSince1970: seconds, separator: " ", suffix: "")
    }

    /// Whole seconds, rounded toward −∞, with no step that overflows.
    package static func floorSeconds(_ milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / 1000 : (milliseconds + 1) / 1000 - 1
    }
}
