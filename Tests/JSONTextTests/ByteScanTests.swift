@testable import JSONText
import Testing

/// The word-at-a-time byte search finds what a byte-by-byte search finds.
@Suite struct ByteScanTests {
    @Test func dotsAreFoundInEveryLaneAndTheLimitHolds() {
        for count in 0 ..< 40 {
            for first in 0 ..< count {
                for second in first ..< count {
                    var bytes = [UInt8](repeating: UInt8(ascii: "A"), count: count)
                    bytes[first] = UInt8(ascii: ".")
                    bytes[second] = UInt8(ascii: ".")
                    let expected = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
                    #expect(ByteScan.offsets(of: UInt8(ascii: "."), in: bytes, 0 ..< count, limit: 3) == expected)
                    #expect(ByteScan.offsets(of: UInt8(ascii: "."), in: bytes, 0 ..< count, limit: 1) == [first])
                    // Within a range that leaves the first out.
                    #expect(ByteScan.offsets(of: UInt8(ascii: "."), in: bytes, (first + 1) ..< count, limit: 3) == expected.filter { $0 > first })
                }
            }
        }
    }

    @Test func bytesNextToTheOneSoughtAreNotTakenForIt() {
        // Every byte value beside a sought one: a borrow must never flag a byte below the match.
        for other in UInt8.min ... UInt8.max where other != UInt8(ascii: ".") {
            for position in 0 ..< 16 {
                var bytes = [UInt8](repeating: other, count: 16)
                bytes[position] = UInt8(ascii: ".")
                #expect(ByteScan.offsets(of: UInt8(ascii: "."), in: bytes, 0 ..< 16, limit: 3) == [position], "\(other) at \(position)")
            }
            #expect(ByteScan.offsets(of: UInt8(ascii: "."), in: [UInt8](repeating: other, count: 17), 0 ..< 17, limit: 3) == [])
        }
    }
}
