/// An odd modulus n of k limbs with its Montgomery constants, R = 2^(64k).
///
/// Computed once per key: n0inv = −n⁻¹ mod 2^64 and R² mod n. Arithmetic runs through
/// `withArithmetic`, which lends fixed scratch space; nothing allocates inside a multiplication.
struct MontgomeryModulus: Sendable, Hashable {
    /// n, exactly `count` limbs, top limb non-zero.
    let limbs: [UInt64]
    /// −n⁻¹ mod 2^64.
    let n0inv: UInt64
    /// R² mod n.
    let rSquared: [UInt64]

    var count: Int { limbs.count }

    /// `modulus` must be odd, greater than 1 and have a non-zero top limb.
    init(_ modulus: [UInt64]) {
        precondition(modulus.count > 0 && modulus[0] & 1 == 1 && modulus.last! != 0 && modulus != [1])
        limbs = modulus
        // Newton's iteration: x·n ≡ 1 holds to 3 bits for x = n (n odd), each step doubles the bits.
        var inverse = modulus[0]
        for _ in 0..<5 { inverse = inverse &* (2 &- modulus[0] &* inverse) }
        n0inv = 0 &- inverse
        rSquared = Self.computeRSquared(modulus, n0inv: n0inv)
    }

    /// R² mod n without long division: 2^(bits−1) < n, doubled (mod n) up to R, then k more times
    /// to 2^k·R, then six Montgomery squarings: (2^k·R)^(2^6) / R^(2^6 − 1) = 2^(64k)·R = R².
    private static func computeRSquared(_ modulus: [UInt64], n0inv: UInt64) -> [UInt64] {
        let count = modulus.count
        let bits = Limbs.bitCount(modulus)
        var value = [UInt64](repeating: 0, count: count)
        value[(bits - 1) / 64] = 1 << UInt64((bits - 1) % 64)
        modulus.withUnsafeBufferPointer { n in
            value.withUnsafeMutableBufferPointer { x in
                for _ in 0..<(64 * count - (bits - 1) + count) {
                    doubleModulo(x.baseAddress!, n.baseAddress!, count: count)
                }
            }
        }
        let partial = MontgomeryModulus(limbs: modulus, n0inv: n0inv, rSquared: [])
        partial.withArithmetic { arithmetic in
            value.withUnsafeMutableBufferPointer { x in
                for _ in 0..<6 { arithmetic.square(x.baseAddress!, x.baseAddress!) }
            }
        }
        return value
    }

    private init(limbs: [UInt64], n0inv: UInt64, rSquared: [UInt64]) {
        (self.limbs, self.n0inv, self.rSquared) = (limbs, n0inv, rSquared)
    }

    /// x = (2x + bit) mod n, for x < n and bit 0 or 1.
    static func doubleModulo(_ x: UnsafeMutablePointer<UInt64>, _ n: UnsafePointer<UInt64>, count: Int, plus bit: UInt64 = 0) {
        var carry = bit
        for index in 0..<count {
            let limb = x[index]
            x[index] = limb << 1 | carry
            carry = limb >> 63
        }
        if carry != 0 || Limbs.compare(x, n, count: count) >= 0 {
            Limbs.subtract(x, x, n, count: count)
        }
    }

    /// Runs `body` with Montgomery arithmetic modulo n and scratch space for it.
    func withArithmetic<Result>(_ body: (MontgomeryArithmetic) -> Result) -> Result {
        let count = self.count
        return limbs.withUnsafeBufferPointer { n in
            rSquared.withUnsafeBufferPointer { r2 in
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * count) { scratch in
                    body(MontgomeryArithmetic(n: n.baseAddress!, rSquared: r2.baseAddress, count: count,
                                              n0inv: n0inv, product: scratch.baseAddress!))
                }
            }
        }
    }
}

/// Montgomery multiplication modulo n on k-limb operands, valid only inside
/// `MontgomeryModulus.withArithmetic`. Inputs must be < n; outputs are < n. Results may alias inputs.
struct MontgomeryArithmetic {
    let n: UnsafePointer<UInt64>
    let rSquared: UnsafePointer<UInt64>?
    let count: Int
    let n0inv: UInt64
    /// 2k limbs of scratch for the double-width product.
    let product: UnsafeMutablePointer<UInt64>

    /// result = a·b·R⁻¹ mod n.
    func multiply(_ result: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>) {
        let k = count, t = product
        t[k] = Limbs.multiplyStore(t, a[0], b, count: k)
        for i in 1..<k {
            t[i + k] = Limbs.multiplyAccumulate(t + i, a[i], b, count: k)
        }
        reduce(into: result)
    }

    /// result = a²·R⁻¹ mod n: the cross products once, doubled, plus the squares.
    func square(_ result: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>) {
        let k = count, t = product
        // Row 0 stores t[1...k]; row i adds into t[2i+1 ..< i+k], all written by earlier rows,
        // and stores its carry at t[i+k]. t[0] and t[2k−1] only receive the squares below.
        t[0] = 0
        t[k] = Limbs.multiplyStore(t + 1, a[0], a + 1, count: k - 1)
        for i in 1..<max(1, k - 1) {
            t[i + k] = Limbs.multiplyAccumulate(t + 2 * i + 1, a[i], a + i + 1, count: k - i - 1)
        }
        t[2 * k - 1] = 0
        var shifted: UInt64 = 0, carry: UInt64 = 0
        for i in 0..<k {
            let low = t[2 * i], high = t[2 * i + 1]
            let (squareHigh, squareLow) = a[i].multipliedFullWidth(by: a[i])
            let (s0, o0) = (low << 1 | shifted).addingReportingOverflow(squareLow)
            let (s1, o1) = s0.addingReportingOverflow(carry)
            let (s2, o2) = (high << 1 | low >> 63).addingReportingOverflow(squareHigh)
            let (s3, o3) = s2.addingReportingOverflow((o0 ? 1 : 0) &+ (o1 ? 1 : 0))
            shifted = high >> 63
            t[2 * i] = s1
            t[2 * i + 1] = s3
            carry = (o2 ? 1 : 0) &+ (o3 ? 1 : 0)
        }
        reduce(into: result)
    }

    /// result = a·R⁻¹ mod n (leaves the Montgomery domain).
    func reduce(_ result: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>) {
        product.update(from: a, count: count)
        (product + count).update(repeating: 0, count: count)
        reduce(into: result)
    }

    /// Montgomery reduction (REDC) of the 2k-limb `product` < n·R into `result`.
    private func reduce(into result: UnsafeMutablePointer<UInt64>) {
        let k = count, t = product
        var overflow: UInt64 = 0
        for i in 0..<k {
            let row = t + i
            let carry = Limbs.multiplyAccumulate(row, row[0] &* n0inv, n, count: k)
            let (s0, o0) = row[k].addingReportingOverflow(carry)
            let (s1, o1) = s0.addingReportingOverflow(overflow)
            row[k] = s1
            overflow = (o0 ? 1 : 0) &+ (o1 ? 1 : 0)
        }
        // t[k..<2k] + overflow·R < 2n: subtract n once when it is ≥ n.
        let borrow = Limbs.subtract(result, t + k, n, count: k)
        if overflow == 0 && borrow != 0 {
            result.update(from: t + k, count: k)
        }
    }
}
