@testable import CryptoPrimitives

/// The curve internals on plain little-endian limb arrays, for the package's property tests
/// (against a slow big-integer reference), reached through `@testable import`: test code, not
/// part of the shipped module.
///
/// Values must have exactly `limbCount` limbs and lie below the modulus; points are plain
/// affine (x, y) pairs, `nil` for the point at infinity.
enum ECArithmeticTestSupport {
    /// One of the four moduli.
    enum Modulus: CaseIterable, Sendable {
        case p256Field, p256Order, p384Field, p384Order
    }

    static func limbs(_ modulus: Modulus) -> [UInt64] { limbs(type(modulus)) }
    static func negativeInverse(_ modulus: Modulus) -> UInt64 { type(modulus).negativeInverse }
    static func rSquared(_ modulus: Modulus) -> [UInt64] { rSquared(type(modulus)) }

    /// a·b·R⁻¹ mod m (the raw Montgomery product).
    static func montgomeryProduct(_ a: [UInt64], _ b: [UInt64], _ modulus: Modulus) -> [UInt64] {
        montgomeryProduct(a, b, type(modulus))
    }

    /// a²·R⁻¹ mod m by the dedicated squaring.
    static func montgomerySquare(_ a: [UInt64], _ modulus: Modulus) -> [UInt64] {
        montgomerySquare(a, type(modulus))
    }

    /// a + b mod m, a − b mod m, a⁻¹ mod m: plain values in and out (through Montgomery form).
    static func sum(_ a: [UInt64], _ b: [UInt64], _ modulus: Modulus) -> [UInt64] { sum(a, b, type(modulus)) }
    static func difference(_ a: [UInt64], _ b: [UInt64], _ modulus: Modulus) -> [UInt64] { difference(a, b, type(modulus)) }
    static func inverse(_ a: [UInt64], _ modulus: Modulus) -> [UInt64] { inverse(a, type(modulus)) }

    /// The base point, plain affine.
    static func generator(_ curve: EllipticCurve) -> (x: [UInt64], y: [UInt64]) {
        switch curve {
        case .p256: plain(AffinePoint<P256>.generator)
        case .p384: plain(AffinePoint<P384>.generator)
        }
    }

    /// u1·G + u2·Q by the verifier's joint wNAF multiplication (scalars as limbs, below n).
    static func jointMultiply(_ curve: EllipticCurve, u1: [UInt64], u2: [UInt64], q: (x: [UInt64], y: [UInt64])) -> (
        x: [UInt64], y: [UInt64]
    )? {
        switch curve {
        case .p256: joint(P256.self, u1, u2, q)
        case .p384: joint(P384.self, u1, u2, q)
        }
    }

    /// P + Q through the Jacobian formulas: `mixed` adds Q in affine form, else in Jacobian
    /// form with a Z other than 1 (P and Q are first scaled by random-looking Z values).
    static func add(_ curve: EllipticCurve, _ p: (x: [UInt64], y: [UInt64]), _ q: (x: [UInt64], y: [UInt64]), mixed: Bool) -> (
        x: [UInt64], y: [UInt64]
    )? {
        switch curve {
        case .p256: add(P256.self, p, q, mixed: mixed)
        case .p384: add(P384.self, p, q, mixed: mixed)
        }
    }

    /// 2P through the Jacobian doubling.
    static func double(_ curve: EllipticCurve, _ p: (x: [UInt64], y: [UInt64])) -> (x: [UInt64], y: [UInt64])? {
        switch curve {
        case .p256: plain(scaled(affine(p, P256.self)).doubled().affine())
        case .p384: plain(scaled(affine(p, P384.self)).doubled().affine())
        }
    }

    /// Whether y² = x³ − 3x + b.
    static func isOnCurve(_ curve: EllipticCurve, _ p: (x: [UInt64], y: [UInt64])) -> Bool {
        switch curve {
        case .p256: affine(p, P256.self).isOnCurve
        case .p384: affine(p, P384.self).isOnCurve
        }
    }

    // MARK: Plumbing

    private static func type(_ modulus: Modulus) -> any PrimeModulus.Type {
        switch modulus {
        case .p256Field: P256.Field.self
        case .p256Order: P256.Order.self
        case .p384Field: P384.Field.self
        case .p384Order: P384.Order.self
        }
    }

