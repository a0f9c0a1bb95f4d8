/// Steps 6–8 of ECDSA verification (FIPS 186-5 §6.4.2, SEC 1 §4.1.4) on the dedicated P-256
/// field: R = u1·G + u2·Q by interleaved wNAF multiplication (Hankerson, Menezes, Vanstone,
/// "Guide to Elliptic Curve Cryptography", Alg. 3.51 with 3.35), one chain of doublings for
/// both scalars, u1's digits adding affine multiples of G from `P256GeneratorTable` (mixed
/// additions), u2's adding odd multiples of Q from a table built here (each kept with its Z²
/// and Z³); then x(R) mod n = r checked without inverting Z.
enum P256JointMultiplication {
    /// wNAF window of u2: odd multiples Q, 3Q, …, 15Q (8 points, built per verification).
    static let publicKeyWindow = 4

    /// Whether u1·G + u2·Q is a finite point whose x-coordinate is r modulo n. Allocates nothing
    /// on the heap: the digits and Q's table live in temporary stack buffers.
    static func matches(u1: LimbVector, u2: LimbVector, publicKey q: P256AffinePoint, r: LimbVector) -> Bool {
        let bitCount = 256, length = bitCount + 1
        let tableCount = 1 << (publicKeyWindow - 1)
        return withUnsafeTemporaryAllocation(of: Int8.self, capacity: 2 * length) { digits in
            let digits1 = UnsafeMutableBufferPointer(rebasing: digits[0 ..< length])
            let digits2 = UnsafeMutableBufferPointer(rebasing: digits[length...])
            let top1 = WNAF.recode(u1, bitCount: bitCount, width: P256GeneratorTable.window, into: digits1)
            let top2 = WNAF.recode(u2, bitCount: bitCount, width: publicKeyWindow, into: digits2)
            // points[i] = (2i + 1)·Q; powers[2i], powers[2i + 1] = its Z², Z³. Two buffers because
            // temporary allocations above 1 KiB come from the heap: one of 8 × 160 bytes did.
            return withUnsafeTemporaryAllocation(of: P256JacobianPoint.self, capacity: tableCount) { points in
                withUnsafeTemporaryAllocation(of: P256FieldElement.self, capacity: 2 * tableCount) { powers in
                    func store(_ point: P256CachedPoint, at i: Int) {
                        points.initializeElement(at: i, to: point.point)
                        powers.initializeElement(at: 2 &* i, to: point.zz)
                        powers.initializeElement(at: 2 &* i &+ 1, to: point.zzz)
                    }
                    func table(_ i: Int) -> P256CachedPoint { P256CachedPoint(point: points[i], zz: powers[2 &* i], zzz: powers[2 &* i &+ 1]) }
                    let q1 = P256JacobianPoint(q)
                    store(P256CachedPoint(point: q1, zz: .one, zzz: .one), at: 0)
                    let twice = P256CachedPoint(q1.doubled())
                    for i in 1 ..< tableCount { store(P256CachedPoint(points[i - 1].adding(twice)), at: i) }
                    return P256GeneratorTable.points.withUnsafeBufferPointer { generatorMultiples in
                        var accumulator = P256JacobianPoint.infinity
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
                                accumulator = accumulator.adding(table(digit2 >> 1))
                            } else if digit2 < 0 {
                                accumulator = accumulator.adding(table(-digit2 >> 1).negated())
                            }
                            index -= 1
                        }
                        return !accumulator.isInfinity && xCoordinate(of: accumulator, reducesTo: r)
                    }
                }
            }
        }
    }

    /// Whether x(R) ≡ r (mod n) for R = (X : Y : Z) finite: x(R) = X/Z² lies in [0, p) and
    /// p < 2n, so x(R) mod n = r means x(R) = r or x(R) = r + n (only when r + n < p); each
    /// test is X = candidate·Z² in the field.
    static func xCoordinate(of point: P256JacobianPoint, reducesTo r: LimbVector) -> Bool {
        let z2 = point.z.squared()
        if P256FieldElement(plain: r) * z2 == point.x { return true }   // r < n < p
        let (candidate, carry) = r.adding(P256.Order.modulus, count: 4)
        guard carry == 0, candidate.compare(P256.Field.modulus, count: 4) < 0 else { return false }
        return P256FieldElement(plain: candidate) * z2 == point.x
    }
}
