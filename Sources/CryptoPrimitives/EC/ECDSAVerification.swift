/// ECDSA signature verification, FIPS 186-5 §6.4.2 (SEC 1 §4.1.4), for one curve.
///
/// Everything it handles is public (the key, the signature, the digest), so it is not constant
/// time: inversion modulo n by variable-time divsteps (P-256) or the binary extended Euclidean
/// algorithm (P-384), branches on wNAF digits and on the exceptional cases of point addition.
package enum ECDSAVerification<Curve: WeierstrassCurve> {
    typealias Scalar = MontgomeryResidue<Curve.Order>
    typealias Element = MontgomeryResidue<Curve.Field>

    static func isValid(
        r rBytes: UnsafeRawBufferPointer, s sBytes: UnsafeRawBufferPointer, digest: Digest,
        publicKey: AffinePoint<Curve>
    ) -> Bool {
        guard let (u1, u2, r) = scalars(r: rBytes, s: sBytes, digest: digest) else { return false }
        // Steps 6–8: R = u1·G + u2·Q, not the point at infinity, and x(R) mod n = r (P-256 on its
        // dedicated field, other curves by `jointMultipleMatches` below).
        return Curve.jointMultipleMatches(generatorScalar: u1, publicKeyScalar: u2, publicKey: publicKey, r: r)
    }

    /// Steps 1–5: u1 and u2 (plain, below n) and r, or `nil` when r or s is not in [1, n − 1].
    static func scalars(
        r rBytes: UnsafeRawBufferPointer, s sBytes: UnsafeRawBufferPointer, digest: Digest
    ) -> (u1: LimbVector, u2: LimbVector, r: LimbVector)? {
        // Step 1: r and s are integers in [1, n − 1].
        guard let r = scalar(rBytes), let s = scalar(sBytes) else { return nil }
        // Steps 2–3: e = the leftmost bits of the hash, as many as n has (FIPS 186-5 §6.4.2 step
        // 3, SEC 1 §4.1.4 step 5); any hash length works.
        let e = truncatedDigest(digest)
        // Step 4: w = s⁻¹ mod n (kept in Montgomery form, s⁻¹·R).
        let w = Scalar(Scalar.plainInverse(s))
        // Step 5: u1 = e·w, u2 = r·w; a Montgomery product with one plain operand is plain.
        return ((Scalar(montgomery: e) * w).montgomery, (Scalar(montgomery: r) * w).montgomery, r)
    }

    /// Steps 6–8 on the generic field arithmetic: R = u1·G + u2·Q; the point at infinity fails;
    /// x(R) mod n = r.
    static func jointMultipleMatches(
        generatorScalar u1: LimbVector, publicKeyScalar u2: LimbVector, publicKey: AffinePoint<Curve>, r: LimbVector
    ) -> Bool {
        let point = JointMultiplication<Curve>.multiply(generatorScalar: u1, publicKeyScalar: u2, publicKey: publicKey)
        guard !point.isInfinity else { return false }
        return xCoordinate(of: point, reducesTo: r)
    }

    /// A big-endian magnitude as a scalar in [1, n − 1], else `nil`.
    package static func scalar(_ bytes: UnsafeRawBufferPointer) -> LimbVector? {
        guard let value = LimbVector(bigEndian: bytes, count: Curve.Order.limbCount), !value.isZero,
            value.compare(Curve.Order.modulus, count: Curve.Order.limbCount) < 0
        else { return nil }
        return value
    }

    /// The leftmost `byteCount` bytes of the digest (all of a shorter one) as an integer,
    /// reduced modulo n (below 2n already, so one subtraction, kept by a mask: the signer's
    /// digests are secret enough that their time should not depend on them).
    package static func truncatedDigest(_ digest: Digest) -> LimbVector {
        let count = Curve.Order.limbCount
        let value = digest.withUnsafeBytes { bytes in
            LimbVector(bigEndian: UnsafeRawBufferPointer(rebasing: bytes.prefix(Curve.byteCount)), count: count)!
        }
        let (difference, borrowed) = value.subtractingInConstantTime(Curve.Order.modulus, count: count)
        return LimbVector.select(borrowed, value, difference, count: count)
    }

    /// Whether x(R) ≡ r (mod n) for the Jacobian R = (X : Y : Z), without inverting Z: x(R) =
    /// X/Z² lies in [0, p), and p < 2n, so x(R) mod n = r means x(R) = r or x(R) = r + n (the
    /// latter only when r + n < p). Each test is X = candidate·Z² in the field.
    static func xCoordinate(of point: JacobianPoint<Curve>, reducesTo r: LimbVector) -> Bool {
        let count = Curve.Field.limbCount
        let z2 = point.z.squared()
        if Element(r) * z2 == point.x { return true }   // r < n < p
        let (candidate, carry) = r.adding(Curve.Order.modulus, count: count)
        guard carry == 0, candidate.compare(Curve.Field.modulus, count: count) < 0 else { return false }
        return Element(candidate) * z2 == point.x
    }
}
