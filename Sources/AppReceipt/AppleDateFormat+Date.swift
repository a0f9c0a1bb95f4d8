#if canImport(Foundation)
    import Foundation

    extension AppleDateFormat {
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
            let seconds = AppReceipt.floorSeconds(date)
            return civil(seconds: seconds + PacificTime.offset(secondsSince1970: seconds)) + " America/Los_Angeles"
        }
    }
#endif
