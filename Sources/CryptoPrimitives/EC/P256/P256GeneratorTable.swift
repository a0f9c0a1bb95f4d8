/// The odd multiples G, 3G, …, (2^w − 1)G of P-256's base point, affine on the dedicated field,
/// for the generator's wNAF digits (w = `window`). Built once per process, at first use (a
/// `static let`): the multiples in Jacobian form, then all made affine with one inversion
/// (Montgomery's trick, as `GeneratorTable` does for the generic code).
enum P256GeneratorTable {
    /// The wNAF window of u1: digits odd and below 2^w in magnitude, 2^(w−1) table points.
    static let window = 7

    static let points: [P256AffinePoint] = {
        let generator = P256AffinePoint(
            x: P256FieldElement(plain: P256.generatorX), y: P256FieldElement(plain: P256.generatorY))
        let count = 1 << (window - 1)
        var multiples = [P256JacobianPoint(generator)]
        let twice = multiples[0].doubled()
        for _ in 1 ..< count { multiples.append(multiples[multiples.count - 1].adding(twice)) }
        // prefix[i] = z0·…·z(i−1); one inversion of the whole product, then each Z⁻¹ peeled off.
        var prefix = [P256FieldElement](repeating: .one, count: count + 1)
        for index in 0 ..< count { prefix[index + 1] = prefix[index] * multiples[index].z }
        var inverse = prefix[count].inverse()
        var result = [P256AffinePoint](repeating: generator, count: count)
        for index in (0 ..< count).reversed() {
            let zInverse = inverse * prefix[index]
            inverse = inverse * multiples[index].z
            let zInverse2 = zInverse.squared()
            result[index] = P256AffinePoint(x: multiples[index].x * zInverse2, y: multiples[index].y * zInverse2 * zInverse)
        }
        return result
    }()
}
