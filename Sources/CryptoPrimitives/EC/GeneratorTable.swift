/// The odd multiples G, 3G, 5G, …, (2^w − 1)G of a curve's base point in affine form, for the
/// wNAF digits of width w = `Curve.generatorWindow`. Built once per process (each curve keeps
/// one in a `static let`): the multiples in Jacobian form, then all made affine together with a
/// single field inversion.
package final class GeneratorTable<Curve: WeierstrassCurve>: Sendable {
    let points: [AffinePoint<Curve>]

    init() {
        let generator = AffinePoint<Curve>.generator
        let twice = JacobianPoint(generator).doubled()
        var multiples = [JacobianPoint(generator)]
        for _ in 1 ..< 1 << (Curve.generatorWindow - 1) { multiples.append(multiples[multiples.count - 1].adding(twice)) }
        points = Self.affine(multiples)
    }

    /// Many Jacobian points (none at infinity) made affine with one inversion (Montgomery's
    /// trick: invert the product of all Z, then peel off each Z⁻¹ with two multiplications).
    static func affine(_ points: [JacobianPoint<Curve>]) -> [AffinePoint<Curve>] {
        typealias Element = MontgomeryResidue<Curve.Field>
        var prefix = [Element](repeating: .one, count: points.count + 1)   // z0·…·z(i−1)
        for (index, point) in points.enumerated() {
            precondition(!point.isInfinity)
            prefix[index + 1] = prefix[index] * point.z
        }
        var inverse = prefix[points.count].inverse()   // (z0·…·z(k−1))⁻¹
        var result = [AffinePoint<Curve>](repeating: AffinePoint(x: .zero, y: .zero), count: points.count)
        for index in points.indices.reversed() {
            let zInverse = inverse * prefix[index]
            inverse = inverse * points[index].z
            let zInverse2 = zInverse.squared()
            result[index] = AffinePoint(x: points[index].x * zInverse2, y: points[index].y * zInverse2 * zInverse)
        }
        return result
    }
}
