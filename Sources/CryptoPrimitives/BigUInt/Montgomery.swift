/// An odd modulus n of k limbs with its Montgomery constant n0inv = −n⁻¹ mod 2^64; R = 2^(64k).
///
/// Creating one costs a few multiplications of single limbs: R² mod n is never needed, because
/// values enter the Montgomery domain by one long division (`MontgomeryArithmetic.enter`).
/// Arithmetic runs through `withArithmetic`, which lends fixed scratch space; nothing allocates
/// inside a multiplication.
package struct MontgomeryModulus: Sendable, Hashable {
    /// n, exactly `count` limbs, top limb non-zero.
    package let limbs: [UInt64]
    /// −n⁻¹ mod 2^64.
    let n0inv: UInt64

    package var count: Int { limbs.count }

    /// `modulus` must be odd, greater than 1 and have a non-zero top limb.
    package init(_ modulus: [UInt64]) {
        precondition(modulus.count > 0 && modulus[0] & 1 == 1 && modulus.last! != 0 && modulus != [1])
        limbs = modulus
        // Newton's iteration: x·n ≡ 1 holds to 3 bits for x = n (n odd), each step doubles the bits.
        var inverse = modulus[0]
        for _ in 0 ..< 5 { inverse = inverse &* (2 &- modulus[0] &* inverse) }
        n0inv = 0 &- inverse
    }

    /// Runs `body` with Montgomery arithmetic modulo n and scratch space for it.
    package func withArithmetic<Result>(_ body: (MontgomeryArithmetic) -> Result) -> Result {
        let count = self.count
        return limbs.withUnsafeBufferPointer { n in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 4 * count) { scratch in
                let scratch = scratch.baseAddress!
                for index in 0 ..< count { scratch[2 * count + 2 * index + 1] = n[count - 1 - index] }   // n reversed
                return body(MontgomeryArithmetic(n: n.baseAddress!, count: count, n0inv: n0inv, scratch: scratch))
            }
        }
    }
}

/// Montgomery multiplication modulo n on k-limb operands, valid only inside
/// `MontgomeryModulus.withArithmetic`. Inputs must be < n; outputs are < n. Results may alias inputs.
///
/// Multiplication and squaring interleave the reduction with the product, column by column
/// (product scanning: Koç, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
/// algorithms", IEEE Micro 1996, FIPS): each column's products are summed into a three-limb
/// accumulator, one `mul`, `add`, `adc`, `adc` apiece, and nothing but the result is stored.
package struct MontgomeryArithmetic {
    let n: UnsafePointer<UInt64>
    package let count: Int
    let n0inv: UInt64
    /// 4k limbs of scratch, as two arrays of k pairs:
    /// - left[j] = (a[j], m[j]): the first operand and the reduction multipliers;
    /// - right[t] = (b[k−1−t], n[k−1−t]): the second operand and the modulus, reversed.
    /// A column's products a[j]·b[i−j] and m[j]·n[i−j] are then left[j] times right[k−1−i+j]
    /// pairwise: two pointers and one index, which leaves registers for two accumulators.
    let scratch: UnsafeMutablePointer<UInt64>

    /// result = a·b·R⁻¹ mod n.
    package func multiply(_ result: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>) {
        let k = count, left = scratch, right = scratch + 2 * k, n0 = n[0], b0 = b[0]
        for index in 0 ..< k {
            left[2 &* index] = a[index]
            right[2 &* index] = b[k &- 1 &- index]
        }
        // Two carry chains: `product` sums the a·b products, `reduction` the m·n products; each
        // column's low limbs are combined, the rest carries on separately.
        var product = Accumulator(), reduction = Accumulator()
        // Column i < k: Σ a[j]·b[i−j] + Σ m[j]·n[i−j] (j < i), then a[i]·b[0]; m[i] makes the
        // column's low limb zero, which is dropped (the division by R, one limb at a time).
        for i in 0 ..< k {
            Accumulator.addPairProducts(&product, &reduction, left, right + 2 &* (k &- 1 &- i), count: i)
            product.add(left[2 &* i], b0)
            product.add(reduction.low)
            reduction.shift()
            let q = product.low &* n0inv
            left[2 &* i &+ 1] = q
            product.add(q, n0)
            product.shift()
        }
        // Column k + i: Σ a[j]·b[k+i−j] + Σ m[j]·n[k+i−j] for i < j < k. (The operands were
        // copied: `result` may alias them.)
        for i in 0 ..< (k &- 1) {
            Accumulator.addPairProducts(&product, &reduction, left + 2 &* (i &+ 1), right, count: k &- 1 &- i)
            product.add(reduction.low)
            reduction.shift()
            result[i] = product.low
            product.shift()
        }
        product.add(reduction.low)
        result[k - 1] = product.low
        subtractModulusIfNeeded(result, carry: product.middle | reduction.middle)
    }

    /// result = a²·R⁻¹ mod n: each cross product a[j]·a[i−j] (j < i−j) once, summed in a chain
    /// of its own whose low limb is added twice to its column, plus the squares a[i/2]²,
    /// interleaved with the reduction as in `multiply`.
    package func square(_ result: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>) {
        let k = count, left = scratch, right = scratch + 2 * k, n0 = n[0]
        for index in 0 ..< k {
            left[2 &* index] = a[index]
            right[2 &* index] = a[k &- 1 &- index]
        }
        var cross = Accumulator(), sum = Accumulator()
        // Column i < k: cross products j < i/2, reduction products j < i.
        var y = right + 2 &* (k &- 1)   // right[k−1−i]
        for i in 0 ..< k {
            let half = (i &+ 1) >> 1
            Accumulator.addPairProducts(&cross, &sum, left, y, count: half)
            sum.addAlternateProducts(left + (2 &* half &+ 1), y + (2 &* half &+ 1), count: i &- half)
            if i & 1 == 0 { sum.add(a[i >> 1], a[i >> 1]) }
            sum.add(high: cross.low >> 63, low: cross.low << 1)
            cross.shift()
            let q = sum.low &* n0inv
            left[2 &* i &+ 1] = q
            sum.add(q, n0)
            sum.shift()
            y -= 2
        }
        // Column i ≥ k: cross products i−k < j < i/2, reduction products i−k < j < k.
        var x = left + 2   // left[i−k+1]
        for i in k ..< (2 &* k &- 1) {
            let first = i &- k &+ 1, half = (i &+ 1) >> 1
            Accumulator.addPairProducts(&cross, &sum, x, right, count: half &- first)
            let done = 2 &* (half &- first) &+ 1
            sum.addAlternateProducts(x + done, right + done, count: k &- half)
            if i & 1 == 0 { sum.add(a[i >> 1], a[i >> 1]) }
            sum.add(high: cross.low >> 63, low: cross.low << 1)
            cross.shift()
            result[i &- k] = sum.low
            sum.shift()
            x += 2
        }
        sum.add(high: cross.low >> 63, low: cross.low << 1)
        result[k - 1] = sum.low
        subtractModulusIfNeeded(result, carry: sum.middle)
    }

    /// result = a·R⁻¹ mod n (leaves the Montgomery domain): a·1 reduced.
    package func reduce(_ result: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>) {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { one in
            let one = one.baseAddress!
            one.initialize(repeating: 0, count: count)
            one[0] = 1
            multiply(result, a, one)
        }
    }

    /// result = x·R mod n (enters the Montgomery domain) for x < n: the remainder of x·2^(64k)
    /// by one long division, Knuth TAOCP vol. 2 §4.3.1 Algorithm D (k quotient limbs, about half
    /// the work of a multiplication, and no R² to compute beforehand).
    package func enter(_ result: UnsafeMutablePointer<UInt64>, _ x: UnsafePointer<UInt64>) {
        Limbs.remainder(x, count: count, shiftedByLimbs: count, modulo: n, count: count, into: result)
    }

    /// value + carry·R is below 2n; subtract n when it is ≥ n.
    @inline(__always)
    private func subtractModulusIfNeeded(_ value: UnsafeMutablePointer<UInt64>, carry: UInt64) {
        if carry != 0 || Limbs.compare(value, n, count: count) >= 0 {
            Limbs.subtract(value, value, n, count: count)
        }
    }
}

