import Crypto
import Foundation
import ReceiptStore
import Synchronization

/// Signs App Store Server API tokens as an app's backend does (ES256 with an In-App Purchase
/// key, swift-crypto's ECDSA: tests only), with every part open to change.
struct APIJWTSigner {
    let key = P256.Signing.PrivateKey()
    var keyID = "TESTKEY123"
    var issuerID = "57246542-96fe-1a63-e053-0824d011072a"

    /// The stored record of this key.
    func record(apps: [String] = [], created: Int64 = 1, revoked: Int64? = nil) -> IAPKeyRecord {
        IAPKeyRecord(
            keyID: keyID, issuerID: issuerID, publicKey: Array(key.publicKey.x963Representation), bundleIDs: apps,
            createdMilliseconds: created, revokedMilliseconds: revoked)
    }

    /// Apple's header: `alg` ES256, `kid`, `typ` JWT.
    func header() -> [String: Any] { ["alg": "ES256", "kid": keyID, "typ": "JWT"] }

    /// Apple's claims at `now` (ms): `iss`, `aud`, `bid`, `iat` now, `exp` now + 30 min.
    func claims(now: Int64, bundleID: String = "com.example.app") -> [String: Any] {
        ["iss": issuerID, "aud": "appstoreconnect-v1", "bid": bundleID, "iat": now / 1000, "exp": now / 1000 + 1800]
    }

    /// The compact JWS of `header` and `claims`, signed with this key (or `signature` in its place).
    func token(header: [String: Any], claims: [String: Any], signature: [UInt8]? = nil) throws -> String {
        let input =
            Self.base64URL(try JSONSerialization.data(withJSONObject: header, options: .sortedKeys)) + "."
            + Self.base64URL(try JSONSerialization.data(withJSONObject: claims, options: .sortedKeys))
        let signed = try signature.map { Data($0) } ?? key.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + Self.base64URL(signed)
    }

    /// A token of Apple's shape at `now`.
    func token(now: Int64, bundleID: String = "com.example.app") throws -> String {
        try token(header: header(), claims: claims(now: now, bundleID: bundleID))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// In-App Purchase keys in memory, counting how often they are read.
final class MemoryIAPKeyStore: IAPKeyStore {
    private let state = Mutex<(keys: [IAPKeyRecord], reads: Int)>(([], 0))

    init(_ keys: [IAPKeyRecord] = []) {
        state.withLock { $0.keys = keys }
    }

    var reads: Int { state.withLock { $0.reads } }

    func iapKeys() async throws -> [IAPKeyRecord] {
        state.withLock { state in
            state.reads += 1
            return state.keys
        }
    }

    func putIAPKey(_ key: IAPKeyRecord) async throws {
        state.withLock { state in
            state.keys.removeAll { $0.keyID == key.keyID }
            state.keys.append(key)
        }
    }

    func revokeIAPKey(id: String, at milliseconds: Int64) async throws -> Bool {
        state.withLock { state in
            guard let index = state.keys.firstIndex(where: { $0.keyID == id }) else { return false }
            state.keys[index].revokedMilliseconds = state.keys[index].revokedMilliseconds ?? milliseconds
            return true
        }
    }
}
