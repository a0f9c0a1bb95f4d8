import Foundation

/// The claims of an App Store Server API token (RFC 7519 §4.1, and Apple's `bid`), decoded from
/// the payload JSON. Presence and type are checked here; values against a key by `accepts`.
struct APIJWTClaims: Sendable, Hashable, Decodable {
    /// `iss` (RFC 7519 §4.1.1): the key's issuer id.
    let issuer: String
    /// `aud` (§4.1.3): a string or an array of strings.
    let audiences: [String]
    /// `bid`: the app's bundle id (Apple's claim).
    let bundleID: String
    /// `exp` (§4.1.4), required: a NumericDate, in milliseconds.
    let expiresMilliseconds: Int64
    /// `iat` (§4.1.6), optional (Apple's Python client sends none), in milliseconds.
    let issuedMilliseconds: Int64?
    /// `nbf` (§4.1.5), optional, in milliseconds.
    let notBeforeMilliseconds: Int64?

    /// The audience App Store Server API tokens name.
    static let audience = "appstoreconnect-v1"
    /// Clock difference tolerated between the signer and this server.
    static let leewayMilliseconds: Int64 = 60_000
    /// The longest lifetime Apple allows a token.
    static let maxLifetimeMilliseconds: Int64 = 3_600_000

    private enum Key: String, CodingKey { case iss, aud, bid, exp, iat, nbf }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        issuer = try container.decode(String.self, forKey: .iss)
        if let single = try? container.decode(String.self, forKey: .aud) {
            audiences = [single]
        } else {
            audiences = try container.decode([String].self, forKey: .aud)
        }
        bundleID = try container.decode(String.self, forKey: .bid)
        expiresMilliseconds = try Self.numericDate(try container.decode(Double.self, forKey: .exp), key: .exp)
        issuedMilliseconds = try container.decodeIfPresent(Double.self, forKey: .iat).map { try Self.numericDate($0, key: .iat) }
        notBeforeMilliseconds = try container.decodeIfPresent(Double.self, forKey: .nbf).map { try Self.numericDate($0, key: .nbf) }
    }

    /// The claims of a payload; nil unless it is a JSON object with every required claim of the
    /// right type.
    static func decode(_ payload: [UInt8]) -> APIJWTClaims? {
        try? JSONDecoder().decode(APIJWTClaims.self, from: Data(payload))
    }

    /// A NumericDate (RFC 7519 §2: seconds since 1970, possibly fractional) in milliseconds,
    /// rounded down; refused beyond ±10¹² s, which no clock reaches.
    private static func numericDate(_ seconds: Double, key: Key) throws -> Int64 {
        guard seconds.isFinite, abs(seconds) < 1e12 else {
            throw DecodingError.dataCorrupted(.init(codingPath: [key], debugDescription: "NumericDate out of range"))
        }
        return Int64((seconds * 1000).rounded(.down))
    }

    /// Whether the claims hold for `key` at `now` (milliseconds), 60 s of leeway each way:
    /// - `iss` is the key's issuer (RFC 7519 §4.1.1), `aud` includes `appstoreconnect-v1`
    ///   (§4.1.3), `bid` is one of the key's apps (every app when it lists none);
    /// - `exp` is after now (§4.1.4), `nbf` if present not after now (§4.1.5);
    /// - `iat` if present not after now (§4.1.6) and `exp − iat` ≤ 3600 s; without `iat`,
    ///   `exp` ≤ now + 3600 s, so no token outlives Apple's one-hour limit either way.
    func accepts(issuer keyIssuer: String, bundleIDs: Set<String>, now: Int64) -> Bool {
        let leeway = Self.leewayMilliseconds
        guard issuer == keyIssuer, audiences.contains(Self.audience),
            bundleIDs.isEmpty || bundleIDs.contains(bundleID),
            expiresMilliseconds > now - leeway,
            (notBeforeMilliseconds ?? .min) <= now + leeway
        else { return false }
        if let issued = issuedMilliseconds {
            return issued <= now + leeway && expiresMilliseconds - issued <= Self.maxLifetimeMilliseconds
        }
        return expiresMilliseconds <= now + Self.maxLifetimeMilliseconds + leeway
    }
}
