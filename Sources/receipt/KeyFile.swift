import CryptoPrimitives
import VerifyCommandCore
import X509Certificates

/// `--key FILE`: a P-256 private key as App Store Connect hands it out (`AuthKey_KEYID.p8`,
/// PKCS#8 PEM), or PKCS#8 / SEC 1 in PEM or DER, read by `P256PrivateKeyFile`. An unreadable file
/// is a usage error (64); a file that is not such a key is malformed input (2). Messages name the
/// file and the rule, never a byte of the key.
enum KeyFile {
    static func signingKey(_ path: String) throws -> P256SigningKey {
        let bytes = try Input.readRaw(path)
        do {
            // DER starts with a SEQUENCE (X.690 §8.9); PEM with text.
            guard bytes.first == 0x30 else { return try P256PrivateKeyFile.signingKey(pem: bytes) }
            do {
                return try P256PrivateKeyFile.signingKey(pkcs8DER: bytes)
            } catch {
                guard let key = try? P256PrivateKeyFile.signingKey(sec1DER: bytes) else { throw error }
                return key
            }
        } catch {
            throw ToolFailure(status: .malformed, message: "\(path) is not a usable P-256 private key: \(error)")
        }
    }
}
