/// The run of string bytes that need no further look (RFC 8259 §7): printable ASCII other than
/// the quote and the backslash. A string's content is mostly such a run (a nested token is
/// kilobytes of base64url), so the reader skips it a word at a time (`ByteScan`) and looks byte
/// by byte only at what ends it.
package enum JSONPlainRun {
    /// The first offset at or after `start` whose byte is a quote, a backslash, a control
    /// character (below 0x20) or a byte of a multi-byte scalar (0x80 and above); `bytes.count`
    /// when there is none.
    @inlinable
    package static func end(in bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            ByteScan.first(in: buffer, from: start, to: buffer.count, flagged: endingBytes, matches: { !isPlain($0) })
        }
    }

    /// Whether one byte belongs to the run.
    @inlinable @inline(__always)
    package static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// The high bit of each byte of `word` that ends the run, and possibly of bytes after the
    /// first such one, never of a byte before it.
    @inline(__always)
    @inlinable
    package static func endingBytes(_ word: UInt64) -> UInt64 {
        ByteScan.bytes(word, below: 0x20) | ByteScan.bytes(word, equalTo: UInt8(ascii: "\""))
            | ByteScan.bytes(word, equalTo: UInt8(ascii: "\\")) | (word & ByteScan.highs)
    }
}
