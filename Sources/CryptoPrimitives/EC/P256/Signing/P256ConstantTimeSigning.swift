/// ECDSA signature generation on P-256 in constant time, FIPS 186-5 §6.4.1 (SEC 1 §4.1.3):
/// k by RFC 6979 §3.2 (HMAC_DRBG with SHA-256, optionally with additional data, §3.6), R = k·G
/// by fixed windows over `P256SigningTable` with complete additions, Z⁻¹ and k⁻¹ by Fermat,
/// r = x(R) mod n and s = k⁻¹·(e + r·d) mod n with masked reductions, then low S.
///
/// Nothing branches on, or indexes memory by, d, k or the digest: the loops run a fixed number
/// of times and every selection is a mask. Three data-dependent branches remain, each on a
/// value that is revealed anyway or that occurs with probability about 2^−128 or less: a nonce
/// candidate outside [1, n − 1] is refused and the DRBG asked again (RFC 6979 §3.2 step h.3;
/// the refusal reveals only that a discarded candidate was out of range), and r = 0 or s = 0
/// starts again with the next nonce (both are parts of the signature).
enum P256ConstantTimeSigning {
    typealias Scalar = MontgomeryResidue<P256.Order>

    /// k·G for k in [1, n − 1]: 64 four-bit digits, each one's multiple of 16^i·G selected from
    /// the table with masks and added with the complete formulas (64 additions, no doublings).
    static func multiplyGenerator(_ k: LimbVector) -> P256ProjectivePoint {
        var sum = P256ProjectivePoint.infinity
        for window in 0 ..< P256SigningTable.windowCount {
            let digit = k[window >> 4] >> UInt64((window & 15) << 2) & 15   // the position is public
            sum = sum + P256SigningTable.select(window: window, digit: digit)
        }
        return sum
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
        var nonces = DeterministicNonce<P256>(privateKey: d, digest: digest, hash: .sha256, additionalData: additionalData)
        while true {
            let k = nonces.next()
            // Steps 5–7: R = k·G, r = x(R) mod n (x < p < 2n: one masked subtraction).
            let point = publicPoint(k)
            let r = P256ConstantTimeScalar.reducedOnce((point.x * P256FieldElement(1, 0, 0, 0)).montgomery)
            if r.isZero { continue }   // public: r is part of the signature
            // Step 8: s = k⁻¹·(e + r·d) mod n.
            let kInverse = Scalar(k).invertedInConstantTime()
            let s = (kInverse * (Scalar(e) + Scalar(r) * Scalar(d))).value
            if s.isZero { continue }   // public likewise
            return (r, P256ConstantTimeScalar.lowS(s))
        }
    }
}
