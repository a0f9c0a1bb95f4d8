@testable import JSONText
import Testing

/// The word-at-a-time scan of a string's plain bytes finds the same end as a byte-by-byte scan.
@Suite struct JSONPlainRunTests {
    /// The first byte at or after `start` that is not plain, one byte at a time.
    static func naiveEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var offset = start
        while offset < bytes.count, JSONPlainRun.isPlain(bytes[offset]) { offset += 1 }
        return offset
    }

    @Test func plainBytesAreExactlyPrintableASCIIButQuoteAndBackslash() {
        let plain = (UInt8.min ... UInt8.max).filter(JSONPlainRun.isPlain)
        #expect(plain.count == 0x80 - 0x20 - 2)
        #expect(!plain.contains(UInt8(ascii: "\"")) && !plain.contains(UInt8(ascii: "\\")))
        #expect(plain.first == 0x20 && plain.last == 0x7F)
    }

    /// 27 plain bytes of varied values.
    static let plainText: [UInt8] = (0 ..< 27).map { (index: Int) -> UInt8 in
        let byte = UInt8(0x20 + (index * 7) % 0x5E)
        return byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") ? UInt8(ascii: "A") : byte
    }

    @Test func everyByteValueEndsTheRunWhereItShould() {
        // Each byte value at each offset of a 24-byte run (every lane of three words and the
        // tail), after plain bytes of every kind, and after an earlier byte that ends the run.
        for byte in UInt8.min ... UInt8.max {
            for position in 0 ..< 24 {
                var bytes = Self.plainText
                bytes[position] = byte
                for start in [0, 1, 5] where start <= position {
                    #expect(JSONPlainRun.end(in: bytes, from: start) == Self.naiveEnd(bytes, from: start), "\(byte) at \(position) from \(start)")
                }
                bytes[0] = 0x1F   // an end before it
                #expect(JSONPlainRun.end(in: bytes, from: 0) == 0)
            }
        }
    }

    @Test func randomBytesEndWhereTheNaiveScanEnds() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 2_000 {
            let count = Int.random(in: 0 ... 40, using: &generator)
            // Mostly plain, with a few bytes of every other kind.
            var bytes: [UInt8] = []
            for _ in 0 ..< count {
                let anyByte = Int.random(in: 0 ..< 20, using: &generator) == 0
                bytes.append(anyByte ? UInt8.random(in: 0 ... 255, using: &generator) : UInt8.random(in: 0x20 ... 0x7F, using: &generator))
            }
            let start = Int.random(in: 0 ... count, using: &generator)
            #expect(JSONPlainRun.end(in: bytes, from: start) == Self.naiveEnd(bytes, from: start), "\(bytes) from \(start)")
        }
    }
}
