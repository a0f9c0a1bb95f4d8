import CryptoPrimitives
import ReceiptTestSupport
import Testing

/// `DivstepInverse` (Bernstein–Yang divsteps, variable time) against the binary extended
/// Euclidean algorithm it replaced on P-256's moduli, and against a·a⁻¹ ≡ 1 on other odd moduli.
@Suite struct DivstepInverseTests {
    typealias Support = ECArithmeticTestSupport

    @Test(arguments: [Support.Modulus.p256Field, .p256Order])
    func agreesWithTheBinaryMethod(_ modulus: Support.Modulus) {
        let m = Support.limbs(modulus)
        var generator = SplitMix64(seed: 0xD1_5757)
        var values: [[UInt64]] = [[1, 0, 0, 0], [2, 0, 0, 0], [m[0] - 1, m[1], m[2], m[3]], [m[0] - 2, m[1], m[2], m[3]]]
        for bit in 0 ..< 256 {
            var value = [UInt64](repeating: 0, count: 4)
            value[bit / 64] = 1 << UInt64(bit % 64)
            if MontgomeryTests.isAtLeast(value, m) { continue }
            values.append(value)
        }
        for _ in 0 ..< 400 {
            // Random values, some with long runs of zero or one bits (many divsteps at once).
            var value = ECDSAArithmeticTests.random(below: m, &generator)
            switch generator.next() % 4 {
            case 0: value = value.map { $0 & generator.next() & generator.next() }
            case 1: value = [value[0], 0, 0, 0]
            default: break
            }
            if value == [0, 0, 0, 0] || MontgomeryTests.isAtLeast(value, m) { continue }
            values.append(value)
        }
        for a in values {
            #expect(Support.divstepInverse(a, modulus: m) == Support.binaryInverse(a, modulus), "\(a)")
            #expect(Support.divstepRangesHold(a, modulus: m), "\(a)")
            // The signer's constant-time form (590 divsteps, masks) gives the same inverse.
            #expect(Support.constantTimeDivstepInverse(a, modulus: m) == Support.binaryInverse(a, modulus), "\(a)")
        }
    }

    @Test func invertsModuloOtherOddNumbers() {
        var one = [UInt64](repeating: 0, count: 4)
        one[0] = 1
        let moduli: [[UInt64]] = [
            [0xFFFF_FFFE_FFFF_FC2F, .max, .max, .max],   // secp256k1's p
            [0xFFFF_FFFF_FFFF_FF43, .max, .max, .max],   // 2^256 − 189, prime
            [0xFFFF_FFFF_FFFF_FFFF, .max, .max, .max],   // 2^256 − 1, composite
            [65_537, 0, 0, 0],
            [3, 0, 0, 0],
        ]
        var generator = SplitMix64(seed: 0xD1_5758)
        for m in moduli {
            for _ in 0 ..< 100 {
                let a =
                    m[1 ... 3] == [0, 0, 0]
                    ? [generator.next() % m[0], 0, 0, 0] : ECDSAArithmeticTests.random(below: m, &generator)
                guard a != [0, 0, 0, 0] else { continue }
                guard let inverse = Support.divstepInverse(a, modulus: m) else {
                    // Only when a shares a factor with m: then no x has a·x ≡ 1.
                    #expect(m == moduli[2], "no inverse of \(a) modulo \(m)")
                    continue
                }
                #expect(!MontgomeryTests.isAtLeast(inverse, m))
                #expect(MontgomeryTests.mulMod(a, inverse, m) == one, "\(a) modulo \(m)")
            }
        }
    }

    @Test func refusesAValueSharingAFactorWithTheModulus() {
        // 2^256 − 1 = 3 · 5 · 17 · 257 · 641 · 65537 · …
        let m: [UInt64] = [.max, .max, .max, .max]
        for factor: UInt64 in [3, 5, 17, 257, 641, 65_537, 3 * 65_537] {
            #expect(Support.divstepInverse([factor, 0, 0, 0], modulus: m) == nil, "\(factor)")
        }
        #expect(Support.divstepInverse([7, 0, 0, 0], modulus: m) != nil)
    }
}
