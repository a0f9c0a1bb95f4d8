import CryptoPrimitives

/// HMAC (RFC 2104, FIPS 198-1) over a hash chosen at run time: H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)).
/// Test support (`package` access) for RFC 6979 nonces (`DeterministicNonce`); the constant-time
/// P-256 signer has its own (`HMACSHA256Key` in CryptoPrimitives).
package enum HMAC {
    /// The MAC of `message` under `key`. Keys longer than the block are hashed first (RFC 2104 §2).
    package static func authenticationCode(for message: [UInt8], key: [UInt8], algorithm: HashAlgorithm) -> Digest {
        let blockByteCount = blockByteCount(algorithm)
        var block = key.count > blockByteCount ? algorithm.hash(key).bytes : key
        block += [UInt8](repeating: 0, count: blockByteCount - block.count)
        var inner = DigestHasher(algorithm)
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = DigestHasher(algorithm)
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize().bytes)
        return outer.finalize()
    }

    /// B in RFC 2104: 64 bytes for SHA-1 and SHA-224/256, 128 for SHA-384/512 (FIPS 180-4 §1).
    static func blockByteCount(_ algorithm: HashAlgorithm) -> Int {
        switch algorithm {
        case .sha1, .sha224, .sha256: 64
        case .sha384, .sha512: 128
        }
    }
}
