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
}
