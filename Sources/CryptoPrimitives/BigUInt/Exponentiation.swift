extension MontgomeryArithmetic {
    /// result = base^exponent mod n by left-to-right square-and-multiply, for a public exponent
    /// ≥ 1 (65537: 16 squarings and 1 multiplication). `base` < n, plain (not Montgomery) form.
    func power(_ result: UnsafeMutablePointer<UInt64>, _ base: UnsafePointer<UInt64>, exponent: UInt64) {
        precondition(exponent > 0)
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { montgomeryBase in
            let x = montgomeryBase.baseAddress!
            multiply(x, base, rSquared!)                       // x = base·R mod n
            result.update(from: x, count: count)
            var bit = 63 - exponent.leadingZeroBitCount
            while bit > 0 {
                bit -= 1
                square(result, result)
                if exponent >> UInt64(bit) & 1 == 1 { multiply(result, result, x) }
            }
            reduce(result, result)                             // leave the Montgomery domain
        }
    }

    /// result = base^exponent mod n with a fixed 4-bit window, for long (private) exponents given
    /// as little-endian limbs. Not constant-time: test support only.
    func power(_ result: UnsafeMutablePointer<UInt64>, _ base: UnsafePointer<UInt64>, exponent: [UInt64]) {
        let k = count
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 16 * k) { table in
            let powers = table.baseAddress!
            // powers[i] = base^i·R mod n; powers[0] = R mod n = REDC(R²).
            reduce(powers, rSquared!)
            multiply(powers + k, base, rSquared!)
            for i in 2..<16 { multiply(powers + i * k, powers + (i - 1) * k, powers + k) }
            result.update(from: powers, count: k)
            let bits = Limbs.bitCount(exponent)
            var position = (bits + 3) / 4 * 4
            while position > 0 {
                position -= 4
                for _ in 0..<4 { square(result, result) }
                let window = Int(exponent[position / 64] >> UInt64(position % 64) & 0xf)
                if window != 0 { multiply(result, result, powers + window * k) }
            }
            reduce(result, result)
        }
    }
}
