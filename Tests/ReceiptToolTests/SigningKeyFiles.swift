import CryptoPrimitives
import Foundation
import TestHelpers

/// Key files for the signing commands' tests, written by hand from fixed bytes (no openssl
/// needed): a P-256 key as App Store Connect's `.p8` (PKCS#8 PEM carrying the public key, RFC
/// 5958 §2 with the ECPrivateKey of RFC 5915 §3), and files that must be refused.
enum SigningKeyFiles {
    static let scalar: [UInt8] = (1 ... 32).map { UInt8($0) }
    static let key = try! P256SigningKey(rawRepresentation: scalar)

    /// PrivateKeyInfo { 0, { id-ecPublicKey, prime256v1 }, OCTET STRING { ECPrivateKey { 1, d,
    /// [1] { BIT STRING 04 ‖ X ‖ Y } } } }, as Apple's and OpenSSL's `.p8` files are laid out.
    static var pkcs8DER: [UInt8] {
        Hex.bytes("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420") + scalar
            + Hex.bytes("a144034200") + key.publicKey.x963Representation
    }

    static var p8: String { pem("PRIVATE KEY", pkcs8DER) }

    /// A P-384 PKCS#8 key (secp384r1, RFC 5480 §2.1.1.1) with a 48-byte scalar.
    static var p384: String {
        pem("PRIVATE KEY", Hex.bytes("304e020100301006072a8648ce3d020106052b81040022043730350201010430") + [UInt8](repeating: 7, count: 48))
    }

    /// A PKCS#8 key whose algorithm is rsaEncryption (RFC 8017 Appendix C).
    static var rsaPKCS8: String {
        pem("PRIVATE KEY", Hex.bytes("3016020100300d06092a864886f70d0101010500040200ff"))
    }

    /// PEM text (RFC 7468 §2): 64 base64 characters a line.
    static func pem(_ label: String, _ der: [UInt8]) -> String {
        let body = Data(der).base64EncodedString(options: .lineLength64Characters).replacingOccurrences(of: "\r\n", with: "\n")
        return "-----BEGIN \(label)-----\n\(body)\n-----END \(label)-----\n"
    }

    /// The base64 text of the key's own bytes, which no message may show.
    static var secretTexts: [String] {
        [Hex.string(scalar), Data(scalar).base64EncodedString(), String(p8.split(separator: "\n")[1].suffix(40))]
    }
}
