/// An API key of the hosted-validator API as stored: its public id and the SHA-256 of the whole
/// key (the key itself is printed once, at creation, and never stored).
public struct APIKeyRecord: Sendable, Hashable {
    /// The key's public part (`apikey list` shows it; `apikey revoke` accepts it).
    public var id: String
    /// SHA-256 of the whole key text.
    public var sha256: [UInt8]
    /// The bundle ids whose tokens the key may use; nil: every app of the registry.
    public var apps: [String]?
    /// When the key was made (milliseconds since 1970).
    public var createdMilliseconds: Int64
    /// When the key was revoked; nil while it is in force.
    public var revokedMilliseconds: Int64?

    /// A key record with every column.
    public init(id: String, sha256: [UInt8], apps: [String]?, createdMilliseconds: Int64, revokedMilliseconds: Int64? = nil) {
        self.id = id
        self.sha256 = sha256
        self.apps = apps
        self.createdMilliseconds = createdMilliseconds
        self.revokedMilliseconds = revokedMilliseconds
    }
}

/// What the hosted-validator API knows of an app besides its registration: its token (public id
/// and SHA-256 of the whole token) and, for the encrypted endpoint, its AES-256 key sealed under
/// the operator's secrets key (`SecretsCodec`): the database never holds the key itself, and the
/// token only as a hash.
public struct AppCredentials: Sendable, Hashable {
    /// The token's public id.
    public var tokenID: String
    /// SHA-256 of the whole token.
    public var tokenSHA256: [UInt8]
    /// The app's AES-256 key sealed for its bundle id (AES-256-GCM: nonce, ciphertext, tag), or
    /// nil when the app has no encryption key.
    public var sealedEncryptionKey: [UInt8]?

    /// Credentials with every column.
    public init(tokenID: String, tokenSHA256: [UInt8], sealedEncryptionKey: [UInt8]?) {
        self.tokenID = tokenID
        self.tokenSHA256 = tokenSHA256
        self.sealedEncryptionKey = sealedEncryptionKey
    }
}

/// One row of the app registry with everything in it: what `--app` sets (the registration) and
/// what `receipt-server app add` adds (the credentials; nil for apps only `--app` registered).
public struct AppRecord: Sendable, Hashable {
    /// Bundle id, shared secret's salted hash, Apple id.
    public var registration: AppRegistration
    /// Token and encryption key; nil for an app without a token.
    public var credentials: AppCredentials?

    /// An app record from its parts.
    public init(registration: AppRegistration, credentials: AppCredentials?) {
        self.registration = registration
        self.credentials = credentials
    }
}

/// The hosted-validator API's part of storage: app records with their credentials, and API keys.
/// Both backends implement it on the same tables as the app registry (`apps`) and `api_keys`.
public protocol CredentialStore: Sendable {
    /// Every app of the registry with its credentials, by bundle id.
    func appRecords() async throws -> [AppRecord]
    /// Adds or replaces an app whole: registration and credentials.
    func putApp(_ app: AppRecord) async throws
    /// Removes an app from the registry and from every API key's list; false when it was not there.
    func removeApp(bundleID: String) async throws -> Bool
    /// Every API key, oldest first.
    func apiKeys() async throws -> [APIKeyRecord]
    /// Stores a new API key.
    func addAPIKey(_ key: APIKeyRecord) async throws
    /// Marks the key revoked at `milliseconds` (a key revoked before keeps its first date); false
    /// when no key has that id.
    func revokeAPIKey(id: String, at milliseconds: Int64) async throws -> Bool
}