/// A three-limb column sum (low, middle, high) for product scanning.
struct Accumulator {
    var low: UInt64 = 0, middle: UInt64 = 0, high: UInt64 = 0

    /// += a·b: one `mul`, then `add`, `adc`, `adc`. The high half of a 64×64-bit product is at most
    /// 2^64 − 2, so adding the carry to it cannot overflow.
    @inline(__always)
    mutating func add(_ a: UInt64, _ b: UInt64) {
        let (productHigh, productLow) = a.fullWidthProduct(b)
        add(high: productHigh, low: productLow)
    }

    /// += high·2^64 + low, for high ≤ 2^64 − 2.
    @inline(__always)
    mutating func add(high addendHigh: UInt64, low addendLow: UInt64) {
        let (sum0, carry0) = low.addingReportingOverflow(addendLow)
        let (sum1, carry1) = middle.addingReportingOverflow(addendHigh &+ (carry0 ? 1 : 0))
        low = sum0
        middle = sum1
        high &+= carry1 ? 1 : 0
    }

    /// += word: `add`, `adc`, `adc`. (Sums of two accumulators compile to branches; the
    /// algorithms here never need one.)
    @inline(__always)
    mutating func add(_ word: UInt64) {
        let (sum0, carry0) = low.addingReportingOverflow(word)
        let (sum1, carry1) = middle.addingReportingOverflow(carry0 ? 1 : 0)
        low = sum0
        middle = sum1
        high &+= carry1 ? 1 : 0
    }

    /// Drops the low limb: the next column's carry in.
    @inline(__always)
    mutating func shift() {
        low = middle
        middle = high
        high = 0
    }

    /// first += Σ x[2j]·y[2j] and second += Σ x[2j+1]·y[2j+1] for 0 ≤ j < count: two
    /// independent carry chains, each added to once per step (written any other way, the
    /// compiler shuffles or spills the accumulators).
    @inline(__always)
    static func addPairProducts(
        _ first: inout Accumulator, _ second: inout Accumulator,
        _ x: UnsafePointer<UInt64>, _ y: UnsafePointer<UInt64>, count: Int
    ) {
        var j = 0
        let end = 2 &* count
        while j != end {
            first.add(x[j], y[j])
            second.add(x[j &+ 1], y[j &+ 1])
            j &+= 2
        }
    }

    /// self += Σ x[2j]·y[2j] for 0 ≤ j < count (every other limb).
    @inline(__always)
    mutating func addAlternateProducts(_ x: UnsafePointer<UInt64>, _ y: UnsafePointer<UInt64>, count: Int) {
        var j = 0
        let end = 2 &* count
        while j != end {
            add(x[j], y[j])
            j &+= 2
        }
    }
}
