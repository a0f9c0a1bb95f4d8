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

    /// 2P: "dbl-2001-b", 3M + 5S. Infinity stays infinity (Z3 = 2·Y·Z = 0); P-256 has prime
    /// order, so no point has y = 0 and no other input is exceptional. The multiples of γ = Y²
    /// are shared: 4β = X·4γ and 8γ² = 2·(2γ)², three modular doublings where the EFD's
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
        let z3 = (y + z).squared() - gamma - delta
        let y3 = alpha * (beta4 - x3) - gamma2x.squared().doubled()
        return Self(x: x3, y: y3, z: z3)
    }

    /// P + Q for an affine Q: "madd-2007-bl", 7M + 4S.
    @inline(__always)
    func adding(_ other: P256AffinePoint) -> Self {
        if isInfinity { return Self(other) }
        let z1z1 = z.squared()
        let u2 = other.x * z1z1
        let s2 = other.y * z * z1z1
        let h = u2 - x
        let r = (s2 - y).doubled()
        if h.isZero {   // same x: P = Q or P = −Q
            return r.isZero ? Self(other).doubled() : .infinity
        }
        let hh = h.squared()
        let i = hh.doubled().doubled()
        let j = h * i
        let v = x * i
        let x3 = r.squared() - j - v.doubled()
        let y3 = r * (v - x3) - (y * j).doubled()
        let z3 = (z + h).squared() - z1z1 - hh
        return Self(x: x3, y: y3, z: z3)
    }

    /// P + Q: "add-2007-bl", 11M + 5S.
    @inline(__always)
    func adding(_ other: Self) -> Self {
        if isInfinity { return other }
        if other.isInfinity { return self }
        let z1z1 = z.squared()
        let z2z2 = other.z.squared()
        let u1 = x * z2z2
        let u2 = other.x * z1z1
        let s1 = y * other.z * z2z2
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
        let z3 = ((z + other.z).squared() - z1z1 - z2z2) * h
        return Self(x: x3, y: y3, z: z3)
    }
}