    private static func limbs<M: PrimeModulus>(_: M.Type) -> [UInt64] { array(M.modulus, M.self) }
    private static func rSquared<M: PrimeModulus>(_: M.Type) -> [UInt64] { array(M.rSquared, M.self) }

    private static func montgomeryProduct<M: PrimeModulus>(_ a: [UInt64], _ b: [UInt64], _: M.Type) -> [UInt64] {
        array((residue(a, M.self) * residue(b, M.self)).montgomery, M.self)
    }

    private static func montgomerySquare<M: PrimeModulus>(_ a: [UInt64], _: M.Type) -> [UInt64] {
        array(residue(a, M.self).squared().montgomery, M.self)
    }

    private static func sum<M: PrimeModulus>(_ a: [UInt64], _ b: [UInt64], _: M.Type) -> [UInt64] {
        array((MontgomeryResidue<M>(vector(a)) + MontgomeryResidue<M>(vector(b))).value, M.self)
    }

    private static func difference<M: PrimeModulus>(_ a: [UInt64], _ b: [UInt64], _: M.Type) -> [UInt64] {
        array((MontgomeryResidue<M>(vector(a)) - MontgomeryResidue<M>(vector(b))).value, M.self)
    }

    private static func inverse<M: PrimeModulus>(_ a: [UInt64], _: M.Type) -> [UInt64] {
        array(MontgomeryResidue<M>(vector(a)).inverse().value, M.self)
    }

    /// Up to six little-endian limbs as a `LimbVector` (the rest zero).
    static func vector(_ limbs: [UInt64]) -> LimbVector {
        precondition(limbs.count <= LimbVector.capacity)
        var vector = LimbVector.zero
        for (index, limb) in limbs.enumerated() { vector[index] = limb }
        return vector
    }

    private static func array<M: PrimeModulus>(_ vector: LimbVector, _: M.Type) -> [UInt64] {
        (0 ..< M.limbCount).map { vector[$0] }
    }

    private static func residue<M: PrimeModulus>(_ limbs: [UInt64], _: M.Type) -> MontgomeryResidue<M> {
        precondition(limbs.count == M.limbCount)
        return MontgomeryResidue(montgomery: vector(limbs))
    }

    private static func affine<Curve: WeierstrassCurve>(_ p: (x: [UInt64], y: [UInt64]), _: Curve.Type) -> AffinePoint<Curve> {
        AffinePoint(x: MontgomeryResidue(vector(p.x)), y: MontgomeryResidue(vector(p.y)))
    }

    private static func plain<Curve: WeierstrassCurve>(_ point: AffinePoint<Curve>?) -> (x: [UInt64], y: [UInt64])? {
        point.map { plain($0) }
    }

    private static func plain<Curve: WeierstrassCurve>(_ point: AffinePoint<Curve>) -> (x: [UInt64], y: [UInt64]) {
        (array(point.x.value, Curve.Field.self), array(point.y.value, Curve.Field.self))
    }

    /// (x·z², y·z³, z) for a fixed z ≠ 1: the same point with a non-trivial Z.
    private static func scaled<Curve: WeierstrassCurve>(_ p: AffinePoint<Curve>) -> JacobianPoint<Curve> {
        var seed = LimbVector.zero
        seed[0] = 0x9E37_79B9_7F4A_7C15
        seed[1] = 12345
        let z = MontgomeryResidue<Curve.Field>(seed)
        let z2 = z.squared()
        return JacobianPoint(x: p.x * z2, y: p.y * z2 * z, z: z)
    }

    private static func add<Curve: WeierstrassCurve>(_: Curve.Type, _ p: (x: [UInt64], y: [UInt64]), _ q: (x: [UInt64], y: [UInt64]), mixed: Bool)
        -> (x: [UInt64], y: [UInt64])?
    {
        let left = scaled(affine(p, Curve.self)), right = affine(q, Curve.self)
        let sum = mixed ? left.adding(right) : left.adding(scaled(right).doubled().adding(scaled(right.negated())))
        return plain(sum.affine())
    }

    private static func joint<Curve: WeierstrassCurve>(_: Curve.Type, _ u1: [UInt64], _ u2: [UInt64], _ q: (x: [UInt64], y: [UInt64])) -> (
        x: [UInt64], y: [UInt64]
    )? {
        plain(
            JointMultiplication<Curve>.multiply(generatorScalar: vector(u1), publicKeyScalar: vector(u2), publicKey: affine(q, Curve.self)).affine())
    }
}

