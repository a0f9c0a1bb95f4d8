/// Precomputed affine multiples of P-256's base point G on the dedicated field, built once per
/// process at first use (`static let`s).
enum P256GeneratorTable {
    /// The wNAF window of u1: digits odd and below 2^w in magnitude, 2^(w−1) table points.
    static let window = 7

    /// G on the dedicated field.
    static var generator: P256AffinePoint {
        P256AffinePoint(x: P256FieldElement(plain: P256.generatorX), y: P256FieldElement(plain: P256.generatorY))
    }

    /// G, 3G, …, (2^w − 1)G, for the joint multiplication of a key without a table.
    static let points: [P256AffinePoint] = P256AffineBatch.affine(oddMultiples(of: P256JacobianPoint(generator), count: 1 << (window - 1)))

    /// The same odd multiples of G, 2^32·G, …, 2^224·G, for the split multiplication of a key
    /// with its table (`P256SplitTable`): 512 points, 32 KiB.
    static let split = P256SplitTable(base: generator, window: window)

    /// P, 3P, …, (2·count − 1)P in Jacobian form. P is finite and of prime order n, so no sum
    /// of these is the point at infinity or an exceptional input.
    static func oddMultiples(of point: P256JacobianPoint, count: Int) -> [P256JacobianPoint] {
        var multiples = [point]
        multiples.reserveCapacity(count)
        let twice = point.doubled()
        for _ in 1 ..< count { multiples.append(multiples[multiples.count - 1].adding(twice)) }
        return multiples
    }
}
