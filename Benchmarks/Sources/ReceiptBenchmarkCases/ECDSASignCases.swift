import COpenSSL
import Crypto
import CryptoPrimitives
import ReceiptTestSupport

/// `ecdsa-p256/sign`: one P-256 signature over the SHA-256 digest of a short message, by the
/// throwaway key `p256-1` (`TestECKeys`), the key made once outside the timed body:
/// - ours: `P256SigningKey(rawRepresentation:)`, `signature(for:)` (constant time, RFC 6979
///   nonce, low S, P1363 r ‖ s); deterministic, so each result is compared with the first;
/// - OpenSSL: `d2i_AutoPrivateKey` of the key's SEC 1 DER, `EVP_PKEY_sign` on a context
///   initialised once (random nonce, DER signature);
/// - swift-crypto: `P256.Signing.PrivateKey(rawRepresentation:)`, `signature(for:)` of the
///   `SHA256Digest` (BoringSSL, random nonce).
/// Each body returns 1 for a signature of the expected shape.
enum ECDSASignCases {
    static let target = Target(maxRatio: [.swift: 1.0], text: "≤1.0× swift-crypto")

    /// TestECKeys.p256[0]'s private scalar (public: a throwaway test key).
    static let scalar = hexBytes("36be04f49452dcc4ad05ff03c9213b7002238ef5e208582fb6b035b3cf49709d")

    static func sign() throws -> BenchmarkCase {
        let message = Array("App Store Server API token benchmark".utf8)
        let digest = HashAlgorithm.sha256.hash(message)
        let ours = try P256SigningKey(rawRepresentation: scalar)
        let expected = ours.signature(for: digest)
        let openssl = OpenSSLECSigner(sec1: sec1(scalar: scalar, point: ours.publicKey.x963Representation))
        let swift = try SwiftCryptoP256Signer(scalar: scalar, message: message)
        let digestBytes = digest.bytes
        return BenchmarkCase(
            name: "ecdsa-p256/sign", expected: 1, byteCount: message.count,
            implementations: [
                Implementation(peer: .ours, body: .sync { ours.signature(for: digest) == expected ? 1 : 0 }),
                Implementation(peer: .openssl, body: .sync { openssl.sign(digest: digestBytes) }),
                Implementation(peer: .swift, body: .sync { swift.sign() }),
            ], target: target)
    }

    /// ECPrivateKey { 1, d, [0] prime256v1, [1] point } (RFC 5915 §3), 121 bytes.
    static func sec1(scalar: [UInt8], point: [UInt8]) -> [UInt8] {
        let curve: [UInt8] = [0xa0, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]
        let body = [0x02, 0x01, 0x01, 0x04, 0x20] + scalar + curve + [0xa1, 0x44, 0x03, 0x42, 0x00] + point
        return [0x30, UInt8(body.count)] + body
    }

    static func hexBytes(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8).map { $0 <= 0x39 ? $0 - 0x30 : ($0 | 0x20) - 0x61 + 10 }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }
}

/// OpenSSL's ECDSA signing of a given digest: `EVP_PKEY_sign` on a context initialised once.
final class OpenSSLECSigner: @unchecked Sendable {
    let key: OpaquePointer
    let context: OpaquePointer

    init(sec1 der: [UInt8]) {
        let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let key, let context = EVP_PKEY_CTX_new(key, nil), EVP_PKEY_sign_init(context) == 1
        else { fatalError("OpenSSL: EC signing key setup failed: \(OpenSSL.lastError())") }
        self.key = key
        self.context = context
    }

    deinit {
        EVP_PKEY_CTX_free(context)
        EVP_PKEY_free(key)
    }

    /// 1 when a DER signature (at most 72 bytes) came out.
    func sign(digest: [UInt8]) -> Int {
        var signature = [UInt8](repeating: 0, count: 72)
        var length = signature.count
        let status = EVP_PKEY_sign(context, &signature, &length, digest, digest.count)
        return status == 1 && length > 8 ? 1 : 0
    }
}

/// swift-crypto's P-256 signing of a given digest.
struct SwiftCryptoP256Signer: @unchecked Sendable {
    let key: P256.Signing.PrivateKey
    let digest: SHA256Digest

    init(scalar: [UInt8], message: [UInt8]) throws {
        key = try P256.Signing.PrivateKey(rawRepresentation: scalar)
        digest = Crypto.SHA256.hash(data: message)
    }

    /// 1 when a 64-byte r ‖ s came out.
    func sign() -> Int {
        guard let signature = try? key.signature(for: digest) else { return 0 }
        return signature.rawRepresentation.count == 64 ? 1 : 0
    }
}
