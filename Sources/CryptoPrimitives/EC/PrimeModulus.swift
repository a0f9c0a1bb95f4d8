/// A fixed prime modulus m (a curve's field prime p or group order n) and its Montgomery
/// constants, R = 2^(64·limbCount). Conformers return literals, so arithmetic specialised for
/// one folds the modulus into the code and unrolls every loop over its limbs.
protocol PrimeModulus {
    /// Limbs per value: 4 for P-256, 6 for P-384.
    static var limbCount: Int { get }
    /// m, little-endian limbs.
    static var modulus: LimbVector { get }
    /// −m⁻¹ mod 2^64 (1 for the P-256 prime, 2^32 + 1 for the P-384 prime).
    static var negativeInverse: UInt64 { get }
    /// R² mod m: a product with it enters the Montgomery domain.
    static var rSquared: LimbVector { get }
}

/// An integer modulo `Modulus` in Montgomery form (a·R mod m), always fully reduced (< m), so
/// that equal residues have equal limbs.
///
/// Verification handles public data only (the key, the signature, the digest), so nothing here
/// is constant time; the few data-dependent branches are commented. (Test signing uses the same
/// code; it signs with throwaway keys.)
struct MontgomeryResidue<Modulus: PrimeModulus>: Sendable, Hashable {
    /// a·R mod m.
    var montgomery: LimbVector

    @inline(__always)
    init(montgomery: LimbVector) {
        self.montgomery = montgomery
    }

    /// The residue of `value` (< m): value·R² ·R⁻¹.
    @inline(__always)
    init(_ value: LimbVector) {
        self = MontgomeryResidue(montgomery: value) * MontgomeryResidue(montgomery: Modulus.rSquared)
    }

    static var zero: Self { Self(montgomery: .zero) }

    /// 1 (R mod m in Montgomery form).
    static var one: Self {
        var one = LimbVector.zero
        one[0] = 1
        return Self(one)
    }

    /// The plain value, a·R·R⁻¹.
    var value: LimbVector {
        var one = LimbVector.zero
        one[0] = 1
        return (self * Self(montgomery: one)).montgomery
    }

    var isZero: Bool { montgomery.isZero }

    /// a·b·R⁻¹ mod m: CIOS Montgomery multiplication (Koç, Acar, Kaliski, IEEE Micro 1996, §3),
    /// one operand limb at a time: t += a·b[i], then t += q·m with q chosen so that the low limb
    /// of t is zero, and t shifts down one limb. t < 2m after each round; one conditional
    /// subtraction (without a branch) leaves the result below m.
    @inline(__always)
    static func * (a: Self, b: Self) -> Self {
        let x = a.montgomery.storage, y = b.montgomery.storage
        var t = LimbVector.zero.storage
        var top: UInt64 = 0                                        // t[k]
        // Rounds and limbs are written out (the compiler does not unroll loops this long), so
        // that every limb is a named value and t stays in registers.
        multiplyRound(&t, &top, x, y.0)
        multiplyRound(&t, &top, x, y.1)
        multiplyRound(&t, &top, x, y.2)
        multiplyRound(&t, &top, x, y.3)
        if Modulus.limbCount > 4 {
            multiplyRound(&t, &top, x, y.4)
            multiplyRound(&t, &top, x, y.5)
        }
        return Self(montgomery: reduced(LimbVector(storage: t), carry: top))
    }

