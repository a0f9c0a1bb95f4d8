/// An RSA public key that verifies RSASSA-PKCS1-v1_5 signatures (RFC 8017 §8.2.2).
///
/// Creating a key is cheap (the only Montgomery constant is −n⁻¹ mod 2^64, no R² mod n), since a
/// key is built from its certificate on every verification. Verifying is one modular
/// exponentiation by the public exponent and a comparison of the whole encoded block.
public struct RSAPublicKey: Sendable, Hashable {
    /// The modulus sizes this type accepts, in bits.
    public static let supportedModulusBits: ClosedRange<Int> = 1024 ... 8192

    let modulusValue: MontgomeryModulus
    let exponentValue: UInt64

    /// The number of significant bits of the modulus.
    public let modulusBitCount: Int

    /// The modulus length in bytes, k in RFC 8017: every signature has exactly this length.
    public var modulusByteCount: Int { (modulusBitCount + 7) / 8 }

    /// The modulus, minimal big-endian.
    public var modulus: [UInt8] { Limbs.minimalBigEndian(modulusValue.limbs) }

    /// The public exponent, minimal big-endian.
    public var exponent: [UInt8] { Limbs.minimalBigEndian([exponentValue]) }

    /// Creates a key from big-endian unsigned magnitudes; leading zero bytes are allowed and ignored.
    ///
    /// The modulus must be odd with 1024…8192 bits; the exponent odd, at least 3, at most 64 bits.
    public init(modulus: UnsafeRawBufferPointer, exponent: UnsafeRawBufferPointer) throws(RSAKeyError) {
        try self.init(modulusLimbs: Limbs.minimal(bigEndian: modulus), exponentLimbs: Limbs.minimal(bigEndian: exponent))
    }

    /// Creates a key from big-endian unsigned magnitudes; see `init(modulus:exponent:)`.
    public init(modulus: [UInt8], exponent: [UInt8]) throws(RSAKeyError) {
        try self.init(
            modulusLimbs: modulus.withUnsafeBytes { Limbs.minimal(bigEndian: $0) },
            exponentLimbs: exponent.withUnsafeBytes { Limbs.minimal(bigEndian: $0) })
    }

    /// The checks, on minimal little-endian limbs.
    init(modulusLimbs n: [UInt64], exponentLimbs e: [UInt64]) throws(RSAKeyError) {
        guard !n.isEmpty else { throw .modulusIsZero }
        let bits = Limbs.bitCount(n)
        guard bits >= Self.supportedModulusBits.lowerBound else { throw .modulusTooSmall(bits: bits) }
        guard bits <= Self.supportedModulusBits.upperBound else { throw .modulusTooLarge(bits: bits) }
        guard n[0] & 1 == 1 else { throw .modulusIsEven }
        guard e.count <= 1 else { throw .exponentTooLarge }   // e < n holds: n has ≥ 1024 bits
        let value = e.first ?? 0
        guard value >= 3 else { throw .exponentTooSmall }
        guard value & 1 == 1 else { throw .exponentIsEven }
        modulusValue = MontgomeryModulus(n)
        exponentValue = value
        modulusBitCount = bits
    }

    /// RSASSA-PKCS1-v1_5 verification, RFC 8017 §8.2.2, given the already computed digest.
    ///
    /// Requires the signature to be exactly `modulusByteCount` bytes and, as an integer, below the
    /// modulus; computes s^e mod n; builds the one valid encoding `00 01 FF…FF 00 ‖ DigestInfo ‖ hash`
    /// and compares all of it. The decrypted block is never parsed. A digest whose length does not
    /// match `algorithm` is rejected.
    public func isValidSignature(_ signature: UnsafeRawBufferPointer, digest: Digest, algorithm: HashAlgorithm) -> Bool {
        let byteCount = modulusByteCount
        guard signature.count == byteCount, digest.count == algorithm.digestByteCount else { return false }   // step 1
        let count = modulusValue.count
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * count) { limbs in
            let s = limbs.baseAddress!, m = s + count
            guard Limbs.load(bigEndian: signature, into: s, count: count) else { return false }
            let isBelowModulus = modulusValue.limbs.withUnsafeBufferPointer { n in
                Limbs.compare(s, n.baseAddress!, count: count) < 0   // §5.2.2 step 1
            }
            guard isBelowModulus else { return false }
            modulusValue.withArithmetic { $0.power(m, s, exponent: exponentValue) }   // §5.2.2 step 2
            return withUnsafeTemporaryAllocation(byteCount: 2 * byteCount, alignment: 8) { bytes in
                let encoded = UnsafeMutableRawBufferPointer(rebasing: bytes[0 ..< byteCount])
                let expected = UnsafeMutableRawBufferPointer(rebasing: bytes[byteCount...])
                Limbs.store(m, count: count, bigEndianInto: encoded)   // §8.2.2 step 2c
                guard PKCS1.encode(digest, algorithm, into: expected) else { return false }   // step 3
                return constantTimeEquals(UnsafeRawBufferPointer(encoded), UnsafeRawBufferPointer(expected))   // step 4
            }
        }
    }

    /// RSASSA-PKCS1-v1_5 verification of a signature held in an array; see the buffer overload.
    public func isValidSignature(_ signature: [UInt8], digest: Digest, algorithm: HashAlgorithm) -> Bool {
        signature.withUnsafeBytes { isValidSignature($0, digest: digest, algorithm: algorithm) }
    }
}
