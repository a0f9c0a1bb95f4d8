import ReceiptStore
import Synchronization

/// Who may use the hosted-validator API: API keys and app tokens as the database holds them
/// (hashes only), in an in-memory snapshot that `RegistryRefresh` reloads, so a key made or
/// revoked by `receipt-server apikey` on any machine takes effect within one reload interval.
public final class HostedRegistry: Sendable {
    /// An app as the hosted API serves it: the token's app.
    struct App: Sendable, Equatable {
        let bundleID: String
        /// The app's Apple id, when registered: production receipts must name it.
        let appleID: Int64?
        /// The opened key; empty when the sealed key did not open (a row changed outside the
        /// server), so the encrypted endpoint answers 500 rather than 403.
        let encryptionKey: [UInt8]?
    }

    /// Why a request is refused 401 (counted in `/metrics` by this name), or the app it may use.
    enum Authentication: Equatable {
        case missingCredentials, unknownKey, revokedKey, unknownToken, tokenOfAnotherKey
        case authenticated(keyID: String, app: App)

        /// The `reason` label of `receipt_server_hosted_auth_failures_total`.
        var failureReason: String? {
            switch self {
            case .missingCredentials: return "missing"
            case .unknownKey: return "unknown_key"
            case .revokedKey: return "revoked_key"
            case .unknownToken: return "unknown_token"
            case .tokenOfAnotherKey: return "token_of_another_key"
            case .authenticated: return nil
            }
        }
    }

    private struct Snapshot: Sendable {
        var keys: [String: APIKeyRecord] = [:]
        var tokens: [String: (app: AppRecord, credentials: AppCredentials, key: [UInt8]?)] = [:]
    }

    private let snapshot = Mutex(Snapshot())
    private let secrets: SecretsKey

    /// An empty registry whose apps' keys are sealed under `secrets`: every request is refused
    /// until the first `reload`.
    public init(secrets: SecretsKey) {
        self.secrets = secrets
    }

    /// Replaces the snapshot with the database's apps and keys, opening each app's sealed key.
    /// Returns the bundle ids whose sealed key did not open (their encrypted answers fail).
    @discardableResult
    public func replace(apps: [AppRecord], keys: [APIKeyRecord]) -> [String] {
        var next = Snapshot()
        var unopened: [String] = []
        for key in keys { next.keys[key.id] = key }
        for app in apps {
            guard let credentials = app.credentials else { continue }
            let bundleID = app.registration.bundleID
            let key = credentials.sealedEncryptionKey.map { sealed -> [UInt8] in
                guard let key = try? secrets.openEncryptionKey(sealed, bundleID: bundleID) else {
                    unopened.append(bundleID)
                    return [UInt8]()
                }
                return key
            }
            next.tokens[credentials.tokenID] = (app, credentials, key)
        }
        snapshot.withLock { $0 = next }
        return unopened
    }

    /// Reloads the snapshot from `store`; returns the bundle ids whose sealed key did not open.
    @discardableResult
    public func reload(from store: any CredentialStore) async throws -> [String] {
        replace(apps: try await store.appRecords(), keys: try await store.apiKeys())
    }

    /// Checks the key first and the token only for a key in force, so a wrong key tells nothing
    /// about tokens. Each secret is found by its public id, then its SHA-256 is compared with the
    /// stored one in constant time.
    func authenticate(apiKey: String?, token: String?) -> Authentication {
        guard let apiKey, let token else { return .missingCredentials }
        guard let key = Credential(apiKey, kind: .apiKey) else { return .unknownKey }
        return snapshot.withLock { snapshot in
            guard let stored = snapshot.keys[key.id], key.matches(stored.sha256) else { return .unknownKey }
            guard stored.revokedMilliseconds == nil else { return .revokedKey }
            guard let token = Credential(token, kind: .appToken), let entry = snapshot.tokens[token.id],
                token.matches(entry.credentials.tokenSHA256)
            else { return .unknownToken }
            let bundleID = entry.app.registration.bundleID
            guard stored.apps?.contains(bundleID) ?? true else { return .tokenOfAnotherKey }
            return .authenticated(
                keyID: stored.id,
                app: App(
                    bundleID: bundleID, appleID: entry.app.registration.appleID,
                    encryptionKey: entry.key))
        }
    }
}
