/// Finding the first byte of a kind in a long text eight bytes at a time (SWAR, Sean Eron
/// Anderson, "Bit Twiddling Hacks": "Determine if a word has a zero byte", "… has a byte less
/// than n"). A token is kilobytes of base64url, so its dots and a string's end are found a word
/// per step instead of a byte.
package enum ByteScan {
    package static var ones: UInt64 { 0x0101_0101_0101_0101 }
    package static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// The first offset in `start ..< end` whose byte `matches`, or `end`. `flagged(word)` has the
    /// high bit set of each byte of the eight (the lowest first) that `matches`, and may set it
    /// for bytes after the first such one but never for one before: the lowest set bit gives the
    /// first match.
    @inlinable @inline(__always)
    package static func first(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, flagged: (UInt64) -> UInt64, matches: (UInt8) -> Bool
    ) -> Int {
        var offset = start
        while offset + 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt64.self))
            let found = flagged(word)
            if found != 0 { return offset + found.trailingZeroBitCount / 8 }
            offset += 8
        }
        while offset < end, !matches(bytes[offset]) { offset += 1 }
        return offset
    }

    /// The high bit of each zero byte of `word`, and possibly of bytes above one: a borrow runs
    /// only upward, from a byte that is itself zero.
    @inlinable @inline(__always)
    package static func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }

    /// The high bit of each byte of `word` equal to `byte` (and possibly of bytes above one).
    @inlinable @inline(__always)
    package static func bytes(_ word: UInt64, equalTo byte: UInt8) -> UInt64 { zeroBytes(word ^ (ones &* UInt64(byte))) }

    /// The high bit of each byte of `word` below `bound` (at most 0x80), and possibly of bytes
    /// above one.
    @inlinable @inline(__always)
    package static func bytes(_ word: UInt64, below bound: UInt8) -> UInt64 { (word &- ones &* UInt64(bound)) & ~word & highs }

    /// The offsets of `byte` in `bytes[range]`, in order, at most `limit` of them.
    @inlinable
    package static func offsets(of byte: UInt8, in bytes: [UInt8], _ range: Range<Int>, limit: Int) -> [Int] {
        bytes.withUnsafeBufferPointer { buffer in
            var found: [Int] = []
            var offset = range.lowerBound
            while found.count < limit {
                offset = first(in: buffer, from: offset, to: range.upperBound, flagged: { Self.bytes($0, equalTo: byte) }, matches: { $0 == byte })
                guard offset < range.upperBound else { return found }
                found.append(offset)
                offset += 1
            }
            return found
        }
    }
}
