import CryptoPrimitives

/// The deterministic nonces of RFC 6979 §3.2 (HMAC_DRBG seeded with the private key and the
/// message hash), for the variable-time test signer (`ECDSAPrivateKey`), and the reference the
/// tests compare CryptoPrimitives' constant-time `P256NonceGenerator` with. The order's bit length
/// (256, 384) is a multiple of 8, so bits2int is "the leftmost qlen/8 bytes" and int2octets
/// "rlen = qlen/8 bytes, big-endian".
///
/// Time: HMAC and SHA run the same code for any key and message of a given length; the range
/// check of a candidate is masked and only its answer is branched on. A candidate is refused
/// with probability below 2^−32 on P-256 (n > 2^256 − 2^224), and the refusal reveals nothing
/// but that a discarded value was out of range.
package struct DeterministicNonce<Curve: WeierstrassCurve> {
    private let hash: HashAlgorithm
    private var key: [UInt8]
    private var v: [UInt8]

    /// Steps a–f: `privateKey` is x (in [1, n − 1]); `digest` is h1 = H(m). `additionalData`
    /// k′ follows them in the seed of steps d and f (RFC 6979 §3.6: fresh randomness there hedges
    /// against faults and a broken hash, and an empty k′ is plain §3.2).
    package init(privateKey: LimbVector, digest: Digest, hash: HashAlgorithm, additionalData: [UInt8] = []) {
        self.hash = hash
        // int2octets(x) ‖ bits2octets(h1) ‖ k′
        let seed = Self.octets(privateKey) + Self.octets(ECDSAVerification<Curve>.truncatedDigest(digest)) + additionalData
        v = [UInt8](repeating: 0x01, count: hash.digestByteCount)   // b
        key = [UInt8](repeating: 0x00, count: hash.digestByteCount)   // c
        key = mac(v + [0x00] + seed)   // d
        v = mac(v)   // e
        key = mac(v + [0x01] + seed)   // f
        v = mac(v)   // g
    }

    /// Step h: the next candidate k in [1, n − 1] (each call after the first starts with the
    /// K, V update of step h.3, as the RFC says to do when a k is refused).
    package mutating func next() -> LimbVector {
        while true {
            var t: [UInt8] = []
            while t.count < Curve.byteCount {
                v = mac(v)
                t += v
            }
            let candidate = t.withUnsafeBytes { bytes in
                LimbVector(bigEndian: UnsafeRawBufferPointer(rebasing: bytes.prefix(Curve.byteCount)), count: Curve.Order.limbCount)!
            }
            key = mac(v + [0x00])
            v = mac(v)
            if Self.isInRange(candidate) { return candidate }
        }
    }

    /// Whether 1 ≤ candidate < n, by masks over every limb (only the answer depends on it).
    private static func isInRange(_ candidate: LimbVector) -> Bool {
        let count = Curve.Order.limbCount
        let below = candidate.subtractingInConstantTime(Curve.Order.modulus, count: count).borrowMask
        return below & ~candidate.isZeroMask(count: count) != 0
    }

    private func mac(_ message: [UInt8]) -> [UInt8] {
        HMAC.authenticationCode(for: message, key: key, algorithm: hash).bytes
    }

    /// int2octets: `Curve.byteCount` bytes, big-endian.
    package static func octets(_ value: LimbVector) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Curve.byteCount)
        bytes.withUnsafeMutableBytes { value.store(count: Curve.Order.limbCount, bigEndianInto: $0) }
        return bytes
    }
}
