import CryptoPrimitives
import DER

/// A throwaway ECDSA key (P-256 or P-384) for synthetic certificates and JWS tokens. Never trust
/// anything signed with it.
///
/// The private scalars were drawn once at random (Python `cryptography`,
/// `ec.generate_private_key`) and copied here; they are public now and prove nothing outside
/// tests. Signatures are deterministic (RFC 6979), so test data built with these keys is
/// reproducible byte for byte.
public struct TestECSigningKey: Sendable {
    /// A short label, such as `p256-1`.
    public let name: String
    private let privateKey: ECDSAPrivateKey

    /// The curve of the key.
    public var curve: EllipticCurve { privateKey.curve }

    /// The public half, for verifying what this key signs.
    public var publicKey: ECDSAPublicKey { privateKey.publicKey }

    /// The public key as the uncompressed point 0x04 ‖ X ‖ Y (the BIT STRING content of an
    /// `id-ecPublicKey` SubjectPublicKeyInfo, RFC 5480 §2.2; JWK's x and y are its two halves).
    public var x963: [UInt8] { privateKey.x963Representation }

    /// The hash that goes with the curve: SHA-256 for P-256 (ES256, ecdsa-with-SHA256), SHA-384
    /// for P-384 (ecdsa-with-SHA384).
    public var hashAlgorithm: HashAlgorithm { curve == .p256 ? .sha256 : .sha384 }

    /// The IEEE P1363 signature r ‖ s (2 × `curve.byteCount` bytes, as JWS carries it) of an
    /// already computed digest of any length.
    public func sign(digest: Digest) -> [UInt8] {
        privateKey.signature(for: digest)
    }

    /// Hashes `message` with `hashAlgorithm` and signs the digest (P1363).
    public func sign(message: [UInt8]) -> [UInt8] {
        sign(digest: hashAlgorithm.hash(message))
    }

    /// The same signature as DER `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }`
    /// (RFC 5480 §2.2 / RFC 5758 §3.2: what certificates carry in their signature BIT STRING).
    public func signDER(digest: Digest) -> [UInt8] {
        let signature = sign(digest: digest), half = curve.byteCount
        var writer = DERWriter()
        writer.appendSequence { sequence in
            sequence.appendUnsignedInteger(signature[0 ..< half])
            sequence.appendUnsignedInteger(signature[half...])
        }
        return writer.bytes
    }

    /// Hashes `message` with `hashAlgorithm` and signs the digest (DER).
    public func signDER(message: [UInt8]) -> [UInt8] {
        signDER(digest: hashAlgorithm.hash(message))
    }

    fileprivate init(name: String, curve: EllipticCurve, privateKey hex: String) {
        self.name = name
        privateKey = ECDSAPrivateKey(curve: curve, rawRepresentation: hexBytes(hex))
    }
}

/// The throwaway ECDSA keys, by curve.
public enum TestECKeys: Sendable {
    /// Three P-256 keys (secp256r1): JWS leaves (ES256).
    public static let p256: [TestECSigningKey] = [
        TestECSigningKey(name: "p256-1", curve: .p256, privateKey: "36be04f49452dcc4ad05ff03c9213b7002238ef5e208582fb6b035b3cf49709d"),
        TestECSigningKey(name: "p256-2", curve: .p256, privateKey: "0191d949a1dbd490dafb0280343f5ac36d2bfda3dc7ea4fccba4f9d1ac51574e"),
        TestECSigningKey(name: "p256-3", curve: .p256, privateKey: "e7a6cddb1a3683e8b825355c00409d1e4802b1222a4df8a8361f9000e6ed4c1c"),
    ]

    /// Three P-384 keys (secp384r1): G3-shaped roots and intermediates (ecdsa-with-SHA384).
    public static let p384: [TestECSigningKey] = [
        TestECSigningKey(
            name: "p384-1", curve: .p384,
            privateKey: "2e01f9849569c149d49b8d776429473ad3616fedefe078c6514edaac097591388372b495cc853e4b667ef509591c51b6"),
        TestECSigningKey(
            name: "p384-2", curve: .p384,
            privateKey: "c52d9bb82041f22b48ea06285a9e14fd2a2bc67aa95755ac424ab3679999fdc9d27f0c3c5a2bfebfd89d562930fbeefc"),
        TestECSigningKey(
            name: "p384-3", curve: .p384,
            privateKey: "95b10b8cba5520f6ac553a457dc2e155dbeeb0fc3d7b777fa15cc5031cec83e9ab1654722ae52df2d2bd103d9b7127c4"),
    ]
}
