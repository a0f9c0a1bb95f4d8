#if canImport(Foundation)
    import Foundation

    extension Date {
        /// The date `milliseconds` after 1970-01-01T00:00:00Z.
        public init(millisecondsSince1970 milliseconds: Int64) {
            self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
        }

        /// Whole milliseconds since 1970 (exact for every date a receipt can hold).
        public var millisecondsSince1970: Int64 {
            Int64((timeIntervalSince1970 * 1000).rounded())
        }
    }
#endif
