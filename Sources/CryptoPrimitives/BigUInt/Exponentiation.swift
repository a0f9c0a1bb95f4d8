extension MontgomeryArithmetic {
    /// result = base^exponent mod n by left-to-right square-and-multiply, for a public exponent
    /// ≥ 1 (65537: one division, 16 squarings and 1 multiplication). `base` < n, plain (not
    /// Montgomery) form; `result` must not alias `base`.
    ///
    /// The last multiplication, for an odd exponent, takes `base` in plain form:
    /// (base^(e−1)·R)·base·R⁻¹ = base^e leaves the Montgomery domain by itself.
    func power(_ result: UnsafeMutablePointer<UInt64>, _ base: UnsafePointer<UInt64>, exponent: UInt64) {
        precondition(exponent > 0)
        guard exponent > 1 else {
            result.update(from: base, count: count)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { montgomeryBase in
            let x = montgomeryBase.baseAddress!
            enter(x, base)   // x = base·R mod n
            result.update(from: x, count: count)
            var bit = 63 - exponent.leadingZeroBitCount   // ≥ 1
            while bit > 1 {
                bit -= 1
                square(result, result)
                if exponent >> UInt64(bit) & 1 == 1 { multiply(result, result, x) }
            }
            square(result, result)   // base^(e − e mod 2)·R
            if exponent & 1 == 1 {
                multiply(result, result, base)
            } else {
                reduce(result, result)
            }
        }
    }

    /// result = base^exponent mod n with a fixed 4-bit window, for long (private) exponents given
    /// as little-endian limbs. Not constant-time: test support only.
    func power(_ result: UnsafeMutablePointer<UInt64>, _ base: UnsafePointer<UInt64>, exponent: [UInt64]) {
        let k = count
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 17 * k) { table in
            let powers = table.baseAddress!, one = powers + 16 * k
            // powers[i] = base^i·R mod n; powers[0] = R mod n = 1·R.
            one.initialize(repeating: 0, count: k)
            one[0] = 1
            enter(powers, one)
            enter(powers + k, base)
            for i in 2 ..< 16 { multiply(powers + i * k, powers + (i - 1) * k, powers + k) }
            result.update(from: powers, count: k)
            let bits = Limbs.bitCount(exponent)
            var position = (bits + 3) / 4 * 4
            while position > 0 {
                position -= 4
                for _ in 0 ..< 4 { square(result, result) }
                let window = Int(exponent[position / 64] >> UInt64(position % 64) & 0xf)
                if window != 0 { multiply(result, result, powers + window * k) }
            }
            reduce(result, result)
        }
    }
}
