import CryptoPrimitives

/// A secret of the hosted-validator API: an API key (`act_…`) or an app token (`app_…`), as
/// `PREFIX_ID_SECRET`: ID is 16 hex digits naming the credential (public: `apikey list` shows it,
/// and the registry finds the stored hash by it), SECRET 64 hex digits of 32 random bytes.
/// Storage keeps ID and the SHA-256 of the whole text, never the text: with 256 random bits a
/// fast hash is enough (nothing to guess a word list from).
public struct Credential: Sendable, Hashable {
    /// Which secret, by its prefix.
    public enum Kind: String, Sendable {
        /// An API key, as the reference's `apikey=act_…`.
        case apiKey = "act"
        /// An app token, as the reference's `token=app_…`.
        case appToken = "app"
        /// The operator's dashboard token (`receipt-server dashboard-token create`).
        case dashboard = "dsh"
    }

    /// The whole credential, as the client sends it.
    public let text: String
    /// The public id (16 lower-case hex digits).
    public let id: String

    static let idBytes = 8, secretBytes = 32
    static func length(_ kind: Kind) -> Int { kind.rawValue.utf8.count + 2 + 2 * (idBytes + secretBytes) }

    /// A new credential from the system's cryptographically secure generator (getrandom).
    public static func generate(_ kind: Kind) -> Credential {
        var generator = SystemRandomNumberGenerator()
        let id = hex((0 ..< idBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let secret = hex((0 ..< secretBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        return Credential(text: "\(kind.rawValue)_\(id)_\(secret)", id: id)
    }

    private init(text: String, id: String) {
        self.text = text
        self.id = id
    }

    /// Reads `text` as a credential of `kind`; nil unless it has exactly that shape (so a wrong
    /// value costs no hashing and no lookup).
    public init?(_ text: String, kind: Kind) {
        let bytes = Array(text.utf8)
        let prefix = Array(kind.rawValue.utf8) + [UInt8(ascii: "_")]
        guard bytes.count == Self.length(kind), bytes.starts(with: prefix) else { return nil }
        let idEnd = prefix.count + 2 * Self.idBytes
        guard bytes[idEnd] == UInt8(ascii: "_"),
            bytes[prefix.count ..< idEnd].allSatisfy(Self.isHexDigit),
            bytes[(idEnd + 1)...].allSatisfy(Self.isHexDigit)
        else { return nil }
        self.init(text: text, id: String(decoding: bytes[prefix.count ..< idEnd], as: UTF8.self))
    }

    /// SHA-256 of the whole text: what storage keeps.
    public var sha256: [UInt8] { Self.sha256(text) }

    /// Whether this credential is the one whose SHA-256 is `stored`, compared in constant time.
    public func matches(_ stored: [UInt8]) -> Bool {
        sha256.withUnsafeBytes { given in stored.withUnsafeBytes { constantTimeEquals(given, $0) } }
    }

    static func sha256(_ text: String) -> [UInt8] { SharedSecretHash.sha256(Array(text.utf8)) }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a") ... UInt8(ascii: "f")).contains(byte)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        VerifyReceiptService.hex(bytes[...])
    }
}
