/// A P-256 point (x, y) in affine coordinates on `P256FieldElement`; never the point at infinity.
struct P256AffinePoint: Sendable {
    var x: P256FieldElement
    var y: P256FieldElement

    /// −P = (x, −y).
    @inline(__always)
    func negated() -> P256AffinePoint { P256AffinePoint(x: x, y: -y) }
}

/// A P-256 point in Jacobian coordinates (X : Y : Z), standing for (X/Z², Y/Z³); Z = 0 is the
/// point at infinity. The same formulas as the generic `JacobianPoint` (Explicit-Formulas
/// Database, "g1p/auto-shortw-jacobian-3", a = −3), on the dedicated field. The exceptional
/// inputs (infinity, P = Q, P = −Q) are checked explicitly: verification data is public.
struct P256JacobianPoint: Sendable {
    var x: P256FieldElement
    var y: P256FieldElement
    var z: P256FieldElement

    static var infinity: Self { Self(x: .one, y: .one, z: .zero) }

    @inline(__always)
    init(x: P256FieldElement, y: P256FieldElement, z: P256FieldElement) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// (x : y : 1).
    @inline(__always)
    init(_ point: P256AffinePoint) {
        self.init(x: point.x, y: point.y, z: .one)
    }

    var isInfinity: Bool { z.isZero }

    @inline(__always)
    func negated() -> Self { Self(x: x, y: -y, z: z) }

    /// 2P: "dbl-2001-b", with Z3 = 2·Y·Z as a product (4M + 4S): the EFD's (Y + Z)² − γ − δ
    /// trades that product for a squaring and three modular additions, which cost more here
    /// (callgrind: 1.4 % of a verification). Infinity stays infinity (Z3 = 2·Y·Z = 0); P-256 has
    /// prime order, so no point has y = 0 and no other input is exceptional. The multiples of
    /// γ = Y² are shared: 4β = X·4γ and 8γ² = 2·(2γ)², three modular doublings where the EFD's
    /// sequence has five.
    @inline(__always)
    func doubled() -> Self {
        let delta = z.squared()
        let gamma = y.squared()
        let gamma2x = gamma.doubled()
        let beta4 = x * gamma2x.doubled()
        let t = (x - delta) * (x + delta)
        let alpha = t.doubled() + t
        let x3 = alpha.squared() - beta4.doubled()
        let z3 = (y * z).doubled()
        let y3 = alpha * (beta4 - x3) - gamma2x.squared().doubled()
        return Self(x: x3, y: y3, z: z3)
    }

    /// P + Q for an affine Q: "madd-2007-bl", 7M + 4S.
    @inline(__always)
    func adding(_ other: P256AffinePoint) -> Self {
        if isInfinity { return Self(other) }
        let (sum, h, r) = mixedSum(other)
        if h.isZero {   // same x: P = Q or P = −Q
            return r.isZero ? Self(other).doubled() : .infinity
        }
        return sum
    }

    /// The "madd-2007-bl" formulas (Explicit-Formulas Database) for self + Q with Q affine, and
    /// their h = U2 − X1 and r = 2(S2 − Y1): the sum is right only when neither point is at
    /// infinity and h ≠ 0 (P ≠ ±Q). The variable-time `adding(_:)` branches on those cases, the
    /// signer's `addingInConstantTime` selects by masks; both share these lines.
    @inline(__always)
    func mixedSum(_ other: P256AffinePoint) -> (sum: Self, h: P256FieldElement, r: P256FieldElement) {
        let z1z1 = z.squared()
        let u2 = other.x * z1z1
        let s2 = other.y * z * z1z1
        let h = u2 - x
        let r = (s2 - y).doubled()
        let hh = h.squared()
        let i = hh.doubled().doubled()
        let j = h * i
        let v = x * i
        let x3 = r.squared() - j - v.doubled()
        let y3 = r * (v - x3) - (y * j).doubled()
        let z3 = (z + h).squared() - z1z1 - hh
        return (Self(x: x3, y: y3, z: z3), h, r)
    }

    /// P + Q: "add-2007-bl", 11M + 5S.
    @inline(__always)
    func adding(_ other: Self) -> Self {
        if other.isInfinity { return self }
        return adding(P256CachedPoint(other))
    }

    /// P + Q for a finite Q whose Z² and Z³ are at hand: "add-2007-bl" less their squaring and
    /// multiplication, 10M + 4S.
    func adding(_ cached: P256CachedPoint) -> Self {
        let other = cached.point
        assert(!other.isInfinity, "a cached point is finite")
        if isInfinity { return other }
        let z1z1 = z.squared()
        let u1 = x * cached.zz
        let u2 = other.x * z1z1
        let s1 = y * cached.zzz
        let s2 = other.y * z * z1z1
        let h = u2 - u1
        let r = (s2 - s1).doubled()
        if h.isZero {   // same x: P = Q or P = −Q
            return r.isZero ? doubled() : .infinity
        }
        let i = h.doubled().squared()
        let j = h * i
        let v = u1 * i
        let x3 = r.squared() - j - v.doubled()
        let y3 = r * (v - x3) - (s1 * j).doubled()
        let z3 = ((z + other.z).squared() - z1z1 - cached.zz) * h
        return Self(x: x3, y: y3, z: z3)
    }
}

/// A finite Jacobian point with Z² and Z³ computed once, for a point added many times (the
/// public key's multiples in the joint multiplication): each addition saves a squaring and a
/// multiplication (callgrind: 1.3 % of a verification with a key without a table).
struct P256CachedPoint: Sendable {
    var point: P256JacobianPoint
    var zz: P256FieldElement
    var zzz: P256FieldElement

    @inline(__always)
    init(_ point: P256JacobianPoint) {
        self.point = point
        zz = point.z.squared()
        zzz = point.z * zz
    }

    @inline(__always)
    init(point: P256JacobianPoint, zz: P256FieldElement, zzz: P256FieldElement) {
        self.point = point
        self.zz = zz
        self.zzz = zzz
    }

    /// −Q: Z, and so Z² and Z³, unchanged.
    @inline(__always)
    func negated() -> Self { Self(point: point.negated(), zz: zz, zzz: zzz) }
}
