import CryptoPrimitives
import ReceiptTestSupport
import Testing

/// The word helpers that replaced `UInt128` and `Int128` in the limb code (WordArithmetic.swift),
/// against those types themselves (which Linux has), at the edges and over random words.
@Suite struct WordArithmeticTests {
    /// Words at the edges (0, 1, 2^63 ± 1, 2^64 − 1 and neighbours) and random ones.
    static func words(seed: UInt64, count: Int = 2_000) -> [UInt64] {
        var generator = SplitMix64(seed: seed)
        let edges: [UInt64] = [0, 1, 2, 0x7fff_ffff_ffff_ffff, 0x8000_0000_0000_0000, 0x8000_0000_0000_0001, .max - 1, .max]
        return edges + (0 ..< count).map { _ in generator.next() }
    }

    @Test func carryBitIsZeroOrOne() {
        #expect(carryBit(false) == 0)
        #expect(carryBit(true) == 1)
    }

    @Test func addingWithCarryMatchesUInt128() {
        let a = Self.words(seed: 1), b = Self.words(seed: 2)
        for (x, y) in zip(a, b) {
            for carryIn: UInt64 in [0, 1] {
                var carry = carryIn
                let sum = x.addingWithCarry(y, &carry)
                let expected = UInt128(x) + UInt128(y) + UInt128(carryIn)
                #expect(sum == UInt64(truncatingIfNeeded: expected) && carry == UInt64(expected >> 64), "\(x) + \(y) + \(carryIn)")
            }
        }
    }

    /// A four-word chain, as the field's addition spells it, against one 256-bit sum split in two.
    @Test func carryChainMatchesUInt128() {
        let words = Self.words(seed: 3, count: 4_000)
        for i in stride(from: 0, to: words.count - 8, by: 8) {
            var carry: UInt64 = 0
            let low = (words[i].addingWithCarry(words[i + 4], &carry), words[i + 1].addingWithCarry(words[i + 5], &carry))
            let lowExpected = (UInt128(words[i + 1]) << 64 | UInt128(words[i])) &+ (UInt128(words[i + 5]) << 64 | UInt128(words[i + 4]))
            let lowCarry: UInt64 = lowExpected < (UInt128(words[i + 1]) << 64 | UInt128(words[i])) ? 1 : 0
            #expect(low.0 == UInt64(truncatingIfNeeded: lowExpected) && low.1 == UInt64(lowExpected >> 64) && carry == lowCarry)
        }
    }

    @Test func multipliedAddingMatchesUInt128() {
        let a = Self.words(seed: 4), b = Self.words(seed: 5), c = Self.words(seed: 6), d = Self.words(seed: 7)
        for i in a.indices {
            var carry = d[i]
            let low = a[i].multipliedAdding(b[i], c[i], &carry)
            let expected = UInt128(a[i]) * UInt128(b[i]) + UInt128(c[i]) + UInt128(d[i])
            #expect(low == UInt64(truncatingIfNeeded: expected) && carry == UInt64(expected >> 64), "\(a[i])·\(b[i]) + \(c[i]) + \(d[i])")
        }
        // The largest sum: (2^64 − 1)² + 2·(2^64 − 1) = 2^128 − 1.
        var carry = UInt64.max
        #expect(UInt64.max.multipliedAdding(.max, .max, &carry) == .max && carry == .max)
    }

    /// The wasm32 product (four products of 32-bit halves) and the product every target uses,
    /// against `UInt128`.
    @Test func productByHalvesMatchesUInt128() {
        let a = Self.words(seed: 10), b = Self.words(seed: 11)
        for (x, y) in Array(zip(a, b)) + Array(zip(a, a)) {
            let expected = UInt128(x) * UInt128(y)
            for product in [x.productByHalves(y), x.fullWidthProduct(y)] {
                #expect(product.low == UInt64(truncatingIfNeeded: expected) && product.high == UInt64(expected >> 64), "\(x)·\(y)")
            }
        }
        let halves: [UInt64] = [0xFFFF_FFFF, 0x1_0000_0000, 0xFFFF_FFFF_0000_0000, 0x0000_0001_FFFF_FFFF]
        for x in halves + [.max] {
            for y in halves + [.max] {
                let expected = UInt128(x) * UInt128(y)
                #expect(x.productByHalves(y) == (UInt64(expected >> 64), UInt64(truncatingIfNeeded: expected)), "\(x)·\(y)")
            }
        }
    }

    static func int128(_ value: SignedDoubleWord) -> Int128 { Int128(value.high) << 64 | Int128(value.low) }

    @Test func signedDoubleWordMatchesInt128() {
        let a = Self.words(seed: 8).map { Int64(bitPattern: $0) }, b = Self.words(seed: 9).map { Int64(bitPattern: $0) }
        let c = Self.words(seed: 10).map { Int64(bitPattern: $0) }, d = Self.words(seed: 11).map { Int64(bitPattern: $0) }
        for i in a.indices {
            let product = SignedDoubleWord.product(a[i], b[i])
            #expect(Self.int128(product) == Int128(a[i]) * Int128(b[i]))
            let sum = product &+ SignedDoubleWord.product(c[i], d[i])
            let expected = (Int128(a[i]) * Int128(b[i])) &+ (Int128(c[i]) * Int128(d[i]))
            #expect(Self.int128(sum) == expected)
            for shift in [1, 2, 31, 62, 63] {
                #expect(Self.int128(sum >> shift) == expected >> shift, "\(expected) >> \(shift)")
            }
            var shifted = sum
            shifted >>= 62
            #expect(Self.int128(shifted) == expected >> 62)
        }
    }
}
