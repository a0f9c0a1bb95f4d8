import CryptoPrimitives
import ReceiptTestSupport
import Testing

/// The curve arithmetic (`ECArithmeticTestSupport`, package access) against the plain bit-serial
/// reference of `MontgomeryTests` and against properties that use different code paths (the
/// generator's table against the public key's, mixed against Jacobian addition). Random inputs
/// from SplitMix64 with fixed seeds.
@Suite struct ECDSAArithmeticTests {
    typealias Support = ECArithmeticTestSupport
    typealias Point = (x: [UInt64], y: [UInt64])

    /// SEC 2 §2.4.2 and §2.5.1, as printed there (big-endian hex).
    static let published: [Support.Modulus: String] = [
        .p256Field: "FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF",
        .p256Order: "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551",
        .p384Field: "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFF0000000000000000FFFFFFFF",
        .p384Order: "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973",
    ]

    static func limbs(hex: String) -> [UInt64] {
        let digits = Array(hex.utf8)
        return stride(from: digits.count, to: 0, by: -16).map { end in
            UInt64(String(decoding: digits[max(0, end - 16) ..< end], as: UTF8.self), radix: 16)!
        }
    }

    /// A random value below `modulus`, biased towards the edge limbs (0, 1, 2^64 − 1, …).
    static func random(below modulus: [UInt64], _ generator: inout SplitMix64) -> [UInt64] {
        while true {
            let value = modulus.indices.map { _ -> UInt64 in
                switch generator.below(8) {
                case 0: 0
                case 1: .max
                case 2: 1
                default: generator.next()
                }
            }
            if !MontgomeryTests.isAtLeast(value, modulus) { return value }
        }
    }

    @Test(arguments: Support.Modulus.allCases)
    func constantsMatchTheirDefinitions(_ modulus: Support.Modulus) {
        let m = Support.limbs(modulus)
        #expect(m == Self.limbs(hex: Self.published[modulus]!))
        #expect(m[0] &* Support.negativeInverse(modulus) == .max)   // m·(−m⁻¹) ≡ −1 mod 2^64
        let rSquared = [UInt64](repeating: 0, count: 2 * m.count) + [1]   // 2^(128k)
        #expect(Support.rSquared(modulus) == MontgomeryTests.mod(rSquared, m))
    }

    /// Inverses at the edges of the binary algorithm: 1, 2, m − 1, m − 2, and powers of two whose
    /// runs of trailing zeros cross limb boundaries.
    @Test(arguments: Support.Modulus.allCases)
    func inversesAtTheEdges(_ modulus: Support.Modulus) {
        let m = Support.limbs(modulus)
        var one = [UInt64](repeating: 0, count: m.count)
        one[0] = 1
        var values: [[UInt64]] = []
        for subtrahend: UInt64 in [1, 2] {
            var value = m
            value[0] -= subtrahend
            values.append(value)
        }
        for bit in [0, 1, 62, 63, 64, 65, 127, 128, 191, 200, 64 * m.count - 33] {
            var value = [UInt64](repeating: 0, count: m.count)
            value[bit / 64] = 1 << UInt64(bit % 64)
            values.append(value)
        }
        values.append([UInt64](repeating: 0, count: m.count - 1) + [m[m.count - 1] - 1])   // high limb only
        for a in values {
            #expect(MontgomeryTests.mulMod(a, Support.inverse(a, modulus), m) == one, "\(a)")
        }
    }

