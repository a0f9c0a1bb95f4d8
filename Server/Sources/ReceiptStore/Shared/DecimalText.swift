/// Text that must be a non-negative decimal number: ASCII digits only, no sign, space or
/// separator (`Int64(_:)` alone would take `+1`).
package enum DecimalText {
    /// Whether `text` is ASCII decimal digits and its length is in `lengths`.
    package static func isDigits(_ text: String, lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(text.utf8.count) && text.utf8.allSatisfy { (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains($0) }
    }

    /// The value of `text` when it is 1 to `maxDigits` ASCII decimal digits and fits in `Int64`.
    package static func integer(_ text: String, maxDigits: Int) -> Int64? {
        isDigits(text, lengths: 1 ... maxDigits) ? Int64(text) : nil
    }
}
