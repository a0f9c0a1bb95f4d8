/// A P-256 point in homogeneous projective coordinates (X : Y : Z), standing for (X/Z, Y/Z);
/// the point at infinity is (0 : 1 : 0). For the constant-time signer: addition uses the
/// complete formulas of Renes, Costello and Batina ("Complete addition formulas for prime order
/// elliptic curves", EUROCRYPT 2016, eprint 2015/1060, Algorithm 4 for a = −3), which give the
/// right sum for every pair of inputs — P = Q, P = −Q, either at infinity — with the same
/// sequence of field operations, so there is no branch on the points at all.
struct P256ProjectivePoint: Sendable {
    var x: P256FieldElement
    var y: P256FieldElement
    var z: P256FieldElement

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

    /// The point at infinity, (0 : 1 : 0).
    static var infinity: Self { Self(x: .zero, y: .one, z: .zero) }

    /// The curve coefficient b in Montgomery form (SEC 2 §2.4.2), computed once.
    static let b = P256FieldElement(plain: P256.b)

    /// P + Q by Algorithm 4 of Renes–Costello–Batina (12M + 2m_b + 29a), step for step; the
    /// comments number the paper's lines.
    @inline(__always)
    static func + (p: Self, q: Self) -> Self {
        let b = Self.b
        var t0 = p.x * q.x   // 1
        var t1 = p.y * q.y   // 2
        var t2 = p.z * q.z   // 3
        var t3 = p.x + p.y   // 4
        var t4 = q.x + q.y   // 5
        t3 = t3 * t4   // 6
        t4 = t0 + t1   // 7
        t3 = t3 - t4   // 8
        t4 = p.y + p.z   // 9
        var x3 = q.y + q.z   // 10
        t4 = t4 * x3   // 11
        x3 = t1 + t2   // 12
        t4 = t4 - x3   // 13
        x3 = p.x + p.z   // 14
        var y3 = q.x + q.z   // 15
        x3 = x3 * y3   // 16
        y3 = t0 + t2   // 17
        y3 = x3 - y3   // 18
        var z3 = b * t2   // 19
        x3 = y3 - z3   // 20
        z3 = x3 + x3   // 21
        x3 = x3 + z3   // 22
        z3 = t1 - x3   // 23
        x3 = t1 + x3   // 24
        y3 = b * y3   // 25
        t1 = t2 + t2   // 26
        t2 = t1 + t2   // 27
        y3 = y3 - t2   // 28
        y3 = y3 - t0   // 29
        t1 = y3 + y3   // 30
        y3 = t1 + y3   // 31
        t1 = t0 + t0   // 32
        t0 = t1 + t0   // 33
        t0 = t0 - t2   // 34
        t1 = t4 * y3   // 35
        t2 = t0 * y3   // 36
        y3 = x3 * z3   // 37
        y3 = y3 + t2   // 38
        x3 = t3 * x3   // 39
        x3 = x3 - t1   // 40
        z3 = t4 * z3   // 41
        t1 = t3 * t0   // 42
        z3 = z3 + t1   // 43
        return Self(x: x3, y: y3, z: z3)
    }

    /// (X/Z, Y/Z) with Z⁻¹ by Fermat's fixed exponentiation (constant time). For the point at
    /// infinity Z⁻¹ is 0 and so is the result; the signer never meets it (k is in [1, n − 1]).
    func affineInConstantTime() -> P256AffinePoint {
        let zInverse = z.invertedInConstantTime()
        return P256AffinePoint(x: x * zInverse, y: y * zInverse)
    }
}
