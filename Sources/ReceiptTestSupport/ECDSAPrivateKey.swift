import CryptoPrimitives

/// An ECDSA private key on P-256 or P-384 that signs digests with RFC 6979 deterministic nonces,
/// for building synthetic test data (certificate chains, JWS tokens).
///
/// Test support only (`package` access): not constant time, no side-channel care at all.
/// The nonce's HMAC_DRBG uses SHA-256 for P-256 keys and SHA-384 for P-384 keys, whatever hash
/// made the digest (RFC 6979 §3.2 uses the message's hash; the two agree for ES256 and
/// ecdsa-with-SHA384, which is what the RFC's A.2.5/A.2.6 vectors check).
package struct ECDSAPrivateKey: Sendable {
    /// The matching public key.
    package let publicKey: ECDSAPublicKey
    /// d, in [1, n − 1].
    private let scalar: LimbVector

    /// The curve of the key.
    package var curve: EllipticCurve { publicKey.curve }

    /// The public key as an uncompressed point 0x04 ‖ X ‖ Y.
    package var x963Representation: [UInt8] { publicKey.x963Representation }

    /// A key from the big-endian private scalar d (leading zeros allowed); traps unless
    /// 1 ≤ d < n (test input).
    package init(curve: EllipticCurve, rawRepresentation bytes: [UInt8]) {
        let scalar: LimbVector? = bytes.withUnsafeBytes { raw in
            switch curve {
            case .p256: ECDSAVerification<P256>.scalar(raw)
            case .p384: ECDSAVerification<P384>.scalar(raw)
            }
        }
        guard let scalar else { preconditionFailure("EC private key is not in [1, n − 1]") }
        self.scalar = scalar
        publicKey =
            switch curve {
            case .p256: Self.publicKey(scalar, on: P256.self, curve: curve)
            case .p384: Self.publicKey(scalar, on: P384.self, curve: curve)
            }
    }

    /// The IEEE P1363 signature r ‖ s (2 × `curve.byteCount` bytes) of an already computed
    /// digest (FIPS 186-5 §6.4.1, k from RFC 6979 §3.2).
    package func signature(for digest: Digest) -> [UInt8] {
        switch curve {
        case .p256: ECDSASigning<P256>.sign(digest: digest, privateKey: scalar, nonceHash: .sha256)
        case .p384: ECDSASigning<P384>.sign(digest: digest, privateKey: scalar, nonceHash: .sha384)
        }
    }

    /// The RFC 6979 nonce k this key uses for `digest` (big-endian, `curve.byteCount` bytes), so
    /// that tests can compare it with the RFC's vectors.
    package func nonce(for digest: Digest) -> [UInt8] {
        switch curve {
        case .p256:
            var nonces = DeterministicNonce<P256>(privateKey: scalar, digest: digest, hash: .sha256)
            return DeterministicNonce<P256>.octets(nonces.next())
        case .p384:
            var nonces = DeterministicNonce<P384>(privateKey: scalar, digest: digest, hash: .sha384)
            return DeterministicNonce<P384>.octets(nonces.next())
        }
    }

    private static func publicKey<Curve: WeierstrassCurve>(_ d: LimbVector, on _: Curve.Type, curve: EllipticCurve) -> ECDSAPublicKey {
        guard let point = ECDSASigning<Curve>.multiplyGenerator(d).affine() else { preconditionFailure("d·G is infinity: d is 0 mod n") }
        let x963 = [0x04] + DeterministicNonce<Curve>.octets(point.x.value) + DeterministicNonce<Curve>.octets(point.y.value)
        do {
            return try ECDSAPublicKey(curve: curve, x963Representation: x963)
        } catch {
            preconditionFailure("d·G is not a valid public key: \(error)")
        }
    }
}

/// ECDSA signature generation, FIPS 186-5 §6.4.1 (SEC 1 §4.1.3), for test signing: variable
/// time, on CryptoPrimitives' verification arithmetic (`package` there).
enum ECDSASigning<Curve: WeierstrassCurve> {
    typealias Scalar = MontgomeryResidue<Curve.Order>

    /// k·G (the joint multiplication with no public-key term).
    static func multiplyGenerator(_ k: LimbVector) -> JacobianPoint<Curve> {
        JointMultiplication<Curve>.multiply(generatorScalar: k, publicKeyScalar: .zero, publicKey: .generator)
    }

    static func sign(digest: Digest, privateKey d: LimbVector, nonceHash: HashAlgorithm) -> [UInt8] {
        let e = ECDSAVerification<Curve>.truncatedDigest(digest)
        var nonces = DeterministicNonce<Curve>(privateKey: d, digest: digest, hash: nonceHash)
        while true {
            let k = nonces.next()
            // r = x(k·G) mod n; x < p < 2n, so one subtraction reduces it.
            guard let point = multiplyGenerator(k).affine() else { continue }
            let x = point.x.value
            let (difference, borrow) = x.subtracting(Curve.Order.modulus, count: Curve.Order.limbCount)
            let r = borrow == 0 ? difference : x
            guard !r.isZero else { continue }
            // s = k⁻¹·(e + r·d) mod n.
            let s = (Scalar(k).inverse() * (Scalar(e) + Scalar(r) * Scalar(d))).value
            guard !s.isZero else { continue }
            return DeterministicNonce<Curve>.octets(r) + DeterministicNonce<Curve>.octets(s)
        }
    }
}
