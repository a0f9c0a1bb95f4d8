/// The deterministic nonces of RFC 6979 §3.2 (HMAC_DRBG seeded with the private key and the
/// message hash), for test signing. The order's bit length (256, 384) is a multiple of 8, so
/// bits2int is "the leftmost qlen/8 bytes" and int2octets "rlen = qlen/8 bytes, big-endian".
struct DeterministicNonce<Curve: WeierstrassCurve> {
    private let hash: HashAlgorithm
    private var key: [UInt8]
    private var v: [UInt8]

    /// Steps a–f: `privateKey` is x (in [1, n − 1]); `digest` is h1 = H(m).
    init(privateKey: LimbVector, digest: Digest, hash: HashAlgorithm) {
        self.hash = hash
        let seed = Self.octets(privateKey) + Self.octets(ECDSAVerification<Curve>.truncatedDigest(digest))   // int2octets(x) ‖ bits2octets(h1)
        v = [UInt8](repeating: 0x01, count: hash.digestByteCount)   // b
        key = [UInt8](repeating: 0x00, count: hash.digestByteCount)   // c
        key = mac(v + [0x00] + seed)   // d
        v = mac(v)   // e
        key = mac(v + [0x01] + seed)   // f
        v = mac(v)   // g
    }

    /// Step h: the next candidate k in [1, n − 1] (each call after the first starts with the
    /// K, V update of step h.3, as the RFC says to do when a k is refused).
    mutating func next() -> LimbVector {
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
            if !candidate.isZero && candidate.compare(Curve.Order.modulus, count: Curve.Order.limbCount) < 0 {
                return candidate
            }
        }
    }

    private func mac(_ message: [UInt8]) -> [UInt8] {
        HMAC.authenticationCode(for: message, key: key, algorithm: hash).bytes
    }

    /// int2octets: `Curve.byteCount` bytes, big-endian.
    static func octets(_ value: LimbVector) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Curve.byteCount)
        bytes.withUnsafeMutableBytes { value.store(count: Curve.Order.limbCount, bigEndianInto: $0) }
        return bytes
    }
}
