/// HMAC-SHA-256 (RFC 2104, FIPS 198-1) under one 32-byte key, with the key's padded blocks
/// K ⊕ ipad and K ⊕ opad hashed once when the key is made (the precomputation of RFC 2104 §4):
/// each code then costs the message's blocks and one outer block. Allocation-free (the hashers
/// and digests are inline), for the signer's RFC 6979 generator (`P256NonceGenerator`).
struct HMACSHA256Key {
    private var inner = BlockHasher(SHA256State.sha256, digestByteCount: 32)
    private var outer = BlockHasher(SHA256State.sha256, digestByteCount: 32)

    /// The key's 32 bytes (a SHA-256 digest: RFC 6979 keys are HMAC outputs, or zeros).
    init(_ key: Digest) {
        var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &block) { raw in
            key.withUnsafeBytes { raw.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: 32) }
            for index in 0 ..< 64 { raw[index] ^= 0x36 }
            inner.update(UnsafeRawBufferPointer(raw))
            for index in 0 ..< 64 { raw[index] ^= 0x36 ^ 0x5c }
            outer.update(UnsafeRawBufferPointer(raw))
        }
    }

    /// The code of the message that `write` feeds to the inner hasher, in as many parts as it likes.
    @inline(__always)
    func authenticationCode(_ write: (inout BlockHasher<SHA256State>) -> Void) -> Digest {
        var inner = self.inner
        write(&inner)
        var outer = self.outer
        inner.finalize().withUnsafeBytes { outer.update($0) }
        return outer.finalize()
    }

    /// The code of one digest-sized message (RFC 6979's V).
    @inline(__always)
    func authenticationCode(_ message: Digest) -> Digest {
        authenticationCode { hasher in message.withUnsafeBytes { hasher.update($0) } }
    }
}
