#if canImport(Foundation)
    import Foundation

    extension UnixMilliseconds {
        /// The same instant as a `Date`.
        public var date: Date { Date(timeIntervalSince1970: Double(value) / 1000) }
    }
#endif
