/// ECDSA signature generation on P-256 in constant time, FIPS 186-5 §6.4.1 (SEC 1 §4.1.3):
/// k by RFC 6979 §3.2 (HMAC_DRBG with SHA-256, optionally with additional data, §3.6), R = k·G
/// by signed fixed windows over `P256SigningTable` with masked additions, Z⁻¹ and k⁻¹ by
/// constant-time divsteps, r = x(R) mod n and s = k⁻¹·(e + r·d) mod n with masked reductions,
/// then low S.
///
/// Nothing branches on, or indexes memory by, d, k or the digest: the loops run a fixed number
/// of times and every selection is a mask. Three data-dependent branches remain, each on a
/// value that is revealed anyway or that occurs with probability about 2^−128 or less: a nonce
/// candidate outside [1, n − 1] is refused and the DRBG asked again (RFC 6979 §3.2 step h.3;
/// the refusal reveals only that a discarded candidate was out of range), and r = 0 or s = 0
/// starts again with the next nonce (both are parts of the signature).
enum P256ConstantTimeSigning {
    typealias Scalar = MontgomeryResidue<P256.Order>

    /// k·G for k in [1, n − 1] in Jacobian form: 43 signed six-bit digits (`P256SigningDigits`),
    /// each one's multiple of 2^(6i)·G selected from `P256SigningTable` with masks, negated by a
    /// mask, and added by `addingInConstantTime` (42 additions, no doublings).
    ///
    /// Why the incomplete addition never meets P = ±Q (BoringSSL's argument for its comb): before
    /// window i the accumulator is s_i·G with s_i = Σ_{j<i} d_j·2^(6j), and the recoding keeps
    /// |s_i| ≤ 2^(6i − 1); the addend is d_i·2^(6i)·G with 2^(6i) ≤ |d_i·2^(6i)| ≤ 2^(6i + 5).
    /// For i ≤ 41 both are below n/2 in size, so s_i ≡ ±d_i·2^(6i) (mod n) would need equal
    /// integers, and |d_i·2^(6i)| > |s_i|. For i = 42, d in [0, 16] (k < 2^256): s ≡ −d·2^252
    /// means k ≡ 0; s ≡ d·2^252 with |s − d·2^252| < 2n means s = d·2^252 − n, so d = 16 and
    /// k = s + 2^256 > n. Both contradict k in [1, n − 1]. Zero digits and a zero accumulator
    /// (s_i = 0) are the masked infinity cases.
    @inline(__always)
    static func multiplyGenerator(_ k: LimbVector) -> P256JacobianPoint {
        P256SigningTable.points.withUnsafeBufferPointer { table in
            @inline(__always) func term(_ window: Int) -> (point: P256AffinePoint, isZero: UInt64) {
                let (magnitude, negative) = P256SigningDigits.digit(k, window: window)
                let point = P256SigningTable.select(table, window: window, magnitude: magnitude)
                let y = (-point.y).selected(where: negative, otherwise: point.y)
                return (P256AffinePoint(x: point.x, y: y), ConstantTimeMask.isZero(magnitude))
            }
            // Window 0's term as (x : y : 1), or (0 : 0 : 0), the point at infinity, for digit 0.
            let first = term(0)
            var sum = P256JacobianPoint(first.point)
            sum.z = P256FieldElement.zero.selected(where: first.isZero, otherwise: .one)
            for window in 1 ..< P256SigningTable.windowCount {
                let next = term(window)
                sum = sum.addingInConstantTime(next.point, qIsInfinity: next.isZero)
            }
            return sum
        }
    }

    /// d·G in affine form (the public key), for d in [1, n − 1].
    static func publicPoint(_ d: LimbVector) -> P256AffinePoint {
        multiplyGenerator(d).affineInConstantTime()
    }

    /// The signature (r, s), plain values in [1, n − 1] with s ≤ (n − 1)/2, of `digest` under d;
    /// `additionalData` (empty for plain RFC 6979) goes into the DRBG's seed (RFC 6979 §3.6).
    static func sign(digest: Digest, privateKey d: LimbVector, additionalData: [UInt8]) -> (r: LimbVector, s: LimbVector) {
        // FIPS 186-5 §6.4.1 steps 1–3: e, the leftmost 256 bits of the hash, reduced mod n.
        let e = ECDSAVerification<P256>.truncatedDigest(digest)
        var nonces = P256NonceGenerator(privateKey: d, digest: digest, additionalData: additionalData)
        while true {
            let k = nonces.next()
            // Steps 5–7: R = k·G, r = x(R) mod n (x < p < 2n: one masked subtraction).
            let point = multiplyGenerator(k)
            let x = point.x * point.z.invertedInConstantTime().squared()   // X/Z²
            let r = P256ConstantTimeScalar.reducedOnce((x * P256FieldElement(1, 0, 0, 0)).montgomery)
            if r.isZero { continue }   // public: r is part of the signature
            // Step 8: s = k⁻¹·(e + r·d) mod n.
            let kInverse = Scalar(P256ConstantTimeScalar.inverse(k))
            let s = (kInverse * (Scalar(e) + Scalar(r) * Scalar(d))).value
            if s.isZero { continue }   // public likewise
            return (r, P256ConstantTimeScalar.lowS(s))
        }
    }
}
