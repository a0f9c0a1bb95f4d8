import CryptoPrimitives
import ReceiptTestSupport
import Testing

/// `WNAF.recode` (it jumps over runs of zero digits) against Alg. 3.35 stepped bit by bit, and
/// against the form's own rules: Σ d[i]·2^i is the scalar, every digit zero or odd below 2^w in
/// magnitude, at most one non-zero digit in any w + 1 consecutive ones.
@Suite struct WNAFTests {
    /// Hankerson, Menezes, Vanstone, Alg. 3.35, one bit at a time (the recoder before it jumped).
    static func reference(_ limbs: [UInt64], bitCount: Int, width: Int) -> (digits: [Int], top: Int) {
        func bit(_ index: Int) -> Int { index < bitCount ? Int(limbs[index >> 6] >> UInt64(index & 63) & 1) : 0 }
        let bound = 1 << width, mask = (bound << 1) - 1
        var window = Int(truncatingIfNeeded: limbs[0]) & mask
        var digits = [Int](repeating: 0, count: bitCount + 1), top = -1
        for index in 0 ... bitCount {
            if window & 1 == 1 {
                let digit = window & bound != 0 ? window - (bound << 1) : window
                window -= digit
                digits[index] = digit
                top = index
            }
            window = window >> 1 + bit(index + width + 1) << width
        }
        return (digits, top)
    }

    /// Σ d[i]·2^i as little-endian limbs (one more than the scalar's), by Horner's rule from the
    /// top digit on signed limbs; nil when it goes negative or out of range.
    static func value(of digits: [Int], limbCount: Int) -> [UInt64]? {
        var limbs = [Int128](repeating: 0, count: limbCount + 1)
        for digit in digits.reversed() {
            var carry = Int128(digit)
            for index in limbs.indices {
                let doubled = limbs[index] * 2 + carry
                limbs[index] = doubled & 0xFFFF_FFFF_FFFF_FFFF
                carry = doubled >> 64
            }
            guard carry == 0 else { return nil }
        }
        return limbs.map { UInt64($0) }
    }

    static func scalars(bitCount: Int, seed: UInt64) -> [[UInt64]] {
        let limbCount = bitCount / 64
        var generator = SplitMix64(seed: seed)
        var scalars: [[UInt64]] = [
            Array(repeating: 0, count: limbCount),
            [1] + Array(repeating: 0, count: limbCount - 1),
            Array(repeating: .max, count: limbCount),
            Array(repeating: 0xAAAA_AAAA_AAAA_AAAA, count: limbCount),
            Array(repeating: 0x5555_5555_5555_5555, count: limbCount),
            Array(repeating: 0x8000_0000_0000_0001, count: limbCount),
            Array(repeating: 0xFFFF_FFFF_0000_0000, count: limbCount),
            Array(repeating: 0x0000_0000_FFFF_FFFF, count: limbCount),
        ]
        // Runs of ones and of zeros ending at and across every limb boundary.
        for boundary in 1 ..< limbCount {
            for offset in -9 ... 9 {
                var ones = [UInt64](repeating: 0, count: limbCount), zeros = [UInt64](repeating: .max, count: limbCount)
                for bit in 0 ..< 64 * boundary + offset {
                    ones[bit >> 6] |= 1 << UInt64(bit & 63)
                    zeros[bit >> 6] &= ~(1 << UInt64(bit & 63))
                }
                scalars += [ones, zeros]
            }
        }
        for _ in 0 ..< 300 {
            var limbs = (0 ..< limbCount).map { _ in generator.next() }
            // Sparse and dense scalars too: runs longer than a window.
            switch generator.next() % 3 {
            case 0: limbs = limbs.map { $0 & generator.next() & generator.next() }
            case 1: limbs = limbs.map { $0 | generator.next() | generator.next() }
            default: break
            }
            scalars.append(limbs)
        }
        return scalars
    }

    @Test(arguments: [256, 384])
    func digitsAreAlgorithm335s(bitCount: Int) {
        for scalar in Self.scalars(bitCount: bitCount, seed: 0x3A_F0_0000 + UInt64(bitCount)) {
            for width in 2 ... 7 {
                let recoded = ECArithmeticTestSupport.wnafDigits(scalar, bitCount: bitCount, width: width)
                let expected = Self.reference(scalar, bitCount: bitCount, width: width)
                #expect(recoded.digits == expected.digits, "width \(width), scalar \(scalar)")
                #expect(recoded.top == expected.top, "width \(width), scalar \(scalar)")
            }
        }
    }

    @Test(arguments: [256, 384])
    func digitsFollowTheFormsRules(bitCount: Int) {
        for scalar in Self.scalars(bitCount: bitCount, seed: 0x3A_F1_0000 + UInt64(bitCount)) {
            for width in 2 ... 7 {
                let (digits, top) = ECArithmeticTestSupport.wnafDigits(scalar, bitCount: bitCount, width: width)
                #expect(digits.count == bitCount + 1)
                #expect(Self.value(of: digits, limbCount: bitCount / 64) == scalar + [0], "width \(width), scalar \(scalar)")
                let nonZero = digits.indices.filter { digits[$0] != 0 }
                #expect(top == (nonZero.last ?? -1))
                for index in nonZero {
                    #expect(digits[index] & 1 == 1 && abs(digits[index]) < 1 << width)
                }
                for (earlier, later) in zip(nonZero, nonZero.dropFirst()) {
                    #expect(later - earlier > width, "digits at \(earlier) and \(later), width \(width)")
                }
            }
        }
    }

    @Test func aCarryOutOfTheTopBitBecomesTheExtraDigit() {
        // 2^256 − 1 in width 2: …, then −1 at 0 and a carry that ends as digit 256 = 1.
        let (digits, top) = ECArithmeticTestSupport.wnafDigits([.max, .max, .max, .max], bitCount: 256, width: 2)
        #expect(top == 256)
        #expect(digits[256] == 1)
        #expect(digits[0] == -1)
        #expect(digits[1 ..< 256].allSatisfy { $0 == 0 })
    }

    @Test func bitsAtTheWidthAndAboveAreIgnored() {
        var generator = SplitMix64(seed: 0x3A_F2_0000)
        for bitCount in [255, 256, 130, 64] {
            for _ in 0 ..< 50 {
                // The scalar's value below 2^bitCount, and ones (or random bits) above it.
                var limbs = (0 ..< 6).map { _ in generator.next() }
                var clean = limbs
                for bit in bitCount ..< 384 { clean[bit >> 6] &= ~(1 << UInt64(bit & 63)) }
                if generator.next() & 1 == 0 {
                    for bit in bitCount ..< 384 { limbs[bit >> 6] |= 1 << UInt64(bit & 63) }
                }
                for width in 2 ... 7 {
                    let recoded = ECArithmeticTestSupport.wnafDigits(limbs, bitCount: bitCount, width: width)
                    let expected = Self.reference(clean, bitCount: bitCount, width: width)
                    #expect(recoded.digits == expected.digits && recoded.top == expected.top, "bitCount \(bitCount), width \(width)")
                }
            }
        }
    }
}
