import Foundation
import ReceiptStore

/// What `receipt-server iapkey add|list|revoke` does: In-App Purchase keys as data in the
/// database. Only a key's public key is stored; a private key read from a `.p8` file is used to
/// derive it and then dropped, never stored or printed.
public struct IAPKeyAdmin: Sendable {
    /// Where the keys are kept.
    public let store: any IAPKeyStore

    /// Administration of the keys in `store`.
    public init(store: any IAPKeyStore) {
        self.store = store
    }

    /// Why a key command cannot do what it was asked.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case unreadableKeyFile(path: String, reason: String)
        case invalidKeyFile(path: String, reason: String)
        case invalidKeyID(String)
        case invalidIssuerID(String)
        case invalidBundleID(String)
        case unknownKey(String)

        public var description: String {
            switch self {
            case .unreadableKeyFile(let path, let reason): "cannot read the key file \(path): \(reason)"
            case .invalidKeyFile(let path, let reason): "\(path): \(reason)"
            case .invalidKeyID(let id): "invalid key id '\(id)' (App Store Connect's Key ID: letters and digits, as in the .p8 file's name)"
            case .invalidIssuerID(let id): "invalid issuer id '\(id)' (App Store Connect's Issuer ID, printable without spaces)"
            case .invalidBundleID(let bundle): "invalid bundle id '\(bundle)'"
            case .unknownKey(let id): "no In-App Purchase key \(id) (receipt-server iapkey list shows them)"
            }
        }
    }

    /// Reads the key file at `path` (see `IAPKeyFile`) and returns its P-256 public key point.
    public static func publicKey(file path: String) throws(Refusal) -> [UInt8] {
        let text: String
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard data.count <= 64 << 10, let decoded = String(data: data, encoding: .utf8) else {
                throw Refusal.invalidKeyFile(path: path, reason: IAPKeyFile.Problem.notPEM.description)
            }
            text = decoded
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw .unreadableKeyFile(path: path, reason: (error as NSError).localizedDescription)
        }
        do {
            return try IAPKeyFile.publicKey(pem: text)
        } catch {
            throw .invalidKeyFile(path: path, reason: error.description)
        }
    }

    /// Adds the key `keyID` of `issuerID` with the public key of the file at `keyFile`, for
    /// `apps` (empty: every app); a key of the same id is replaced (and so un-revoked).
    public func add(keyID: String, issuerID: String, keyFile: String, apps: [String], now: Date = Date()) async throws -> IAPKeyRecord {
        guard Self.isValidKeyID(keyID) else { throw Refusal.invalidKeyID(keyID) }
        guard Self.isValidIssuerID(issuerID) else { throw Refusal.invalidIssuerID(issuerID) }
        if let bad = apps.first(where: { !AppRegistry.isValidBundleID($0) }) { throw Refusal.invalidBundleID(bad) }
        let record = IAPKeyRecord(
            keyID: keyID, issuerID: issuerID, publicKey: try Self.publicKey(file: keyFile), bundleIDs: Array(Set(apps)).sorted(),
            createdMilliseconds: now.millisecondsSince1970, revokedMilliseconds: nil)
        try await store.putIAPKey(record)
        return record
    }

    /// Every key, revoked ones too, oldest first.
    public func list() async throws -> [IAPKeyRecord] {
        try await store.iapKeys()
    }

    /// Revokes `keyID` (a running server refuses its tokens within about a second); returns the
    /// key as stored, with its (first) revocation date.
    public func revoke(_ keyID: String, now: Date = Date()) async throws -> IAPKeyRecord {
        guard try await store.revokeIAPKey(id: keyID, at: now.millisecondsSince1970),
            let key = try await store.iapKeys().first(where: { $0.keyID == keyID })
        else { throw Refusal.unknownKey(keyID) }
        return key
    }

    /// A key as the commands print it: `keyId`, `issuerId`, `apps` (empty: every app),
    /// `publicKeySha256` (`IAPKeyFile.fingerprint`), `created` and, when revoked, `revoked`
    /// (ISO 8601). Never key material beyond the public key's fingerprint.
    public static func json(_ key: IAPKeyRecord) -> [String: Any] {
        var object: [String: Any] = [
            "keyId": key.keyID, "issuerId": key.issuerID, "apps": key.bundleIDs,
            "publicKeySha256": IAPKeyFile.fingerprint(key.publicKey), "created": isoDate(key.createdMilliseconds),
        ]
        if let revoked = key.revokedMilliseconds { object["revoked"] = isoDate(revoked) }
        return object
    }

    /// App Store Connect key ids are ten letters and digits; up to 64 of `A-Z a-z 0-9 - _ .`
    /// are accepted.
    static func isValidKeyID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
    }

    /// Issuer ids are UUIDs; up to 128 printable ASCII characters without spaces are accepted.
    static func isValidIssuerID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && id.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    private static func isoDate(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000).formatted(.iso8601)
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(self)
    }
}
