import CryptoPrimitives
import ReceiptTestSupport
import Testing

/// The dedicated P-256 field and joint multiplication (`EC/P256/`) against the generic 6-limb
/// code that P-384 uses, on random inputs (SplitMix64, fixed seeds) and the edges.
@Suite struct P256DedicatedArithmeticTests {
    typealias Support = ECArithmeticTestSupport

    @Test func fieldOperationsMatchTheGenericOnes() {
        let p = Support.limbs(.p256Field)
        var generator = SplitMix64(seed: 0xEC_0256)
        var mMinus1 = p
        mMinus1[0] -= 1
        let edges: [[UInt64]] = [[0, 0, 0, 0], [1, 0, 0, 0], mMinus1, [.max, 0, 0, 0], [0, 0, 0, p[3] - 1], [.max, .max, .max, p[3] - 1]]
        var inputs = edges.flatMap { a in edges.map { b in (a, b) } }
        for _ in 0 ..< 500 {
            inputs.append((ECDSAArithmeticTests.random(below: p, &generator), ECDSAArithmeticTests.random(below: p, &generator)))
        }
        for (a, b) in inputs {
            let dedicated = Support.p256FieldOperations(a, b)
            #expect(dedicated.product == Support.montgomeryProduct(a, b, .p256Field))
            #expect(dedicated.square == Support.montgomerySquare(a, .p256Field))
            #expect(dedicated.sum == Support.sum(a, b, .p256Field))
            #expect(dedicated.difference == Support.difference(a, b, .p256Field))
        }
    }

    @Test func jointMultiplicationMatchesTheGenericOne() {
        let n = Support.limbs(.p256Order)
        var generator = SplitMix64(seed: 0xEC_0257)
        for round in 0 ..< 12 {
            let k = ECDSAArithmeticTests.random(below: n, &generator)
            guard let q = ECDSAArithmeticTests.multiplyGenerator(.p256, k) else { continue }
            let u1 = ECDSAArithmeticTests.random(below: n, &generator)
            let u2 = round == 0 ? [UInt64](repeating: 0, count: 4) : ECDSAArithmeticTests.random(below: n, &generator)
            guard let point = Support.jointMultiply(.p256, u1: u1, u2: u2, q: q) else {
                #expect(!Support.p256JointMultipleMatches(u1: u1, u2: u2, q: q, r: [1, 0, 0, 0]))
                continue
            }
            let r = MontgomeryTests.mod(point.x, n)
            #expect(Support.p256JointMultipleMatches(u1: u1, u2: u2, q: q, r: r))
            var other = r
            other[0] ^= 1
            #expect(!Support.p256JointMultipleMatches(u1: u1, u2: u2, q: q, r: other))
        }
        // u2·Q = −u1·G: the point at infinity, which never matches.
        let u1 = ECDSAArithmeticTests.random(below: n, &generator)
        var minusU1 = n
        MontgomeryTests.subtract(&minusU1, u1)
        #expect(!Support.p256JointMultipleMatches(u1: u1, u2: minusU1, q: Support.generator(.p256), r: [1, 0, 0, 0]))
    }

    /// The split multiplication of a key with its table (`withVerificationTable()`) against the
    /// generic joint multiplication: random scalars, scalars whose wNAF reaches digit 256 (n − 1,
    /// n − 2), u1 or u2 zero, and the sum at infinity.
    @Test func splitMultiplicationMatchesTheGenericOne() {
        let n = Support.limbs(.p256Order)
        var generator = SplitMix64(seed: 0xEC_0258)
        var nMinus1 = n, nMinus2 = n
        nMinus1[0] -= 1
        nMinus2[0] -= 2
        let zero = [UInt64](repeating: 0, count: 4)
        var pairs: [([UInt64], [UInt64])] = [
            (nMinus1, nMinus2), (nMinus2, nMinus1), (zero, nMinus1), (nMinus1, zero), ([1, 0, 0, 0], [1, 0, 0, 0]),
        ]
        for _ in 0 ..< 16 { pairs.append((ECDSAArithmeticTests.random(below: n, &generator), ECDSAArithmeticTests.random(below: n, &generator))) }
        var checked = 0
        for (u1, u2) in pairs {
            let k = ECDSAArithmeticTests.random(below: n, &generator)
            guard let q = ECDSAArithmeticTests.multiplyGenerator(.p256, k) else { continue }
            guard let point = Support.jointMultiply(.p256, u1: u1, u2: u2, q: q) else {
                #expect(!Support.p256SplitMultipleMatches(u1: u1, u2: u2, q: q, r: [1, 0, 0, 0]))
                continue
            }
            let r = MontgomeryTests.mod(point.x, n)
            #expect(Support.p256SplitMultipleMatches(u1: u1, u2: u2, q: q, r: r), "u1 \(u1) u2 \(u2)")
            var other = r
            other[0] ^= 1
            #expect(!Support.p256SplitMultipleMatches(u1: u1, u2: u2, q: q, r: other))
            checked += 1
        }
        #expect(checked >= 20)
        // u2·Q = −u1·G: the point at infinity, which never matches.
        let u1 = ECDSAArithmeticTests.random(below: n, &generator)
        var minusU1 = n
        MontgomeryTests.subtract(&minusU1, u1)
        #expect(!Support.p256SplitMultipleMatches(u1: u1, u2: minusU1, q: Support.generator(.p256), r: [1, 0, 0, 0]))
    }

    /// The dedicated additions (affine, Jacobian, Jacobian with cached Z powers) against the
    /// generic code, and their exceptional cases: P + P doubles, P + (−P) and only it is the
    /// point at infinity, infinity + Q is Q.
    @Test(arguments: Support.P256AdditionForm.allCases)
    func additionsMatchTheGenericOnesAtTheEdges(_ form: Support.P256AdditionForm) throws {
        let n = Support.limbs(.p256Order)
        var generator = SplitMix64(seed: 0xEC_0258)
        for _ in 0 ..< 8 {
            let p = try #require(ECDSAArithmeticTests.multiplyGenerator(.p256, ECDSAArithmeticTests.random(below: n, &generator)))
            let q = try #require(ECDSAArithmeticTests.multiplyGenerator(.p256, ECDSAArithmeticTests.random(below: n, &generator)))
            let minusP = (x: p.x, y: Support.difference([0, 0, 0, 0], p.y, .p256Field))
            let sum = try #require(Support.add(.p256, p, q, mixed: true))
            let dedicated = try #require(Support.p256Add(p, q, as: form))
            #expect(dedicated.x == sum.x && dedicated.y == sum.y)
            let doubled = try #require(Support.double(.p256, p))
            let same = try #require(Support.p256Add(p, p, as: form))
            #expect(same.x == doubled.x && same.y == doubled.y)
            #expect(Support.p256Add(p, minusP, as: form) == nil)
            let fromInfinity = try #require(Support.p256Add(nil, q, as: form))
            #expect(fromInfinity.x == q.x && fromInfinity.y == q.y)
        }
    }
}
