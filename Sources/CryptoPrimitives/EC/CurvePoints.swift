/// A point (x, y) on `Curve` in affine coordinates, Montgomery form; never the point at infinity.
package struct AffinePoint<Curve: WeierstrassCurve>: Sendable, Hashable {
    package typealias Element = MontgomeryResidue<Curve.Field>
    package var x: Element
    package var y: Element

    /// −P = (x, −y).
    @inline(__always)
    func negated() -> AffinePoint { AffinePoint(x: x, y: -y) }

    /// Whether y² = x³ − 3x + b (SEC 1 §3.2.2.1 step 3).
    var isOnCurve: Bool {
        let x2 = x.squared()
        let rightSide = (x2 * x) - (x.doubled() + x) + Element(Curve.b)
        return y.squared() == rightSide
    }

    /// The base point G.
    package static var generator: AffinePoint {
        AffinePoint(x: Element(Curve.generatorX), y: Element(Curve.generatorY))
    }
}

/// A point in Jacobian coordinates (X : Y : Z), standing for (X/Z², Y/Z³); Z = 0 is the point at
/// infinity. Formulas from the Explicit-Formulas Database (Bernstein, Lange: hyperelliptic.org/EFD,
/// "g1p/auto-shortw-jacobian-3"), for a = −3. The exceptional inputs (infinity, P = Q, P = −Q)
/// are handled by explicit checks: verification data is public, so branching on it is fine.
package struct JacobianPoint<Curve: WeierstrassCurve>: Sendable {
    package typealias Element = MontgomeryResidue<Curve.Field>
    package var x: Element
    package var y: Element
    var z: Element

    static var infinity: JacobianPoint { JacobianPoint(x: .one, y: .one, z: .zero) }

    @inline(__always)
    init(x: Element, y: Element, z: Element) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// (x : y : 1).
    @inline(__always)
    init(_ point: AffinePoint<Curve>) {
        self.init(x: point.x, y: point.y, z: .one)
    }

    var isInfinity: Bool { z.isZero }

    @inline(__always)
    func negated() -> JacobianPoint { JacobianPoint(x: x, y: -y, z: z) }

    /// 2P: "dbl-2001-b", 3M + 5S. Infinity stays infinity (Z3 = 2·Y·Z = 0); curves of prime
    /// order have no point with y = 0, so no other input is exceptional.
    @inline(__always)
    func doubled() -> JacobianPoint {
        let delta = z.squared()
        let gamma = y.squared()
        let beta = x * gamma
        let t = (x - delta) * (x + delta)
        let alpha = t.doubled() + t
        let beta4 = beta.doubled().doubled()
        let x3 = alpha.squared() - beta4.doubled()
        let z3 = (y + z).squared() - gamma - delta
        let gamma2 = gamma.squared()
        let y3 = alpha * (beta4 - x3) - gamma2.doubled().doubled().doubled()
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// P + Q for an affine Q: "madd-2007-bl", 7M + 4S.
    @inline(__always)
    func adding(_ other: AffinePoint<Curve>) -> JacobianPoint {
        if isInfinity { return JacobianPoint(other) }
        let z1z1 = z.squared()
        let u2 = other.x * z1z1
        let s2 = other.y * z * z1z1
        let h = u2 - x
        let r = (s2 - y).doubled()
        if h.isZero {   // same x: P = Q or P = −Q
            return r.isZero ? JacobianPoint(other).doubled() : .infinity
        }
        let hh = h.squared()
        let i = hh.doubled().doubled()
        let j = h * i
        let v = x * i
        let x3 = r.squared() - j - v.doubled()
        let y3 = r * (v - x3) - (y * j).doubled()
        let z3 = (z + h).squared() - z1z1 - hh
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// P + Q: "add-2007-bl", 11M + 5S.
    @inline(__always)
    func adding(_ other: JacobianPoint) -> JacobianPoint {
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
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// The affine point (X/Z², Y/Z³), or `nil` at infinity. One field inversion.
    package func affine() -> AffinePoint<Curve>? {
        guard !isInfinity else { return nil }
        let zInverse = z.inverse()
        let zInverse2 = zInverse.squared()
        return AffinePoint(x: x * zInverse2, y: y * zInverse2 * zInverse)
    }
}