extension ECArithmeticTestSupport {
    /// The width-`width` NAF digits of the scalar with little-endian `limbs` (below 2^bitCount,
    /// at most six limbs) by `WNAF.recode`, bitCount + 1 of them, and the index it returns.
    static func wnafDigits(_ limbs: [UInt64], bitCount: Int, width: Int) -> (digits: [Int], top: Int) {
        let scalar = vector(limbs)
        var digits = [Int8](repeating: 0x55, count: bitCount + 1)
        let top = digits.withUnsafeMutableBufferPointer { WNAF.recode(scalar, bitCount: bitCount, width: width, into: $0) }
        return (digits.map(Int.init), top)
    }
}

extension ECArithmeticTestSupport {
    /// a⁻¹ mod m by `DivstepInverse` for an odd m below 2^256 (four limbs) and a below m, or nil
    /// when it finds gcd(a, m) ≠ 1.
    static func divstepInverse(_ a: [UInt64], modulus m: [UInt64]) -> [UInt64]? {
        precondition(a.count == 4 && m.count == 4)
        let inverse = DivstepInverse(modulus: vector(m)).inverse(of: vector(a))
        return inverse.map { Array([$0.storage.0, $0.storage.1, $0.storage.2, $0.storage.3]) }
    }

    /// a⁻¹ mod m by `DivstepInverse.inverseInConstantTime` (the signer's fixed 590 divsteps), for
    /// an odd prime m below 2^256 and a below m.
    static func constantTimeDivstepInverse(_ a: [UInt64], modulus m: [UInt64]) -> [UInt64] {
        precondition(a.count == 4 && m.count == 4)
        let inverse = DivstepInverse(modulus: vector(m)).inverseInConstantTime(of: vector(a))
        return [inverse.storage.0, inverse.storage.1, inverse.storage.2, inverse.storage.3]
    }

    /// a⁻¹ mod m by the binary extended Euclidean algorithm, for a in [1, m − 1].
    static func binaryInverse(_ a: [UInt64], _ modulus: Modulus) -> [UInt64] {
        func binary<M: PrimeModulus>(_: M.Type) -> [UInt64] { array(MontgomeryResidue<M>.binaryInverse(vector(a)), M.self) }
        return binary(type(modulus))
    }
}

extension ECArithmeticTestSupport {
    /// Runs `DivstepInverse` on a modulo m (both as for `divstepInverse`) batch by batch and
    /// says whether d and e stayed in (−2m, m) after every update, the range its update keeps
    /// (and its final normalisation assumes).
    static func divstepRangesHold(_ a: [UInt64], modulus m: [UInt64]) -> Bool {
        let inverse = DivstepInverse(modulus: vector(m))
        func inRange(_ x: Signed62) -> Bool { compare(x, inverse.modulus, times: -2) > 0 && compare(x, inverse.modulus, times: 1) < 0 }
        // The loop of `DivstepInverse.run`, with the range checked after every update of d and e.
        var d = Signed62.zero, e = Signed62.one, f = inverse.modulus, g = Signed62(vector(a))
        var eta: Int64 = -1
        for _ in 0 ..< 12 {
            let matrix = DivstepInverse.divsteps(eta: &eta, f0: UInt64(bitPattern: f.v0), g0: UInt64(bitPattern: g.v0))
            inverse.updateDE(&d, &e, by: matrix)
            guard inRange(d) && inRange(e) else { return false }
            DivstepInverse.updateFG(&f, &g, by: matrix)
            if g.isZero { return true }
        }
        return false
    }

    /// The sign of x − k·m, both carried to limbs in [0, 2^62) under a signed top limb.
    private static func compare(_ x: Signed62, _ m: Signed62, times k: Int64) -> Int {
        var a = x, b = Signed62(m.v0 * k, m.v1 * k, m.v2 * k, m.v3 * k, m.v4 * k)
        a.carry()
        b.carry()
        for (p, q) in [(a.v4, b.v4), (a.v3, b.v3), (a.v2, b.v2), (a.v1, b.v1), (a.v0, b.v0)] where p != q {
            return p < q ? -1 : 1
        }
        return 0
    }
}
