// Bounded work on hostile input (DESIGN §3, §9): nesting depth limited by ASN1Limits.maxDepth,
// no recursion the input can drive past it, huge lengths refused before anything is read.

import Testing
@testable import DER
import TestHelpers

@Suite("Limits: depth bombs and the nesting limit")
struct LimitsTests {
    static let bombLevels = 100_000

    /// `levels` nested SEQUENCEs with correct definite lengths, innermost `innermost`; built back to
    /// front so each length is known when its header is written. Returns the bytes and the offset of
    /// each level's header, outermost first, followed by the offset of `innermost`.
    static func nestedDefinite(levels: Int, innermost: [UInt8]) -> (bytes: [UInt8], offsets: [Int]) {
        var reversed = Array(innermost.reversed())
        var headerSizes: [Int] = []
        headerSizes.reserveCapacity(levels)
        for _ in 0 ..< levels {
            let header = [0x30] + lengthOctets(reversed.count)
            reversed.append(contentsOf: header.reversed())
            headerSizes.append(header.count)
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(levels)
        var offset = 0
        for size in headerSizes.reversed() {
            offsets.append(offset)
            offset += size
        }
        offsets.append(offset)
        return (Array(reversed.reversed()), offsets)
    }

    /// `levels` indefinite SEQUENCE headers around `innermost`, closed by `closed` EOCs.
    static func nestedIndefinite(levels: Int, innermost: [UInt8], closed: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(levels * 2 + innermost.count + closed * 2)
        for _ in 0 ..< levels { bytes += [0x30, 0x80] }
        bytes += innermost
        for _ in 0 ..< closed { bytes += [0x00, 0x00] }
        return bytes
    }

    @Test("Depth bomb: 100,000 nested definite-length SEQUENCEs are tooDeep, quickly")
    func definiteBomb() throws {
        let (bytes, offsets) = Self.nestedDefinite(levels: Self.bombLevels, innermost: [0x05, 0x00])
        // Sanity of the construction: the outer length covers everything after its header.
        #expect(bytes.count > 4 * Self.bombLevels - 1000)
        let outerHeader = offsets[1]
        let declared = try withElement(bytes, .ber) { e in e.contentLength }
        #expect(declared == bytes.count - outerHeader)
        let clock = ContinuousClock()
        for rules in [EncodingRules.der, .ber] {
            let elapsed = clock.measure {
                // The element at depth maxDepth + 1 is the first one past the limit.
                #expect(caught { try walkCount(bytes, rules) } == ASN1Error(.tooDeep, at: offsets[ASN1Limits.maxDepth + 1]))
                #expect(caught { try decodeSingle(bytes, rules) } == ASN1Error(.tooDeep, at: offsets[ASN1Limits.maxDepth + 1]))
            }
            #expect(elapsed < .seconds(2))
        }
    }

    @Test("Depth bomb: 100,000 indefinite-length headers are tooDeep, quickly")
    func indefiniteBomb() {
        let open = Self.nestedIndefinite(levels: Self.bombLevels, innermost: [], closed: 0)
        let closed = Self.nestedIndefinite(levels: Self.bombLevels, innermost: [0x05, 0x00], closed: Self.bombLevels)
        // The element at depth maxDepth + 1 (offset 2·(maxDepth + 1)) is one level too many.
        let expected = ASN1Error(.tooDeep, at: 2 * (ASN1Limits.maxDepth + 1))
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for bytes in [open, closed] {
                #expect(caught { try walkCount(bytes, .ber) } == expected)
                #expect(caught { try withElement(bytes, .ber) { _ in } } == expected)
                #expect(
                    caught {
                        try ASN1Reader.parse(bytes, rules: .ber) { (r: inout ASN1Reader) throws(ASN1Error) in _ = try r.readElement() }
                    } == expected)
                // DER refuses the first header.
                #expect(caught { try walkCount(bytes, .der) } == ASN1Error(.indefiniteLength, at: 0))
            }
        }
        #expect(elapsed < .seconds(2))
    }

    @Test("Nesting exactly at ASN1Limits.maxDepth is accepted, one more level is tooDeep (definite)")
    func definiteBoundary() throws {
        // maxDepth SEQUENCEs (depths 0 … maxDepth-1) around a NULL at depth maxDepth: accepted.
        let atLimit = Self.nestedDefinite(levels: ASN1Limits.maxDepth, innermost: [0x05, 0x00])
        for rules in [EncodingRules.der, .ber] {
            let records = try walkRecords(atLimit.bytes, rules)
            #expect(records.count == ASN1Limits.maxDepth + 1)
            #expect(
                records.last
                    == .element(
                        offset: 2 * ASN1Limits.maxDepth, depth: ASN1Limits.maxDepth,
                        tag: .null, headerLength: 2, length: 0))
            #expect(caught { try decodeSingle(atLimit.bytes, rules) } == nil)
        }
        // One more SEQUENCE: the NULL would be at depth maxDepth + 1.
        let past = Self.nestedDefinite(levels: ASN1Limits.maxDepth + 1, innermost: [0x05, 0x00])
        for rules in [EncodingRules.der, .ber] {
            #expect(caught { try walkCount(past.bytes, rules) } == ASN1Error(.tooDeep, at: past.offsets[ASN1Limits.maxDepth + 1]))
            #expect(caught { try decodeSingle(past.bytes, rules) } == ASN1Error(.tooDeep, at: past.offsets[ASN1Limits.maxDepth + 1]))
        }
    }

    @Test("Nesting exactly at ASN1Limits.maxDepth is accepted, one more level is tooDeep (indefinite)")
    func indefiniteBoundary() throws {
        let depth = ASN1Limits.maxDepth
        let atLimit = Self.nestedIndefinite(levels: depth, innermost: [0x05, 0x00], closed: depth)
        let records = try walkRecords(atLimit, .ber)
        #expect(records.filter(\.isElement).count == depth + 1)
        #expect(records.count == 2 * depth + 1)
        #expect(records[depth] == .element(offset: 2 * depth, depth: depth, tag: .null, headerLength: 2, length: 0))
        // The EOCs close depth, depth-1, …, 1 at offsets right after the NULL.
        for k in 0 ..< depth {
            #expect(records[depth + 1 + k] == .endOfContents(offset: 2 * depth + 2 + 2 * k, depth: depth - k))
        }
        #expect(caught { try withElement(atLimit, .ber) { _ in } } == nil)
        let past = Self.nestedIndefinite(levels: depth + 1, innermost: [0x05, 0x00], closed: depth + 1)
        #expect(caught { try walkCount(past, .ber) } == ASN1Error(.tooDeep, at: 2 * (depth + 1)))
        #expect(caught { try withElement(past, .ber) { _ in } } == ASN1Error(.tooDeep, at: 2 * (depth + 1)))
    }

    /// `ASN1Limits.maxDepth` bounds the depth of elements (the outermost has depth 0), so an empty
    /// constructed element at depth maxDepth is within the limit.
    @Test("An empty constructed element at depth maxDepth is within the documented limit")
    func emptyConstructedAtLimit() {
        let definite = Self.nestedDefinite(levels: ASN1Limits.maxDepth + 1, innermost: [])
        let indefinite = Self.nestedIndefinite(levels: ASN1Limits.maxDepth + 1, innermost: [], closed: ASN1Limits.maxDepth + 1)
        #expect(caught { try walkCount(definite.bytes, .der) } == nil)
        #expect(caught { try walkCount(indefinite, .ber) } == nil)
    }

    @Test("Mixed: definite SEQUENCEs inside indefinite ones count towards the same limit")
    func mixedNesting() {
        // Half indefinite, half definite, one past the limit in total.
        let half = (ASN1Limits.maxDepth + 1) / 2
        let inner = Self.nestedDefinite(levels: ASN1Limits.maxDepth + 1 - half, innermost: [0x05, 0x00])
        let bytes = Self.nestedIndefinite(levels: half, innermost: inner.bytes, closed: half)
        let offsetAtLimit = 2 * half + inner.offsets[ASN1Limits.maxDepth + 1 - half]
        #expect(caught { try walkCount(bytes, .ber) } == ASN1Error(.tooDeep, at: offsetAtLimit))
        #expect(caught { try decodeSingle(bytes, .ber) } == ASN1Error(.tooDeep, at: offsetAtLimit))
    }

    @Test("Many siblings are fine: 100,000 NULLs in one SEQUENCE walk in linear time")
    func wideInput() throws {
        let content: [UInt8] = (0 ..< 2 * Self.bombLevels).map { $0 % 2 == 0 ? 0x05 : 0x00 }
        let bytes = [0x30] + lengthOctets(content.count) + content
        let clock = ContinuousClock()
        var count = 0
        let elapsed = try clock.measure {
            count = try walkCount(bytes, .der)
        }
        #expect(count == Self.bombLevels + 1)
        #expect(elapsed < .seconds(2))
        // Same in an indefinite SEQUENCE (its end is found once, not once per child).
        let indefinite = [0x30, 0x80] + content + [0x00, 0x00]
        let elapsedBER = try clock.measure {
            count = try walkCount(indefinite, .ber)
        }
        #expect(count == Self.bombLevels + 2)
        #expect(elapsedBER < .seconds(2))
    }

    @Test("ASN1Limits.maxDepth is the documented 32")
    func documentedLimit() {
        #expect(ASN1Limits.maxDepth == 32)
    }
}
