/// RFC 6979 §3.2's nonces for P-256 with SHA-256 (HMAC_DRBG seeded with the private key and the
/// digest; §3.6's additional data k′ after them), as ReceiptTestSupport's `DeterministicNonce`
/// computes them (the tests compare the two), without allocating: the HMAC keys' padded blocks
/// are hashed once per key (`HMACSHA256Key`), V and K are inline digests, and step h.3's update
/// of K and V is made only when a second candidate is asked for. qlen = hlen = 256, so one V is
/// one candidate (bits2int of 32 bytes).
///
/// Time: SHA-256 runs the same code for any key and message of a given length; a candidate's
/// range check is masked and only its answer is branched on (refused with probability below
/// 2^−32, revealing only that a discarded value was out of range).
struct P256NonceGenerator {
    private var key: HMACSHA256Key
    private var v: Digest
    private var refreshed = true

    /// The HMAC key of step c, 32 zero bytes, with its padded blocks hashed once per process.
    private static let zeroKey = HMACSHA256Key(Digest(byteCount: 32) { _ in })

    /// Steps a–g for the private key x in [1, n − 1] and the digest h1 (bits2octets: the leftmost
    /// 256 bits, reduced mod n).
    init(privateKey: LimbVector, digest: Digest, additionalData: [UInt8]) {
        var seed: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &seed) { raw in
            privateKey.store(count: 4, bigEndianInto: UnsafeMutableRawBufferPointer(rebasing: raw[0 ..< 32]))
            let h1 = ECDSAVerification<P256>.truncatedDigest(digest)   // reduced mod n
            h1.store(count: 4, bigEndianInto: UnsafeMutableRawBufferPointer(rebasing: raw[32 ..< 64]))
        }
        // V ‖ separator ‖ int2octets(x) ‖ bits2octets(h1) ‖ k′ (steps d and f).
        func seeded(_ key: HMACSHA256Key, _ v: Digest, separator: UInt8) -> Digest {
            key.authenticationCode { hasher in
                v.withUnsafeBytes { hasher.update($0) }
                withUnsafeBytes(of: separator) { hasher.update($0) }
                withUnsafeBytes(of: seed) { hasher.update($0) }
                additionalData.withUnsafeBytes { hasher.update($0) }
            }
        }
        var v = Digest(byteCount: 32) { _ = $0.initializeMemory(as: UInt8.self, repeating: 0x01, count: 32) }   // b
        var key = HMACSHA256Key(seeded(Self.zeroKey, v, separator: 0x00))   // c, d
        v = key.authenticationCode(v)   // e
        key = HMACSHA256Key(seeded(key, v, separator: 0x01))   // f
        self.key = key
        self.v = key.authenticationCode(v)   // g
    }

    /// Step h: the next candidate k in [1, n − 1]. Every call after the first starts with step
    /// h.3's K = HMAC_K(V ‖ 0x00), V = HMAC_K(V), as the RFC does after a refused k.
    mutating func next() -> LimbVector {
        while true {
            if !refreshed {
                let v = self.v
                let newKey = key.authenticationCode { hasher in
                    v.withUnsafeBytes { hasher.update($0) }
                    withUnsafeBytes(of: 0 as UInt8) { hasher.update($0) }
                }
                key = HMACSHA256Key(newKey)
                self.v = key.authenticationCode(v)
            }
            refreshed = false
            v = key.authenticationCode(v)   // h.2: T = V, 256 bits
            let candidate = v.withUnsafeBytes { LimbVector(bigEndian: $0, count: 4)! }
            if P256ConstantTimeScalar.isInRange(candidate) { return candidate }
        }
    }
}
