import Crypto
import Foundation
import ReceiptStore

/// The operator's secrets key: 32 random bytes kept outside the database (`--secrets-key-file`,
/// `RECEIPT_SERVER_SECRETS_KEY`, or a generated file beside a SQLite database). It seals each
/// app's AES-256 answer-encryption key with AES-256-GCM (swift-crypto, BoringSSL underneath): a
/// fresh random 96-bit nonce per seal, the bundle id as associated data, so a sealed key copied
/// into another app's row does not open. The database also keeps a check value (a constant
/// sealed under this key), so a server started with another key stops at start.
public struct SecretsKey: SecretsCodec {
    /// The key's length in bytes.
    public static let byteCount = 32

    private let key: SymmetricKey

    /// A key from its 32 bytes.
    public init(bytes: [UInt8]) throws(SecretsKeyError) {
        guard bytes.count == Self.byteCount else { throw .wrongLength(bytes.count) }
        key = SymmetricKey(data: bytes)
    }

    /// A key from a key file's or the environment variable's contents: exactly 32 raw bytes, or
    /// their standard base64 (surrounding whitespace ignored).
    public init(encoded contents: [UInt8]) throws(SecretsKeyError) {
        if contents.count == Self.byteCount {
            try self.init(bytes: contents)
            return
        }
        try self.init(base64: String(decoding: contents, as: UTF8.self))
    }

    /// A key from standard base64 of 32 bytes (surrounding whitespace ignored), as
    /// `RECEIPT_SERVER_SECRETS_KEY` holds it.
    public init(base64 text: String) throws(SecretsKeyError) {
        guard let decoded = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw .notBase64 }
        try self.init(bytes: Array(decoded))
    }

    /// A new key from the system's secure generator.
    public static func generate() -> SecretsKey {
        try! SecretsKey(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// The key as standard base64 (what a generated key file holds).
    public var base64: String {
        key.withUnsafeBytes { Data($0).base64EncodedString() }
    }

    /// Associated data of the check value; bundle ids hold no whitespace, so no app key's
    /// associated data is ever this.
    static let checkContext = Array("receipt-server secrets key check v1".utf8)
    /// The check value's plaintext.
    static let checkPlaintext = Array("receipt-server: this database's secrets are sealed under this key".utf8)

    /// `nonce ‖ ciphertext ‖ tag` (AES-256-GCM's combined form: 12 + n + 16 bytes).
    func seal(_ plaintext: [UInt8], context: [UInt8]) throws -> [UInt8] {
        Array(try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(), authenticating: context).combined!)
    }

    /// The plaintext of `seal`'s output; throws when `sealed` was not made under this key for
    /// `context`, or was changed.
    func open(_ sealed: [UInt8], context: [UInt8]) throws -> [UInt8] {
        Array(try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key, authenticating: context))
    }

    public func makeCheckValue() throws -> [UInt8] {
        try seal(Self.checkPlaintext, context: Self.checkContext)
    }

    public func recognizes(checkValue: [UInt8]) -> Bool {
        (try? open(checkValue, context: Self.checkContext)) == Self.checkPlaintext
    }

    public func sealEncryptionKey(_ key: [UInt8], bundleID: String) throws -> [UInt8] {
        try seal(key, context: Array(bundleID.utf8))
    }

    /// The app's AES-256 key from its sealed form; throws when the row was not sealed for
    /// `bundleID` under this key.
    public func openEncryptionKey(_ sealed: [UInt8], bundleID: String) throws -> [UInt8] {
        try open(sealed, context: Array(bundleID.utf8))
    }

    public func saltedSharedSecretHash(fromSHA256 digest: [UInt8]) -> [UInt8] {
        SharedSecretHash.make(sha256: digest)
    }
}

/// Why bytes are not a secrets key. Messages never hold key material.
public enum SecretsKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Decoded to this many bytes instead of 32.
    case wrongLength(Int)
    /// Neither 32 raw bytes nor base64.
    case notBase64

    public var description: String {
        switch self {
        case .wrongLength(let count): return "a secrets key is 32 bytes, this one is \(count)"
        case .notBase64: return "a secrets key is 32 raw bytes or their base64, this is neither"
        }
    }
}
