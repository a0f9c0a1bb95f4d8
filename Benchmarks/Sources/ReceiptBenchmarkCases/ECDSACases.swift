import COpenSSL
import Crypto
import CryptoPrimitives
import ReceiptTestSupport

/// `ecdsa-p256/verify` and `ecdsa-p384/verify`: one signature by a fixed test key
/// (`TestECKeys`), over the SHA-256 (P-256) or SHA-384 (P-384) digest of a short message. Every
/// peer verifies the given digest (no hashing inside the timed body), with its key and signature
/// parsed once outside it:
/// - ours: `ECDSAPublicKey(curve:x963Representation:)`, `isValidSignature(rawRepresentation:digest:)` (P1363);
///   in `ecdsa-p256/verify-table` the key made once with `withVerificationTable()` (its
///   precomputed multiples: how a server holds a key that signs many tokens), the peers unchanged;
/// - OpenSSL: `d2i_PUBKEY` of the key's SubjectPublicKeyInfo, `EVP_PKEY_verify` on a context
///   initialised once, with the DER `ECDSA-Sig-Value` (OpenSSL's native form);
/// - swift-crypto: `P256/P384.Signing.PublicKey(x963Representation:)`,
///   `isValidSignature(_:for:)` with the `ECDSASignature` and the `SHA256Digest`/`SHA384Digest`.
enum ECDSACases {
    static let p256Target = Target(maxRatio: [.openssl: 2.0], text: "≤2× openssl")
    static let p384Target = Target(maxRatio: [.openssl: 0.5], text: "≤0.5× openssl")

    static func verify(_ curve: EllipticCurve, table: Bool = false) throws -> BenchmarkCase {
        let key = curve == .p256 ? TestECKeys.p256[0] : TestECKeys.p384[0]
        let message = Array("App Store signed transaction benchmark".utf8)
        let digest = key.hashAlgorithm.hash(message)
        let signature = key.sign(digest: digest), der = key.signDER(digest: digest)
        let plain = try ECDSAPublicKey(curve: curve, x963Representation: key.x963)
        let ours = table ? plain.withVerificationTable() : plain
        let openssl = OpenSSLECVerifier(subjectPublicKeyInfo: subjectPublicKeyInfo(curve, key.x963))
        let digestBytes = digest.bytes
        let swift: @Sendable () -> Int
        if curve == .p256 {
            let input = try SwiftCryptoP256(x963: key.x963, signature: signature, message: message)
            swift = { input.verify() }
        } else {
            let input = try SwiftCryptoP384(x963: key.x963, signature: signature, message: message)
            swift = { input.verify() }
        }
        return BenchmarkCase(
            name: (curve == .p256 ? "ecdsa-p256/verify" : "ecdsa-p384/verify") + (table ? "-table" : ""), expected: 1,
            byteCount: message.count,
            implementations: [
                Implementation(peer: .ours, body: .sync { ours.isValidSignature(rawRepresentation: signature, digest: digest) ? 1 : 0 }),
                Implementation(peer: .openssl, body: .sync { openssl.verify(signature: der, digest: digestBytes) }),
                Implementation(peer: .swift, body: .sync(swift)),
            ], target: curve == .p256 ? p256Target : p384Target)
    }

    /// SubjectPublicKeyInfo { id-ecPublicKey, namedCurve } ‖ BIT STRING (RFC 5480 §2): the fixed
    /// DER prefix for each curve, then the uncompressed point.
    static func subjectPublicKeyInfo(_ curve: EllipticCurve, _ point: [UInt8]) -> [UInt8] {
        let prefix: [UInt8] =
            curve == .p256
            ? [
                0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
                0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
            ]
            : [
                0x30, 0x76, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
                0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22, 0x03, 0x62, 0x00,
            ]
        return prefix + point
    }
}

/// OpenSSL's ECDSA verification of a given digest: `EVP_PKEY_verify` on a context initialised once.
final class OpenSSLECVerifier: @unchecked Sendable {
    let key: OpaquePointer
    let context: OpaquePointer

    init(subjectPublicKeyInfo spki: [UInt8]) {
        let key = spki.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let key, let context = EVP_PKEY_CTX_new(key, nil), EVP_PKEY_verify_init(context) == 1
        else { fatalError("OpenSSL: EC key setup failed: \(OpenSSL.lastError())") }
        self.key = key
        self.context = context
    }

    deinit {
        EVP_PKEY_CTX_free(context)
        EVP_PKEY_free(key)
    }

    func verify(signature: [UInt8], digest: [UInt8]) -> Int {
        EVP_PKEY_verify(context, signature, signature.count, digest, digest.count) == 1 ? 1 : 0
    }
}

/// swift-crypto's P-256 verification of a given digest.
struct SwiftCryptoP256: @unchecked Sendable {
    let key: P256.Signing.PublicKey
    let signature: P256.Signing.ECDSASignature
    let digest: SHA256Digest

    init(x963: [UInt8], signature: [UInt8], message: [UInt8]) throws {
        key = try P256.Signing.PublicKey(x963Representation: x963)
        self.signature = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        digest = Crypto.SHA256.hash(data: message)
    }

    func verify() -> Int { key.isValidSignature(signature, for: digest) ? 1 : 0 }
}

/// swift-crypto's P-384 verification of a given digest.
struct SwiftCryptoP384: @unchecked Sendable {
    let key: P384.Signing.PublicKey
    let signature: P384.Signing.ECDSASignature
    let digest: SHA384Digest

    init(x963: [UInt8], signature: [UInt8], message: [UInt8]) throws {
        key = try P384.Signing.PublicKey(x963Representation: x963)
        self.signature = try P384.Signing.ECDSASignature(rawRepresentation: signature)
        digest = Crypto.SHA384.hash(data: message)
    }

    func verify() -> Int { key.isValidSignature(signature, for: digest) ? 1 : 0 }
}
