@testable import CryptoPrimitives

/// The dedicated P-256 arithmetic on plain limb arrays, for the package's tests: each operation
/// beside the generic `MontgomeryResidue<P256.Field>` one, and the verifier's steps 6–8.
extension ECArithmeticTestSupport {
    /// a·b·R⁻¹, a²·R⁻¹, a + b and a − b modulo the P-256 prime on `P256FieldElement`, for
    /// Montgomery-form limbs below p.
    static func p256FieldOperations(_ a: [UInt64], _ b: [UInt64]) -> (
        product: [UInt64], square: [UInt64], sum: [UInt64], difference: [UInt64]
    ) {
        let x = P256FieldElement(a[0], a[1], a[2], a[3]), y = P256FieldElement(b[0], b[1], b[2], b[3])
        func limbs(_ e: P256FieldElement) -> [UInt64] { [e.l0, e.l1, e.l2, e.l3] }
        return (limbs(x * y), limbs(x.squared()), limbs(x + y), limbs(x - y))
    }

    /// Whether u1·G + u2·Q is finite with x ≡ r (mod n), by `P256JointMultiplication` (plain
    /// affine Q, scalars below n).
    static func p256JointMultipleMatches(u1: [UInt64], u2: [UInt64], q: (x: [UInt64], y: [UInt64]), r: [UInt64]) -> Bool {
        p256Multiple(u1: u1, u2: u2, q: q, r: r) { u1, u2, point, r in
            P256JointMultiplication.matches(u1: u1, u2: u2, publicKey: point, r: r)
        }
    }

    /// The same answer by `P256SplitMultiplication`, with Q's split table built here.
    static func p256SplitMultipleMatches(u1: [UInt64], u2: [UInt64], q: (x: [UInt64], y: [UInt64]), r: [UInt64]) -> Bool {
        p256Multiple(u1: u1, u2: u2, q: q, r: r) { u1, u2, point, r in
            P256SplitMultiplication.matches(u1: u1, u2: u2, publicKey: P256KeyTable(publicKey: point).split, r: r)
        }
    }

    /// How `p256Add` adds Q: as an affine point (mixed addition), a Jacobian one, or a Jacobian
    /// one with its Z² and Z³ (`P256CachedPoint`).
    enum P256AdditionForm: CaseIterable, Sendable {
        case affine, jacobian, cached
    }

    /// P + Q on the dedicated P-256 points, plain affine in and out (nil for the point at
    /// infinity, as P or as the sum). P, and Q unless added as affine, get a Z other than 1
    /// first, so that every Z term of the formulas counts.
    static func p256Add(_ p: (x: [UInt64], y: [UInt64])?, _ q: (x: [UInt64], y: [UInt64]), as form: P256AdditionForm) -> (
        x: [UInt64], y: [UInt64]
    )? {
        func scaled(_ point: P256AffinePoint, by factor: UInt64) -> P256JacobianPoint {
            let z = P256FieldElement(plain: vector([factor, 0, 0, 0])), z2 = z.squared()
            return P256JacobianPoint(x: point.x * z2, y: point.y * z2 * z, z: z)
        }
        let left = p.map { scaled(p256Point($0), by: 3) } ?? .infinity
        let sum: P256JacobianPoint
        switch form {
        case .affine: sum = left.adding(p256Point(q))
        case .jacobian: sum = left.adding(scaled(p256Point(q), by: 5))
        case .cached: sum = left.adding(P256CachedPoint(scaled(p256Point(q), by: 5)))
        }
        guard !sum.isInfinity else { return nil }
        let inverse = sum.z.inverse(), inverse2 = inverse.squared(), one = P256FieldElement(1, 0, 0, 0)
        func limbs(_ e: P256FieldElement) -> [UInt64] { [e.l0, e.l1, e.l2, e.l3] }
        return (limbs(sum.x * inverse2 * one), limbs(sum.y * inverse2 * inverse * one))
    }

    /// The limb arrays as the multiplications take them: scalars as `LimbVector`s, Q (plain
    /// coordinates) on the dedicated field.
    private static func p256Multiple(
        u1: [UInt64], u2: [UInt64], q: (x: [UInt64], y: [UInt64]), r: [UInt64],
        _ matches: (LimbVector, LimbVector, P256AffinePoint, LimbVector) -> Bool
    ) -> Bool {
        matches(vector(u1), vector(u2), p256Point(q), vector(r))
    }

    /// A point's plain affine coordinates on the dedicated field.
    private static func p256Point(_ point: (x: [UInt64], y: [UInt64])) -> P256AffinePoint {
        P256AffinePoint(x: P256FieldElement(plain: vector(point.x)), y: P256FieldElement(plain: vector(point.y)))
    }
}
