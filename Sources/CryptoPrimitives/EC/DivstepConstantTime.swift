/// The constant-time form of `DivstepInverse`, for the signer's secrets (k⁻¹ mod n, Z⁻¹ mod p):
/// libsecp256k1's `secp256k1_modinv64` (doc/safegcd_implementation.md §§ 5–8). The divsteps
/// are the "half-delta" variant, ζ = −(δ + ½) with δ starting at ½; each step's swap and
/// subtraction are made by masks; and the count is fixed at 10 batches of 59, the 590 that
/// libsecp256k1 proves enough for every modulus and input below 2^256 (Bernstein–Yang's bound
/// for the original divsteps would be 741). d and e are updated as in the variable-time code
/// (`updateDE`, `updateFG`: masks and products only), and the result is normalised by masks.
extension DivstepInverse {
    /// a⁻¹ mod m for a in [1, m − 1] (m prime), the same instructions and addresses for every a;
    /// zero for zero.
    func inverseInConstantTime(of a: LimbVector) -> LimbVector {
        var d = Signed62.zero, e = Signed62.one, f = modulus, g = Signed62(a)
        var zeta: Int64 = -1   // δ = ½
        for _ in 0 ..< 10 {
            let matrix = Self.divsteps59(zeta: &zeta, f0: UInt64(bitPattern: f.v0), g0: UInt64(bitPattern: g.v0))
            updateDE(&d, &e, by: matrix)
            Self.updateFG(&f, &g, by: matrix)
        }
        // g = 0 and f = ±1: d·a ≡ f, so the inverse is d negated when f is −1.
        return normalizedInConstantTime(d, negate: UInt64(bitPattern: f.v4 >> 63)).limbs
    }

    /// 59 divsteps on the low 64 bits of f (odd) and g, as a matrix scaled by 2^62 (it starts at
    /// 8 = 2^3; libsecp256k1 `secp256k1_modinv64_divsteps_59`). In each step: if ζ < 0 and g is
    /// odd, (f, g) ← (g, (g − f)/2) and ζ ← −ζ − 2; else g ← (g + (g mod 2)·f)/2 and ζ ← ζ − 1.
    @inline(__always)
    static func divsteps59(zeta: inout Int64, f0: UInt64, g0: UInt64) -> TransitionMatrix {
        var u: UInt64 = 8, v: UInt64 = 0, q: UInt64 = 0, r: UInt64 = 8
        var f = f0, g = g0, z = zeta
        for _ in 3 ..< 62 {
            let negative = ConstantTimeMask.fromBit(UInt64(bitPattern: z) >> 63)   // all ones when ζ < 0
            let odd = ConstantTimeMask.fromBit(g & 1)
            // g, q, r += (−)f, (−)u, (−)v when g is odd, negated when ζ < 0.
            g &+= ((f ^ negative) &- negative) & odd
            q &+= ((u ^ negative) &- negative) & odd
            r &+= ((v ^ negative) &- negative) & odd
            let swap = negative & odd
            z = (z ^ Int64(bitPattern: swap)) &- 1
            // On a swap, f, u, v += the new g, q, r: f becomes the old g.
            f &+= g & swap
            u &+= q & swap
            v &+= r & swap
            g >>= 1
            u <<= 1
            v <<= 1
        }
        zeta = z
        return TransitionMatrix(
            u: Int64(bitPattern: u), v: Int64(bitPattern: v), q: Int64(bitPattern: q), r: Int64(bitPattern: r))
    }

    /// d in (−2m, m) into [0, m), negated first when `negate` is all ones
    /// (`secp256k1_modinv64_normalize_62`): add m if negative, negate, carry, add m if negative,
    /// carry; each addition and the negation by masks.
    func normalizedInConstantTime(_ d: Signed62, negate: UInt64) -> Signed62 {
        var r = d
        r.addModulus(modulus, mask: r.v4 >> 63)
        let n = Int64(bitPattern: negate)
        r = Signed62((r.v0 ^ n) &- n, (r.v1 ^ n) &- n, (r.v2 ^ n) &- n, (r.v3 ^ n) &- n, (r.v4 ^ n) &- n)
        r.carry()
        r.addModulus(modulus, mask: r.v4 >> 63)
        r.carry()
        return r
    }
}

extension Signed62 {
    /// self + m where `mask` is all ones (−1), self where it is 0.
    @inline(__always)
    mutating func addModulus(_ m: Signed62, mask: Int64) {
        v0 &+= m.v0 & mask
        v1 &+= m.v1 & mask
        v2 &+= m.v2 & mask
        v3 &+= m.v3 & mask
        v4 &+= m.v4 & mask
    }
}
