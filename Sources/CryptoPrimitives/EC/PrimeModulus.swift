/// A fixed prime modulus m (a curve's field prime p or group order n) and its Montgomery
/// constants, R = 2^(64·limbCount). Conformers return literals, so arithmetic specialised for
/// one folds the modulus into the code and unrolls every loop over its limbs.
package protocol PrimeModulus {
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
/// is constant time; the few data-dependent branches are commented. (ReceiptTestSupport's test
/// signer uses the same code, `package` for it; it signs with throwaway keys.)
package struct MontgomeryResidue<Modulus: PrimeModulus>: Sendable, Hashable {
    /// a·R mod m.
    package var montgomery: LimbVector

    @inline(__always)
    package init(montgomery: LimbVector) {
        self.montgomery = montgomery
    }

    /// The residue of `value` (< m): value·R² ·R⁻¹.
    @inline(__always)
    package init(_ value: LimbVector) {
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
    package var value: LimbVector {
        var one = LimbVector.zero
        one[0] = 1
        return (self * Self(montgomery: one)).montgomery
    }

    var isZero: Bool { montgomery.isZero }

    /// a·b·R⁻¹ mod m: CIOS Montgomery multiplication (Koç, Acar, Kaliski, IEEE Micro 1996, §3),
    /// one operand limb at a time: t += a·b[i], then t += q·m with q chosen so that the low limb
    /// of t is zero, and t shifts down one limb. t < 2m after each round; one conditional
    /// subtraction (without a branch) leaves the result below m.
    #if hasFeature(Embedded)
        @inline(never)   // Embedded: LLVM time and wasm size (Wasm/README.md, "How it is built")
    #else
        @inline(__always)
    #endif
    package static func * (a: Self, b: Self) -> Self {
        let x = a.montgomery.storage, y = b.montgomery.storage
        var t = LimbVector.zero.storage
        var top: UInt64 = 0   // t[k]
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
        var carry: UInt64 = 0
        t.0 = Limbs.multiplyAdd(x.0, yi, t.0, &carry)
        t.1 = Limbs.multiplyAdd(x.1, yi, t.1, &carry)
        t.2 = Limbs.multiplyAdd(x.2, yi, t.2, &carry)
        t.3 = Limbs.multiplyAdd(x.3, yi, t.3, &carry)
        if Modulus.limbCount > 4 {
            t.4 = Limbs.multiplyAdd(x.4, yi, t.4, &carry)
            t.5 = Limbs.multiplyAdd(x.5, yi, t.5, &carry)
        }
        let (sum, overflow) = top.addingReportingOverflow(carry)
        top = sum
        reductionRound(&t, &top, overflow: overflow ? 1 : 0)
    }

    /// t = (t + t[k]·2^(64k) + q·m) / 2^64 with q = −t[0]·m⁻¹ mod 2^64 (which makes the low limb
    /// zero); `overflow` is bit 64k + 64 of the sum before the division, t[k] is in `top`.
    @inline(__always)
    private static func reductionRound(_ t: inout Limbs6, _ top: inout UInt64, overflow: UInt64) {
        let m = Modulus.modulus.storage
        let q = t.0 &* Modulus.negativeInverse
        var carry: UInt64 = 0
        _ = Limbs.multiplyAdd(q, m.0, t.0, &carry)   // low limb becomes 0: dropped
        t.0 = Limbs.multiplyAdd(q, m.1, t.1, &carry)
        t.1 = Limbs.multiplyAdd(q, m.2, t.2, &carry)
        t.2 = Limbs.multiplyAdd(q, m.3, t.3, &carry)
        if Modulus.limbCount > 4 {
            t.3 = Limbs.multiplyAdd(q, m.4, t.4, &carry)
            t.4 = Limbs.multiplyAdd(q, m.5, t.5, &carry)
        }
        let (shifted, overflow2) = top.addingReportingOverflow(carry)
        if Modulus.limbCount > 4 { t.5 = shifted } else { t.3 = shifted }
        top = overflow &+ (overflow2 ? 1 : 0)
    }

    /// a²·R⁻¹ mod m. The square is computed once as a 2k-limb product H·R + L, each cross
    /// product a[i]·a[j] (i < j) once and doubled, plus the diagonal a[i]² (k(k+1)/2 limb
    /// products instead of k²); then L·R⁻¹ by k reduction rounds (L + q·m)/2^64, which is at
    /// most m, plus H (below m, since a < m), with one final subtraction.
    #if hasFeature(Embedded)
        @inline(never)   // Embedded: LLVM time and wasm size (Wasm/README.md, "How it is built")
    #else
        @inline(__always)
    #endif
    func squared() -> Self {
        let a = montgomery.storage, wide = Modulus.limbCount > 4
        var r: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        // Cross products, row by row: row i adds a[i]·a[j] (j > i) into r[i + j].
        var c: UInt64 = 0
        r.1 = Limbs.multiplyAdd(a.0, a.1, 0, &c)
        r.2 = Limbs.multiplyAdd(a.0, a.2, 0, &c)
        r.3 = Limbs.multiplyAdd(a.0, a.3, 0, &c)
        if wide {
            r.4 = Limbs.multiplyAdd(a.0, a.4, 0, &c)
            r.5 = Limbs.multiplyAdd(a.0, a.5, 0, &c)
            r.6 = c
        } else {
            r.4 = c
        }
        c = 0
        r.3 = Limbs.multiplyAdd(a.1, a.2, r.3, &c)
        r.4 = Limbs.multiplyAdd(a.1, a.3, r.4, &c)
        if wide {
            r.5 = Limbs.multiplyAdd(a.1, a.4, r.5, &c)
            r.6 = Limbs.multiplyAdd(a.1, a.5, r.6, &c)
            r.7 = c
        } else {
            r.5 = c
        }
        c = 0
        r.5 = Limbs.multiplyAdd(a.2, a.3, r.5, &c)
        if wide {
            r.6 = Limbs.multiplyAdd(a.2, a.4, r.6, &c)
            r.7 = Limbs.multiplyAdd(a.2, a.5, r.7, &c)
            r.8 = c
            c = 0
            r.7 = Limbs.multiplyAdd(a.3, a.4, r.7, &c)
            r.8 = Limbs.multiplyAdd(a.3, a.5, r.8, &c)
            r.9 = c
            c = 0
            r.9 = Limbs.multiplyAdd(a.4, a.5, r.9, &c)
            r.10 = c
        } else {
            r.6 = c
        }
        // Double the cross products (their sum is below a²/2: no bit is lost).
        r.11 = r.11 << 1 | r.10 >> 63
        r.10 = r.10 << 1 | r.9 >> 63
        r.9 = r.9 << 1 | r.8 >> 63
        r.8 = r.8 << 1 | r.7 >> 63
        r.7 = r.7 << 1 | r.6 >> 63
        r.6 = r.6 << 1 | r.5 >> 63
        r.5 = r.5 << 1 | r.4 >> 63
        r.4 = r.4 << 1 | r.3 >> 63
        r.3 = r.3 << 1 | r.2 >> 63
        r.2 = r.2 << 1 | r.1 >> 63
        r.1 = r.1 << 1
        // Add the squares a[i]² at r[2i], r[2i + 1].
        c = 0
        @inline(__always) func addSquare(_ low: inout UInt64, _ high: inout UInt64, _ limb: UInt64) {
            let (productHigh, productLow) = limb.fullWidthProduct(limb)
            LimbVector.addWithCarry(&low, productLow, &c)
            LimbVector.addWithCarry(&high, productHigh, &c)
        }
        addSquare(&r.0, &r.1, a.0)
        addSquare(&r.2, &r.3, a.1)
        addSquare(&r.4, &r.5, a.2)
        addSquare(&r.6, &r.7, a.3)
        if wide {
            addSquare(&r.8, &r.9, a.4)
            addSquare(&r.10, &r.11, a.5)
        }
        // L·R⁻¹ (≤ m) + H.
        var t: Limbs6 = wide ? (r.0, r.1, r.2, r.3, r.4, r.5) : (r.0, r.1, r.2, r.3, 0, 0)
        let high = LimbVector(storage: wide ? (r.6, r.7, r.8, r.9, r.10, r.11) : (r.4, r.5, r.6, r.7, 0, 0))
        var top: UInt64 = 0
        Self.reductionRound(&t, &top, overflow: 0)
        Self.reductionRound(&t, &top, overflow: 0)
        Self.reductionRound(&t, &top, overflow: 0)
        Self.reductionRound(&t, &top, overflow: 0)
        if wide {
            Self.reductionRound(&t, &top, overflow: 0)
            Self.reductionRound(&t, &top, overflow: 0)
        }
        let (sum, carry) = LimbVector(storage: t).adding(high, count: Modulus.limbCount)
        return Self(montgomery: Self.reduced(sum, carry: carry))
    }

    /// a + b mod m.
    @inline(__always)
    package static func + (a: Self, b: Self) -> Self {
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
        let keepValue = 0 &- (borrow & ~carry & 1)   // all ones: value < m
        return LimbVector.select(keepValue, value, difference, count: k)
    }

    /// a⁻¹ mod m (zero for zero): the plain value inverted (`plainInverse`: divsteps or the
    /// binary extended Euclidean algorithm), then back into Montgomery form; either is far
    /// cheaper than the some 64k multiplications of Fermat's a^(m−2). Variable time (branches on
    /// the value), which suits public data only: verification inverts s, affine conversion
    /// inverts Z; test signing is not secret-safe anyway.
    package func inverse() -> Self {
        let a = value
        guard !a.isZero else { return .zero }
        return Self(Self.plainInverse(a))
    }

    /// a⁻¹ mod m for a plain a in [1, m − 1]: by divsteps (`DivstepInverse`) for moduli of up
    /// to four limbs, else by the binary method below. The moduli are prime, so every such a
    /// has an inverse and the divsteps find it; a nil from them would mean a broken caller (a
    /// not in range), which stops here rather than in the binary method's endless loop.
    static func plainInverse(_ a: LimbVector) -> LimbVector {
        guard Modulus.limbCount <= 4 else { return binaryInverse(a) }
        guard let inverse = DivstepInverse(modulus: Modulus.modulus).inverse(of: a) else {
            preconditionFailure("no inverse modulo a prime: the value is not in [1, m − 1]")
        }
        return inverse
    }

    /// a⁻¹ mod m for a plain a in [1, m − 1] (Hankerson, Menezes, Vanstone, "Guide to Elliptic
    /// Curve Cryptography", Alg. 2.22): u = a, v = m; keep x1·a ≡ u and x2·a ≡ v (mod m) while
    /// halving even values and subtracting the smaller from the larger, until u or v is 1.
    /// Terminates because gcd(a, m) = 1 (m is prime) and u + v shrinks every step.
    static func binaryInverse(_ a: LimbVector) -> LimbVector {
        let k = Modulus.limbCount
        var u = a, v = Modulus.modulus
        var x1 = LimbVector.zero, x2 = LimbVector.zero
        x1[0] = 1
        while !u.isOne && !v.isOne {
            while u.storage.0 & 1 == 0 {
                u = u.shiftedRight(insertingTopBit: 0, count: k)
                x1 = halved(x1)
            }
            while v.storage.0 & 1 == 0 {
                v = v.shiftedRight(insertingTopBit: 0, count: k)
                x2 = halved(x2)
            }
            if u.compare(v, count: k) >= 0 {
                u = u.subtracting(v, count: k).difference
                x1 = (Self(montgomery: x1) - Self(montgomery: x2)).montgomery   // plain x1 − x2 mod m
            } else {
                v = v.subtracting(u, count: k).difference
                x2 = (Self(montgomery: x2) - Self(montgomery: x1)).montgomery
            }
        }
        return u.isOne ? x1 : x2
    }

    /// x/2 mod m for x < m: x/2 when x is even, else (x + m)/2 (m is odd), with the carry of
    /// x + m shifted back in.
    private static func halved(_ x: LimbVector) -> LimbVector {
        let k = Modulus.limbCount
        guard x.storage.0 & 1 == 1 else { return x.shiftedRight(insertingTopBit: 0, count: k) }
        let (sum, carry) = x.adding(Modulus.modulus, count: k)
        return sum.shiftedRight(insertingTopBit: carry, count: k)
    }
}
