/// Jacobian points made affine together with one field inversion (Montgomery's trick: invert the
/// product of every Z, then peel each Z⁻¹ off with two multiplications), for the precomputed
/// tables. Every point must be finite.
enum P256AffineBatch {
    static func affine(_ points: [P256JacobianPoint]) -> [P256AffinePoint] {
        let count = points.count
        guard count > 0 else { return [] }
        // prefix[i] = z0·…·z(i−1); one inversion of the whole product, then each Z⁻¹ peeled off.
        var prefix = [P256FieldElement](repeating: .one, count: count + 1)
        for index in 0 ..< count {
            precondition(!points[index].isInfinity, "a table point is never the point at infinity")
            prefix[index + 1] = prefix[index] * points[index].z
        }
        var inverse = prefix[count].inverse()
        var result = [P256AffinePoint](repeating: P256AffinePoint(x: .zero, y: .zero), count: count)
        for index in (0 ..< count).reversed() {
            let zInverse = inverse * prefix[index]
            inverse = inverse * points[index].z
            let zInverse2 = zInverse.squared()
            result[index] = P256AffinePoint(x: points[index].x * zInverse2, y: points[index].y * zInverse2 * zInverse)
        }
        return result
    }
}