    typealias Limbs6 = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// One CIOS round: t = (t + x·yi + q·m) / 2^64, with t[k] in `top`.
    @inline(__always)
    private static func multiplyRound(_ t: inout Limbs6, _ top: inout UInt64, _ x: Limbs6, _ yi: UInt64) {
        let wide = Modulus.limbCount > 4, m = Modulus.modulus.storage
        var carry: UInt64 = 0
        t.0 = Limbs.multiplyAdd(x.0, yi, t.0, &carry)
        t.1 = Limbs.multiplyAdd(x.1, yi, t.1, &carry)
        t.2 = Limbs.multiplyAdd(x.2, yi, t.2, &carry)
        t.3 = Limbs.multiplyAdd(x.3, yi, t.3, &carry)
        if wide {
            t.4 = Limbs.multiplyAdd(x.4, yi, t.4, &carry)
            t.5 = Limbs.multiplyAdd(x.5, yi, t.5, &carry)
        }
        let (sum, overflow) = top.addingReportingOverflow(carry)
        let q = t.0 &* Modulus.negativeInverse
        carry = 0
        _ = Limbs.multiplyAdd(q, m.0, t.0, &carry)                  // low limb becomes 0: dropped
        t.0 = Limbs.multiplyAdd(q, m.1, t.1, &carry)
        t.1 = Limbs.multiplyAdd(q, m.2, t.2, &carry)
        t.2 = Limbs.multiplyAdd(q, m.3, t.3, &carry)
        if wide {
            t.3 = Limbs.multiplyAdd(q, m.4, t.4, &carry)
            t.4 = Limbs.multiplyAdd(q, m.5, t.5, &carry)
        }
        let (shifted, overflow2) = sum.addingReportingOverflow(carry)
        if wide { t.5 = shifted } else { t.3 = shifted }
        top = (overflow ? 1 : 0) &+ (overflow2 ? 1 : 0)
    }

    /// a² ·R⁻¹ mod m.
    @inline(__always)
    func squared() -> Self { self * self }

    /// a + b mod m.
    @inline(__always)
    static func + (a: Self, b: Self) -> Self {
        let (sum, carry) = a.montgomery.adding(b.montgomery, count: Modulus.limbCount)
        return Self(montgomery: reduced(sum, carry: carry))
    }

    /// a − b mod m: the difference, plus m when it borrowed.
    @inline(__always)
    static func - (a: Self, b: Self) -> Self {
        let k = Modulus.limbCount
        let (difference, borrow) = a.montgomery.subtracting(b.montgomery, count: k)
        let addend = LimbVector.select(0 &- borrow, Modulus.modulus, .zero, count: k)
        return Self(montgomery: difference.adding(addend, count: k).sum)
    }

    /// −a mod m.
    @inline(__always)
    static prefix func - (a: Self) -> Self { zero - a }

    /// 2a mod m.
    @inline(__always)
    func doubled() -> Self { self + self }

    /// value + carry·2^(64k) (below 2m) reduced below m: subtract m unless that borrows
    /// without a carry to absorb it. No branch.
    @inline(__always)
    static func reduced(_ value: LimbVector, carry: UInt64) -> LimbVector {
        let k = Modulus.limbCount
        let (difference, borrow) = value.subtracting(Modulus.modulus, count: k)
        let keepValue = 0 &- (borrow & ~carry & 1)                 // all ones: value < m
        return LimbVector.select(keepValue, value, difference, count: k)
    }

    /// a^(m−2) = a⁻¹ mod m for a ≠ 0 (Fermat; m is prime), left to right with a fixed 4-bit
    /// window: 15 multiplications for the table, then 4 squarings and at most one
    /// multiplication per exponent digit. Zero maps to zero.
    func inverse() -> Self {
        var exponent = Modulus.modulus
        exponent[0] &-= 2                                          // m is odd and > 2: no borrow
        return withUnsafeTemporaryAllocation(of: Self.self, capacity: 16) { table in
            table[0] = .one
            table[1] = self
            for i in 2..<16 { table[i] = table[i &- 1] * self }
            var result = Self.one
            var position = 64 &* Modulus.limbCount
            while position > 0 {
                position &-= 4
                for _ in 0..<4 { result = result.squared() }
                let digit = Int(truncatingIfNeeded: exponent[position >> 6] >> UInt64(position & 63) & 0xf)
                if digit != 0 { result = result * table[digit] }     // exponent is public
            }
            return result
        }
    }
}
