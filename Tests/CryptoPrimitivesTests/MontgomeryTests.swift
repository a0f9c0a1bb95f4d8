import CryptoPrimitives
import ReceiptTestSupport
import Testing

/// The big-integer internals (`MontgomeryTestSupport`, package access) against a plain reference:
/// bit-serial modular arithmetic that is slow but obviously right. Random operands come from a
/// fixed-seed generator and are biased towards the limb values that exercise carries and the
/// rare branches of long division (0, 1, 2^63, 2^64 − 1, …).
@Suite struct MontgomeryTests {
    // MARK: Reference arithmetic on little-endian 64-bit limbs

    /// a ≥ b for equal-length limb arrays.
    static func isAtLeast(_ a: [UInt64], _ b: [UInt64]) -> Bool {
        for index in stride(from: a.count - 1, through: 0, by: -1) where a[index] != b[index] {
            return a[index] > b[index]
        }
        return true
    }

    /// a −= b for equal-length arrays (a ≥ b).
    static func subtract(_ a: inout [UInt64], _ b: [UInt64]) {
        var borrow: UInt64 = 0
        for index in a.indices {
            let (d1, o1) = a[index].subtractingReportingOverflow(b[index])
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            a[index] = d2
            borrow = (o1 || o2) ? 1 : 0
        }
    }

    /// r = (2r + bit) mod n, for r < n.
    static func doubleMod(_ r: inout [UInt64], plus bit: UInt64, _ n: [UInt64]) {
        var carry = bit
        for index in r.indices {
            let limb = r[index]
            r[index] = limb << 1 | carry
            carry = limb >> 63
        }
        if carry != 0 || isAtLeast(r, n) { subtract(&r, n) }
    }

    /// r = (r + b) mod n, for r, b < n.
    static func addMod(_ r: inout [UInt64], _ b: [UInt64], _ n: [UInt64]) {
        var carry: UInt64 = 0
        for index in r.indices {
            let (s1, o1) = r[index].addingReportingOverflow(b[index])
            let (s2, o2) = s1.addingReportingOverflow(carry)
            r[index] = s2
            carry = (o1 || o2) ? 1 : 0
        }
        if carry != 0 || isAtLeast(r, n) { subtract(&r, n) }
    }

    /// x mod n for any length of x, one bit at a time.
    static func mod(_ x: [UInt64], _ n: [UInt64]) -> [UInt64] {
        var r = [UInt64](repeating: 0, count: n.count)
        for bit in stride(from: 64 * x.count - 1, through: 0, by: -1) {
            doubleMod(&r, plus: x[bit / 64] >> UInt64(bit % 64) & 1, n)
        }
        return r
    }

    /// a·b mod n (a, b < n) by Horner's rule over the bits of a.
    static func mulMod(_ a: [UInt64], _ b: [UInt64], _ n: [UInt64]) -> [UInt64] {
        var r = [UInt64](repeating: 0, count: n.count)
        for bit in stride(from: 64 * a.count - 1, through: 0, by: -1) {
            doubleMod(&r, plus: 0, n)
            if a[bit / 64] >> UInt64(bit % 64) & 1 == 1 { addMod(&r, b, n) }
        }
        return r
    }

    /// base^e mod n, left to right (base < n).
    static func powMod(_ base: [UInt64], _ exponent: UInt64, _ n: [UInt64]) -> [UInt64] {
        var r = [UInt64](repeating: 0, count: n.count)
        r[0] = 1
        r = mod(r, n)
        for bit in stride(from: 63, through: 0, by: -1) {
            r = mulMod(r, r, n)
            if exponent >> UInt64(bit) & 1 == 1 { r = mulMod(r, base, n) }
        }
        return r
    }

    /// R mod n, R = 2^(64·n.count).
    static func rModN(_ n: [UInt64]) -> [UInt64] {
        mod([UInt64](repeating: 0, count: n.count) + [1], n)
    }

    // MARK: Operands

