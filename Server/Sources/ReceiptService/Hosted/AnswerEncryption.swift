import CryptoExtras
import Foundation

/// The encrypted endpoint's payload, as the reference describes it: a fresh random 16-byte IV
/// followed by the answer encrypted with the app's AES-256 key in CBC mode with PKCS#7 padding
/// (swift-crypto's `AES._CBC`, BoringSSL underneath). CBC gives confidentiality only, no
/// integrity: TLS must carry the answer.
enum AnswerEncryption {
    static let keyBytes = 32

    /// IV ‖ AES-256-CBC(plaintext); throws only for a key that is not 32 bytes.
    static func seal(_ plaintext: [UInt8], key: [UInt8]) throws -> [UInt8] {
        let iv = AES._CBC.IV()   // 16 bytes from the system's secure generator, new each call
        let ciphertext = try AES._CBC.encrypt(plaintext, using: SymmetricKey(data: key), iv: iv)
        return Array(iv) + Array(ciphertext)
    }

    /// A new random AES-256 key (for `receipt-server app add --encryption-key`).
    static func newKey() -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }
}
