/// An element of the P-256 field, p = 2^256 − 2^224 + 2^192 + 2^96 − 1 (SEC 2 §2.4.2), in
/// Montgomery form a·2^256 mod p, always fully reduced (< p), on four named 64-bit limbs
/// (little-endian: `l0` least significant). The limbs are separate stored properties rather than
/// a tuple indexed at run time, so that every limb of every temporary stays in a register and
/// carry chains compile to `adc`/`sbb`.
///
/// The representation is the generic `MontgomeryResidue<P256.Field>`'s (R = 2^256 for four
/// limbs), so values convert between the two without arithmetic. This type serves verification
/// and the constant-time signer: `+`, `−`, `*` and `squared()` have no branch and no memory
/// access that depends on the values (`isZero`, `==` and `inverse()` do, and the signer does not
/// use them on secrets).
struct P256FieldElement: Sendable, Equatable {
    var l0: UInt64
    var l1: UInt64
    var l2: UInt64
    var l3: UInt64

    @inline(__always)
    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64) {
        self.l0 = l0
        self.l1 = l1
        self.l2 = l2
        self.l3 = l3
    }

    /// The element whose Montgomery limbs are the low four of `montgomery`.
    @inline(__always)
    init(montgomery: LimbVector) {
        let s = montgomery.storage
        self.init(s.0, s.1, s.2, s.3)
    }

    /// The limbs as a `LimbVector` (for the generic code: inversion, the conversions).
    var montgomery: LimbVector { LimbVector(storage: (l0, l1, l2, l3, 0, 0)) }

    // p's limbs, named so that each is an immediate operand (p2 = 0 is left out wherever it
    // would be added).
    @inline(__always) static var p0: UInt64 { 0xffff_ffff_ffff_ffff }
    @inline(__always) static var p1: UInt64 { 0x0000_0000_ffff_ffff }
    @inline(__always) static var p3: UInt64 { 0xffff_ffff_0000_0001 }

    static var zero: Self { Self(0, 0, 0, 0) }

    /// 1 in Montgomery form: R mod p = 2^256 − p.
    static var one: Self { Self(1, 0xffff_ffff_0000_0000, 0xffff_ffff_ffff_ffff, 0x0000_0000_ffff_fffe) }

    /// R² mod p: a Montgomery product with it takes a plain value into Montgomery form.
    static var rSquared: Self { Self(0x0000_0000_0000_0003, 0xffff_fffb_ffff_ffff, 0xffff_ffff_ffff_fffe, 0x0000_0004_ffff_fffd) }

    /// The Montgomery form of a plain value below p.
    @inline(__always)
    init(plain value: LimbVector) {
        self = Self(montgomery: value) * Self.rSquared
    }

    var isZero: Bool { l0 | l1 | l2 | l3 == 0 }

    /// a + b mod p: the sum (257 bits), less p unless that borrows past the carry.
    @inline(__always)
    static func + (a: Self, b: Self) -> Self {
        var carry: UInt64 = 0
        let s0 = a.l0.addingWithCarry(b.l0, &carry)
        let s1 = a.l1.addingWithCarry(b.l1, &carry)
        let s2 = a.l2.addingWithCarry(b.l2, &carry)
        let s3 = a.l3.addingWithCarry(b.l3, &carry)
        return reduced(s0, s1, s2, s3, carry: carry)
    }

    /// a − b mod p: the difference, plus p when it borrowed (p's limbs masked by the borrow).
    /// The difference is a + ~b + 1 (two's complement), an addition chain whose carry out is 1
    /// exactly when a ≥ b: spelled as additions it compiles to `add`/`adc` with the carry in the
    /// flags, where subtractions with a borrow variable came out as `setb` and `movzbl` per limb.
    @inline(__always)
    static func - (a: Self, b: Self) -> Self {
        var carry: UInt64 = 1
        let d0 = a.l0.addingWithCarry(~b.l0, &carry)
        let d1 = a.l1.addingWithCarry(~b.l1, &carry)
        let d2 = a.l2.addingWithCarry(~b.l2, &carry)
        let d3 = a.l3.addingWithCarry(~b.l3, &carry)
        let mask = carry &- 1   // all ones when a < b
        carry = 0
        let s0 = d0.addingWithCarry(mask, &carry)   // p0 = 2^64 − 1
        let s1 = d1.addingWithCarry(mask & p1, &carry)
        let s2 = d2.addingWithCarry(0, &carry)
        let s3 = d3.addingWithCarry(mask & p3, &carry)
        return Self(s0, s1, s2, s3)
    }

    /// −a mod p.
    @inline(__always)
    static prefix func - (a: Self) -> Self { zero - a }

    /// 2a mod p.
    @inline(__always)
    func doubled() -> Self { self + self }

    /// value + carry·2^256 (below 2p) reduced below p. value − p is computed as value + (2^256 −
    /// p) = value + 2^224 − 2^192 − 2^96 + 1 by an addition chain (which compiles to `add`/`adc`;
    /// spelled as a subtraction with borrows it did not); its carry out, or the incoming carry,
    /// says value ≥ p, and a mask made of it picks the result (fiat-crypto's `cmovznz`; the
    /// compiler emits `cmov`). No branch on the value: the constant-time signer
    /// (`P256SigningKey`) relies on it.
    @inline(__always)
    static func reduced(_ v0: UInt64, _ v1: UInt64, _ v2: UInt64, _ v3: UInt64, carry: UInt64) -> Self {
        var above: UInt64 = 1
        let d0 = v0.addingWithCarry(0, &above)
        let d1 = v1.addingWithCarry(0xffff_ffff_0000_0000, &above)
        let d2 = v2.addingWithCarry(UInt64.max, &above)
        let d3 = v3.addingWithCarry(0x0000_0000_ffff_fffe, &above)
        let keepDifference = 0 &- (above | carry)   // all ones when value ≥ p
        return Self(d0, d1, d2, d3).selected(where: keepDifference, otherwise: Self(v0, v1, v2, v3))
    }

    /// `mask` all ones ? self : other, limb by limb with masks (`mask` is all ones or zero).
    @inline(__always)
    func selected(where mask: UInt64, otherwise other: Self) -> Self {
        Self(
            l0 & mask | other.l0 & ~mask, l1 & mask | other.l1 & ~mask, l2 & mask | other.l2 & ~mask,
            l3 & mask | other.l3 & ~mask)
    }

    /// a⁻¹ mod p (zero for zero), through the generic inversion (divsteps; same representation).
    func inverse() -> Self {
        Self(montgomery: MontgomeryResidue<P256.Field>(montgomery: montgomery).inverse().montgomery)
    }
}