    static let limbCounts = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17]

    // MARK: Tests

    @Test func longDivisionMatchesTheReference() {
        var generator = SplitMix64(seed: 1)
        for count in Self.limbCounts {
            for _ in 0 ..< 12 {
                let n = generator.modulus(count)
                let x = generator.limbs(Int(generator.next() % UInt64(2 * count + 3)))
                let shift = Int(generator.next() % 3) * count / 2
                let shifted = [UInt64](repeating: 0, count: shift) + x
                #expect(
                    MontgomeryTestSupport.remainder(x, shiftedByLimbs: shift, modulus: n) == Self.mod(shifted, n),
                    "x = \(x), shift = \(shift), n = \(n)")
            }
        }
    }

    /// Knuth's step D6 (add back) happens with probability about 2/2^64 on random input; the first
    /// five pairs force it (checked with an instrumented build), the last two come close.
    @Test func longDivisionAddBack() {
        let cases: [(x: [UInt64], n: [UInt64])] = [
            ([0, 0, 0x8000_0000_0000_0000, 0x7fff_ffff_ffff_ffff], [1, 0, 0x8000_0000_0000_0000]),
            ([0, 0xffff_fffe, 0, 0x8000_0000_0000_0000], [0xffff_ffff, 0, 0x8000_0000_0000_0000]),
            ([3, 0, 0x8000_0000_0000_0000], [1, 0, 0x2000_0000_0000_0000]),
            ([0, 0, 0, 1], [1, 0, 1]),
            ([0, 0, 0, .max], [1, 0, 1]),
            ([0, 0, 0x7fff_ffff_ffff_ffff, 0x7fff_ffff_ffff_ffff], [.max, 0, 0x8000_0000_0000_0000]),
            ([.max, .max, .max, .max, 0x7fff_ffff_ffff_ffff], [.max, .max, 0x8000_0000_0000_0000]),
        ]
        for (x, n) in cases {
            #expect(MontgomeryTestSupport.remainder(x, shiftedByLimbs: 0, modulus: n) == Self.mod(x, n), "x = \(x), n = \(n)")
            #expect(MontgomeryTestSupport.remainder(x, shiftedByLimbs: 2, modulus: n) == Self.mod([0, 0] + x, n), "x = \(x), n = \(n)")
        }
    }

    @Test func montgomeryOperationsMatchTheReference() {
        var generator = SplitMix64(seed: 2)
        for count in Self.limbCounts {
            for _ in 0 ..< 6 {
                let n = generator.modulus(count)
                let r = Self.rModN(n)
                var operands = [generator.below(n), generator.below(n), [UInt64](repeating: 0, count: count)]
                var nMinusOne = n
                nMinusOne[0] -= 1   // n is odd
                operands.append(nMinusOne)
                for a in operands {
                    // x·R mod n.
                    #expect(MontgomeryTestSupport.enter(a, modulus: n) == Self.mulMod(a, r, n), "enter \(a) mod \(n)")
                    // a·R⁻¹: (a·R⁻¹)·R ≡ a.
                    let reduced = MontgomeryTestSupport.reduce(a, modulus: n)
                    #expect(Self.isAtLeast(n, reduced) && reduced != n && Self.mulMod(reduced, r, n) == a, "reduce \(a) mod \(n)")
                    // a²·R⁻¹, and the product with every other operand.
                    let square = MontgomeryTestSupport.square(a, modulus: n)
                    #expect(Self.mulMod(square, r, n) == Self.mulMod(a, a, n), "square \(a) mod \(n)")
                    #expect(square == MontgomeryTestSupport.multiply(a, a, modulus: n))
                    for b in operands {
                        let product = MontgomeryTestSupport.multiply(a, b, modulus: n)
                        #expect(Self.isAtLeast(n, product) && product != n, "product not reduced")
                        #expect(Self.mulMod(product, r, n) == Self.mulMod(a, b, n), "\(a)·\(b) mod \(n)")
                    }
                }
            }
        }
    }

    /// The largest sizes (4096- and 8192-bit moduli): one operand pair each, the reference being
    /// slow there.
    @Test func largeModuli() {
        var generator = SplitMix64(seed: 4)
        for count in [64, 128] {
            let n = generator.modulus(count)
            let r = Self.rModN(n)
            let a = generator.below(n), b = generator.below(n)
            #expect(MontgomeryTestSupport.enter(a, modulus: n) == Self.mulMod(a, r, n))
            #expect(Self.mulMod(MontgomeryTestSupport.multiply(a, b, modulus: n), r, n) == Self.mulMod(a, b, n))
            #expect(MontgomeryTestSupport.square(a, modulus: n) == MontgomeryTestSupport.multiply(a, a, modulus: n))
            #expect(MontgomeryTestSupport.power(a, exponent: 3, modulus: n) == Self.mulMod(Self.mulMod(a, a, n), a, n))
        }
    }

    @Test func powersMatchTheReference() {
        var generator = SplitMix64(seed: 3)
        for count in Self.limbCounts {
            let n = generator.modulus(count)
            let exponents: [UInt64] = count <= 8 ? [1, 2, 3, 4, 17, 65537, 0x8000_0000_0000_0001, .max] : [2, 3, 65537]
            for exponent in exponents {
                let base = generator.below(n)
                let expected = Self.powMod(base, exponent, n)
                #expect(
                    MontgomeryTestSupport.power(base, exponent: exponent, modulus: n) == expected,
                    "\(base)^\(exponent) mod \(n)")
                #expect(
                    MontgomeryTestSupport.power(base, exponent: [exponent], modulus: n) == expected,
                    "\(base)^\(exponent) mod \(n), windowed")
            }
        }
    }

    /// s^e mod n through the verification path for every test key: a random s against the
    /// reference, and the edges 1 and n − 1 (e is odd).
    @Test(arguments: TestKeysTests.allKeys.map(\.name))
    func publicOperationOnTestKeys(_ name: String) throws {
        let key = try #require(TestKeysTests.allKeys.first { $0.name == name }).publicKey
        let modulusBytes = key.modulus
        var n = [UInt64](repeating: 0, count: (modulusBytes.count + 7) / 8)
        for (offset, byte) in modulusBytes.reversed().enumerated() { n[offset / 8] |= UInt64(byte) << UInt64(8 * (offset % 8)) }
        var exponent: UInt64 = 0
        for byte in key.exponent { exponent = exponent << 8 | UInt64(byte) }
        var generator = SplitMix64(seed: UInt64(n.count) &* 31 &+ n[0])
        var nMinusOne = n
        nMinusOne[0] -= 1
        let one = [1] + [UInt64](repeating: 0, count: n.count - 1)
        let base = generator.below(n)
        #expect(MontgomeryTestSupport.power(base, exponent: exponent, modulus: n) == Self.powMod(base, exponent, n), "\(name)")
        #expect(MontgomeryTestSupport.power(one, exponent: exponent, modulus: n) == one, "\(name)")
        #expect(MontgomeryTestSupport.power(nMinusOne, exponent: exponent, modulus: n) == nMinusOne, "\(name)")
    }
}

/// Operands for the Montgomery tests, drawn reproducibly.
extension SplitMix64 {
    /// A limb, often one of the values at the edges of carries and of division estimates.
    mutating func limb() -> UInt64 {
        switch next() % 8 {
        case 0: 0
        case 1: .max
        case 2: 1 << 63
        case 3: (1 << 63) - 1
        case 4: .max - 1
        default: next()
        }
    }

    mutating func limbs(_ count: Int) -> [UInt64] { (0 ..< count).map { _ in limb() } }

    /// An odd modulus of `count` limbs with a non-zero top limb (small, large or any).
    mutating func modulus(_ count: Int) -> [UInt64] {
        var n = limbs(count)
        n[0] |= 1
        switch next() % 3 {
        case 0: n[count - 1] = 1 + next() % 3
        case 1: n[count - 1] |= 1 << 63
        default: if n[count - 1] == 0 { n[count - 1] = next() | 1 }
        }
        if n == [1] { n = [3] }
        return n
    }

    /// A value below n.
    mutating func below(_ n: [UInt64]) -> [UInt64] { MontgomeryTests.mod(limbs(n.count), n) }
}
