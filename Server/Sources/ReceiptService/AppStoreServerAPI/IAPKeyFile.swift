import Crypto
import CryptoPrimitives
import Foundation

/// The public key of an In-App Purchase key file: the `.p8` App Store Connect gives (PEM
/// `PRIVATE KEY`, PKCS#8 of an EC P-256 private key, RFC 5208 / RFC 5915), whose public key is
/// derived and the private key dropped, or a PEM `PUBLIC KEY` (SubjectPublicKeyInfo, RFC 5480).
enum IAPKeyFile {
    /// Why a file is not an In-App Purchase key.
    enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case notPEM
        case encrypted
        case unsupportedLabel(String)
        case notP256(String)

        var description: String {
            switch self {
            case .notPEM:
                "not a PEM file: give the .p8 file App Store Connect made for the In-App Purchase key, or its PEM public key"
            case .encrypted:
                "an encrypted private key: give the .p8 file as App Store Connect made it (unencrypted PKCS#8), or its PEM public key"
            case .unsupportedLabel(let label):
                "a PEM \(label): only PRIVATE KEY (the .p8 file) or PUBLIC KEY is accepted"
                    + (label == "EC PRIVATE KEY" ? " (convert with: openssl pkcs8 -topk8 -nocrypt)" : "")
            case .notP256(let label): "the PEM \(label) is not an EC P-256 key (In-App Purchase keys are ES256)"
            }
        }
    }

    /// The SEC 1 uncompressed point (65 bytes) of the key in `pem`, validated by `CryptoPrimitives`.
    static func publicKey(pem: String) throws(Problem) -> [UInt8] {
        let label = try Self.label(pem)
        let point: [UInt8]
        switch label {
        case "PRIVATE KEY":
            guard let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) else { throw .notP256(label) }
            point = Array(key.publicKey.x963Representation)
        case "PUBLIC KEY":
            guard let key = try? P256.Signing.PublicKey(pemRepresentation: pem) else { throw .notP256(label) }
            point = Array(key.x963Representation)
        case "ENCRYPTED PRIVATE KEY": throw .encrypted
        default: throw .unsupportedLabel(label)
        }
        guard point.count == 65, (try? ECDSAPublicKey(curve: .p256, x963Representation: point)) != nil else { throw .notP256(label) }
        return point
    }

    /// The label of the file's one PEM block (RFC 7468 §2).
    private static func label(_ pem: String) throws(Problem) -> String {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        let begins = lines.filter { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("-----") }
        guard begins.count == 1, let begin = begins.first, begin.count > 16 else { throw .notPEM }
        return String(begin.dropFirst(11).dropLast(5))
    }

    /// The SHA-256 of the key's DER SubjectPublicKeyInfo (RFC 5480), lower-case hex: what
    /// `openssl pkey -in KEY.p8 -pubout -outform DER | openssl sha256` prints for the same key.
    static func fingerprint(_ point: [UInt8]) -> String {
        CryptoPrimitives.SHA256.hash(subjectPublicKeyInfoPrefix + point).description
    }

    /// SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING (0 unused bits) … } before
    /// the 65-byte point.
    private static let subjectPublicKeyInfoPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03,
        0x01, 0x07, 0x03, 0x42, 0x00,
    ]
}
