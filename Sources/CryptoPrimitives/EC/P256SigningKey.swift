/// A P-256 private key that makes ECDSA signatures in constant time (FIPS 186-5 §6.4.1, SEC 1
/// §4.1.3): ES256 for JWS and JWT (RFC 7518 §3.4), App Store Server API tokens, promotional
/// offer signatures.
///
/// Signing takes the same instructions and touches the same addresses for every key and every
/// digest of a given length: the generator is multiplied by signed six-bit windows with every
/// table entry read and one kept by masks, points are added with the infinity cases chosen by
/// masks (and P = ±Q shown impossible), Z⁻¹ and k⁻¹ are computed by a fixed number of divsteps,
/// and every reduction is masked (`P256ConstantTimeSigning`). Nonces are deterministic (RFC 6979 §3.2, HMAC-SHA-256)
/// unless the caller adds fresh randomness (`signature(for:additionalRandomness:)`, §3.6);
/// signatures are low-S. Benchmarks/README.md records how the constant-time claim was checked.
///
/// The key's description and reflection do not show the private scalar (Embedded Swift has no
/// reflection at all). Read keys from files (PKCS#8 `.p8`, SEC 1 PEM) with `P256PrivateKeyFile`
/// in X509Certificates.
public struct P256SigningKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The public key d·G, for verification (`ECDSAPublicKey.isValidSignature`).
    public let publicKey: ECDSAPublicKey
    /// d, plain, in [1, n − 1].
    private let scalar: LimbVector

    /// A key from the 32-byte big-endian private scalar d (SEC 1 §2.3.7). The check
    /// 1 ≤ d < n is made with masks: whether it failed is revealed, not where.
    public init(rawRepresentation bytes: UnsafeRawBufferPointer) throws(P256SigningKeyError) {
        guard bytes.count == 32 else { throw .wrongLength(actual: bytes.count) }
        let scalar = LimbVector(bigEndian: bytes, count: 4)!   // 32 bytes always fit
        guard P256ConstantTimeScalar.isInRange(scalar) else { throw .scalarOutOfRange }
        self.scalar = scalar
        let point = P256ConstantTimeSigning.publicPoint(scalar)
        publicKey = ECDSAPublicKey(curve: .p256, x: point.x.montgomery, y: point.y.montgomery)
    }

    /// A key from the private scalar held in an array; see the buffer initializer.
    public init(rawRepresentation bytes: [UInt8]) throws(P256SigningKeyError) {
        let key = bytes.withUnsafeBytes { raw in
            Result { () throws(P256SigningKeyError) in try P256SigningKey(rawRepresentation: raw) }
        }
        self = try key.get()
    }

    /// The 32-byte big-endian private scalar d (to write the key elsewhere; handle with care).
    public var rawRepresentation: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeMutableBytes { scalar.store(count: 4, bigEndianInto: $0) }
        return bytes
    }

    /// The IEEE P1363 signature r ‖ s (64 bytes, what JWS carries) of an already computed
    /// digest, with the RFC 6979 nonce: the same key and digest always give the same signature.
    /// A digest longer than 32 bytes is truncated to its leftmost 256 bits (FIPS 186-5 §6.4.1).
    public func signature(for digest: Digest) -> [UInt8] {
        encoded(P256ConstantTimeSigning.sign(digest: digest, privateKey: scalar, additionalData: []))
    }

    /// A hedged signature: as `signature(for:)`, with `additionalRandomness` (say 32 fresh
    /// random bytes) mixed into the nonce generator's seed (RFC 6979 §3.6). The nonce stays
    /// secret and unique if either the randomness or the deterministic derivation is sound.
    public func signature(for digest: Digest, additionalRandomness: [UInt8]) -> [UInt8] {
        encoded(P256ConstantTimeSigning.sign(digest: digest, privateKey: scalar, additionalData: additionalRandomness))
    }

    /// A hedged signature with 32 fresh bytes from `SystemRandomNumberGenerator` (the
    /// operating system's generator) as the additional randomness: two calls give different
    /// signatures, each as safe as the deterministic one if the generator fails.
    public func hedgedSignature(for digest: Digest) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var randomness: [UInt8] = []
        for _ in 0 ..< 4 { withUnsafeBytes(of: generator.next() as UInt64) { randomness += $0 } }
        return signature(for: digest, additionalRandomness: randomness)
    }

    /// The signature as DER, `SEQUENCE { r INTEGER, s INTEGER }` (SEC 1 §C.8, RFC 3279 §2.2.3),
    /// as X.509 and CMS carry ECDSA signatures.
    public func derSignature(for digest: Digest) -> [UInt8] {
        ECDSASignatureDER.encode(rawRepresentation: signature(for: digest))
    }

    /// A description without the private scalar.
    public var description: String { "P256SigningKey(publicKey: \(publicKey.x963Representation.count) bytes, private scalar hidden)" }
    /// The same as `description`: the private scalar is never shown.
    public var debugDescription: String { description }

    /// r ‖ s, 32 bytes each, big-endian, in one allocation.
    private func encoded(_ signature: (r: LimbVector, s: LimbVector)) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 64) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            signature.r.store(count: 4, bigEndianInto: UnsafeMutableRawBufferPointer(rebasing: raw[0 ..< 32]))
            signature.s.store(count: 4, bigEndianInto: UnsafeMutableRawBufferPointer(rebasing: raw[32 ..< 64]))
            count = 64
        }
    }
}

#if !hasFeature(Embedded)
    // Embedded Swift has neither `Mirror` nor `dump`; elsewhere the mirror hides the scalar.
    extension P256SigningKey: CustomReflectable {
        /// A mirror with the public key only, so that `dump` and reflection do not show the scalar.
        public var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey]) }
    }
#endif
