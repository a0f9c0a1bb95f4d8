/// u1·G + u2·Q by interleaved ("Shamir's trick") wNAF multiplication (Hankerson, Menezes,
/// Vanstone, "Guide to Elliptic Curve Cryptography", Alg. 3.51 with 3.35): one chain of doublings
/// for both scalars, each non-zero digit adding a precomputed odd multiple: from the
/// generator's fixed affine table, or from a small Jacobian table of Q built here.
package enum JointMultiplication<Curve: WeierstrassCurve> {
    package typealias Point = JacobianPoint<Curve>

    /// u1·G + u2·Q for scalars below 2^(64·Order.limbCount) (in practice below n). Allocates
    /// nothing on the heap: digits and the table of Q live in temporary stack buffers.
    package static func multiply(generatorScalar u1: LimbVector, publicKeyScalar u2: LimbVector, publicKey q: AffinePoint<Curve>) -> Point {
        let length = Curve.scalarBitCount + 1
        let tableCount = 1 << (Curve.publicKeyWindow - 1)
        return withUnsafeTemporaryAllocation(of: Int8.self, capacity: 2 * length) { digits in
            let digits1 = UnsafeMutableBufferPointer(rebasing: digits[0 ..< length])
            let digits2 = UnsafeMutableBufferPointer(rebasing: digits[length...])
            let top1 = WNAF.recode(u1, bitCount: Curve.scalarBitCount, width: Curve.generatorWindow, into: digits1)
            let top2 = WNAF.recode(u2, bitCount: Curve.scalarBitCount, width: Curve.publicKeyWindow, into: digits2)
            return withUnsafeTemporaryAllocation(of: Point.self, capacity: tableCount) { table in
                // table[i] = (2i + 1)·Q
                let q1 = Point(q)
                table.initializeElement(at: 0, to: q1)
                if tableCount > 1 {
                    let twice = q1.doubled()
                    for i in 1 ..< tableCount { table.initializeElement(at: i, to: table[i - 1].adding(twice)) }
                }
                let generatorTable = Curve.generatorTable.points
                return generatorTable.withUnsafeBufferPointer { generatorMultiples in
                    var accumulator = Point.infinity
                    var index = max(top1, top2)
                    while index >= 0 {
                        accumulator = accumulator.doubled()
                        let digit1 = Int(digits1[index]), digit2 = Int(digits2[index])
                        if digit1 > 0 {
                            accumulator = accumulator.adding(generatorMultiples[digit1 >> 1])
                        } else if digit1 < 0 {
                            accumulator = accumulator.adding(generatorMultiples[-digit1 >> 1].negated())
                        }
                        if digit2 > 0 {
                            accumulator = accumulator.adding(table[digit2 >> 1])
                        } else if digit2 < 0 {
                            accumulator = accumulator.adding(table[-digit2 >> 1].negated())
                        }
                        index -= 1
                    }
                    return accumulator
                }
            }
        }
    }
}
