import AppReceipt
import Foundation
import ReceiptStore

/// What `receipt-server apikey …` and `receipt-server app …` do to the registry. Secrets are
/// returned once, to be printed; storage keeps only their hashes, and the encryption key sealed
/// under the operator's secrets key.
public struct CredentialAdmin: Sendable {
    /// The registry's storage (the database both APIs read).
    public let store: any CredentialStore
    /// The operator key that seals new encryption keys.
    let secrets: SecretsKey

    /// Administration of the registry in `store`, sealing keys under `secrets`.
    public init(store: any CredentialStore, secrets: SecretsKey) {
        self.store = store
        self.secrets = secrets
    }

    /// Why a registry command cannot do what it was asked.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownApp(String)
        case unknownKey(String)
        case invalidBundleID(String)

        public var description: String {
            switch self {
            case .unknownApp(let bundle): return "no app \(bundle) in the registry (receipt-server app list shows them)"
            case .unknownKey(let key): return "no API key \(key) (give the key or its id, as receipt-server apikey list shows it)"
            case .invalidBundleID(let bundle): return "invalid bundle id '\(bundle)'"
            }
        }
    }

    /// A new API key for `apps` (nil: every app, including apps added later). Returns the key's
    /// text, shown once.
    public func createKey(apps: [String]?, now: Date = Date()) async throws -> (key: String, record: APIKeyRecord) {
        if let apps {
            let known = Set(try await store.appRecords().map(\.registration.bundleID))
            if let unknown = apps.first(where: { !known.contains($0) }) { throw Refusal.unknownApp(unknown) }
        }
        let key = Credential.generate(.apiKey)
        let record = APIKeyRecord(
            id: key.id, sha256: key.sha256, apps: apps.map { Array(Set($0)).sorted() },
            createdMilliseconds: now.millisecondsSince1970)
        try await store.addAPIKey(record)
        return (key.text, record)
    }

    /// Revokes the key given as its text or its id.
    public func revokeKey(_ keyOrID: String, now: Date = Date()) async throws -> APIKeyRecord {
        let id = Credential(keyOrID, kind: .apiKey)?.id ?? keyOrID
        let keys = try await store.apiKeys()
        guard let key = keys.first(where: { $0.id == id }),
            Credential(keyOrID, kind: .apiKey).map({ $0.matches(key.sha256) }) ?? true
        else { throw Refusal.unknownKey(keyOrID) }
        _ = try await store.revokeAPIKey(id: id, at: now.millisecondsSince1970)
        return try await store.apiKeys().first { $0.id == id } ?? key
    }

    /// Adds (or replaces, with a new token) an app; returns its token and, when asked for, its
    /// new encryption key, both shown once. `acceptsUnprovenLegacyProduction`: see
    /// `AppRegistration.acceptsUnprovenLegacyProduction` (off unless the operator asks).
    public func addApp(
        _ bundleID: String, sharedSecret: String?, appleID: Int64?, encryptionKey: Bool,
        acceptsUnprovenLegacyProduction: Bool = false
    ) async throws -> (token: String, encryptionKey: [UInt8]?) {
        guard AppRegistry.isValidBundleID(bundleID) else { throw Refusal.invalidBundleID(bundleID) }
        let token = Credential.generate(.appToken)
        let key = encryptionKey ? AnswerEncryption.newKey() : nil
        let sealed = try key.map { try secrets.sealEncryptionKey($0, bundleID: bundleID) }
        let registration = AppRegistration(
            bundleID: bundleID, sharedSecretHash: sharedSecret.map(SharedSecretHash.make), appleID: appleID,
            acceptsUnprovenLegacyProduction: acceptsUnprovenLegacyProduction)
        try await store.putApp(
            AppRecord(
                registration: registration,
                credentials: AppCredentials(tokenID: token.id, tokenSHA256: token.sha256, sealedEncryptionKey: sealed)))
        return (token.text, key)
    }

    /// Removes an app from the registry (and from every key's list).
    public func removeApp(_ bundleID: String) async throws {
        guard try await store.removeApp(bundleID: bundleID) else { throw Refusal.unknownApp(bundleID) }
    }
}