    @Test(arguments: Support.Modulus.allCases)
    func fieldOperationsMatchTheReference(_ modulus: Support.Modulus) {
        let m = Support.limbs(modulus)
        var generator = SplitMix64(seed: 0xEC_0001)
        for _ in 0 ..< 60 {
            let a = Self.random(below: m, &generator), b = Self.random(below: m, &generator)
            // Montgomery product · R = a·b (mod m).
            let product = Support.montgomeryProduct(a, b, modulus)
            #expect(!MontgomeryTests.isAtLeast(product, m))
            #expect(MontgomeryTests.mod([UInt64](repeating: 0, count: m.count) + product, m) == MontgomeryTests.mulMod(a, b, m))
            let square = Support.montgomerySquare(a, modulus)
            #expect(MontgomeryTests.mod([UInt64](repeating: 0, count: m.count) + square, m) == MontgomeryTests.mulMod(a, a, m))
            var sum = a
            MontgomeryTests.addMod(&sum, b, m)
            #expect(Support.sum(a, b, modulus) == sum)
            var negativeB = m
            MontgomeryTests.subtract(&negativeB, b)
            var difference = a
            MontgomeryTests.addMod(&difference, MontgomeryTests.mod(negativeB, m), m)
            #expect(Support.difference(a, b, modulus) == difference)
            if a.contains(where: { $0 != 0 }) {
                var one = [UInt64](repeating: 0, count: m.count)
                one[0] = 1
                #expect(MontgomeryTests.mulMod(a, Support.inverse(a, modulus), m) == one)
            }
        }
        // Edges: m − 1 squared, 0 times anything.
        var mMinus1 = m
        mMinus1[0] -= 1
        #expect(
            MontgomeryTests.mod([UInt64](repeating: 0, count: m.count) + Support.montgomeryProduct(mMinus1, mMinus1, modulus), m)
                == MontgomeryTests.mulMod(mMinus1, mMinus1, m))
        #expect(Support.montgomerySquare(mMinus1, modulus) == Support.montgomeryProduct(mMinus1, mMinus1, modulus))
        let allOnes = [UInt64](repeating: .max, count: m.count)   // the largest square product
        let belowM = MontgomeryTests.mod(allOnes, m)
        #expect(Support.montgomerySquare(belowM, modulus) == Support.montgomeryProduct(belowM, belowM, modulus))
        #expect(Support.montgomeryProduct([UInt64](repeating: 0, count: m.count), mMinus1, modulus).allSatisfy { $0 == 0 })
    }

    static func order(_ curve: EllipticCurve) -> [UInt64] { Support.limbs(curve == .p256 ? .p256Order : .p384Order) }

    static func multiplyGenerator(_ curve: EllipticCurve, _ scalar: [UInt64]) -> Point? {
        Support.jointMultiply(curve, u1: scalar, u2: [UInt64](repeating: 0, count: scalar.count), q: Support.generator(curve))
    }

    @Test(arguments: [EllipticCurve.p256, .p384])
    func orderOfTheGenerator(_ curve: EllipticCurve) throws {
        let n = Self.order(curve)
        #expect(Support.isOnCurve(curve, Support.generator(curve)))
        #expect(Self.multiplyGenerator(curve, n) == nil)   // n·G = O
        var nMinus1 = n
        nMinus1[0] -= 1
        let minusG = try #require(Self.multiplyGenerator(curve, nMinus1))   // (n − 1)·G = −G
        #expect(minusG.x == Support.generator(curve).x)
        #expect(
            minusG.y
                == Support.difference(
                    [UInt64](repeating: 0, count: n.count), Support.generator(curve).y,
                    curve == .p256 ? .p256Field : .p384Field))
        #expect(Self.multiplyGenerator(curve, [UInt64](repeating: 0, count: n.count)) == nil)   // 0·G = O
    }

    /// u1·G + u2·Q with Q = d·G equals (u1 + u2·d)·G: the public-key table and its digits
    /// against the generator's.
    @Test(arguments: [EllipticCurve.p256, .p384])
    func jointMultiplicationMatchesASingleMultiplication(_ curve: EllipticCurve) throws {
        let n = Self.order(curve)
        var generator = SplitMix64(seed: curve == .p256 ? 0xEC_0256 : 0xEC_0384)
        for _ in 0 ..< 8 {
            let d = Self.random(below: n, &generator), u1 = Self.random(below: n, &generator), u2 = Self.random(below: n, &generator)
            guard let q = Self.multiplyGenerator(curve, d) else { continue }
            #expect(Support.isOnCurve(curve, q))
            var combined = MontgomeryTests.mulMod(u2, d, n)
            MontgomeryTests.addMod(&combined, u1, n)
            let joint = Support.jointMultiply(curve, u1: u1, u2: u2, q: q)
            let single = Self.multiplyGenerator(curve, combined)
            #expect(joint?.x == single?.x && joint?.y == single?.y)
        }
    }

    /// The exceptional cases of addition: P + P doubles, P + (−P) is infinity, and mixed and
    /// Jacobian addition agree.
    @Test(arguments: [EllipticCurve.p256, .p384])
    func additionHandlesExceptionalCases(_ curve: EllipticCurve) throws {
        let n = Self.order(curve)
        var generator = SplitMix64(seed: 0xEC_0ADD)
        let field: Support.Modulus = curve == .p256 ? .p256Field : .p384Field
        for _ in 0 ..< 6 {
            let p = try #require(Self.multiplyGenerator(curve, Self.random(below: n, &generator)))
            let q = try #require(Self.multiplyGenerator(curve, Self.random(below: n, &generator)))
            let minusP = (x: p.x, y: Support.difference([UInt64](repeating: 0, count: p.y.count), p.y, field))
            let doubled = try #require(Support.double(curve, p))
            #expect(Support.isOnCurve(curve, doubled))
            for mixed in [true, false] {
                let same = Support.add(curve, p, p, mixed: mixed)
                #expect(same?.x == doubled.x && same?.y == doubled.y)
                #expect(Support.add(curve, p, minusP, mixed: mixed) == nil)
            }
            let mixedSum = try #require(Support.add(curve, p, q, mixed: true))
            let jacobianSum = try #require(Support.add(curve, p, q, mixed: false))
            #expect(mixedSum.x == jacobianSum.x && mixedSum.y == jacobianSum.y)
            #expect(Support.isOnCurve(curve, mixedSum))
        }
    }
}
