#if canImport(Foundation)
    import Foundation

    extension Date {
        /// A date in the RFC 3339 forms receipts use (`2024-02-23T17:27:16Z`, `…+0100`, `…+01:00`,
        /// fractional seconds, lower-case `t`/`z`), to the millisecond; `nil` for anything else.
        public init?(rfc3339 text: String) {
            var text = text
            guard let milliseconds = text.withUTF8({ RFC3339.milliseconds(UnsafeRawBufferPointer($0)) }) else { return nil }
            self.init(millisecondsSince1970: milliseconds)
        }
    }
#endif
