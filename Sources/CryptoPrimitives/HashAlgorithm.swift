/// A hash algorithm chosen at run time, as named by an algorithm identifier in a certificate or
/// a PKCS#7 signer.
public enum HashAlgorithm: Sendable, Hashable {
    /// SHA-1 (FIPS 180-4 §6.1), 20-byte digests.
    case sha1
    /// SHA-224 (§6.3), 28-byte digests.
    case sha224
    /// SHA-256 (§6.2), 32-byte digests.
    case sha256
    /// SHA-384 (§6.5), 48-byte digests.
    case sha384
    /// SHA-512 (§6.4), 64-byte digests.
    case sha512

    /// The digest length in bytes: 20, 28, 32, 48 or 64.
    public var digestByteCount: Int {
        switch self {
        case .sha1: SHA1.digestByteCount
        case .sha224: SHA224.digestByteCount
        case .sha256: SHA256.digestByteCount
        case .sha384: SHA384.digestByteCount
        case .sha512: SHA512.digestByteCount
        }
    }

    /// The digest of `bytes`.
    public func hash(_ bytes: UnsafeRawBufferPointer) -> Digest {
        switch self {
        case .sha1: SHA1.hash(bytes)
        case .sha224: SHA224.hash(bytes)
        case .sha256: SHA256.hash(bytes)
        case .sha384: SHA384.hash(bytes)
        case .sha512: SHA512.hash(bytes)
        }
    }

    /// The digest of the bytes of an array.
    public func hash(_ bytes: [UInt8]) -> Digest {
        bytes.withUnsafeBytes { hash($0) }
    }
}
