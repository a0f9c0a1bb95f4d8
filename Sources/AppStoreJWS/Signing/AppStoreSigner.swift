import CryptoPrimitives

/// Signs for an app with its App Store Connect key (ES256, RFC 7518 §3.4): the JWT that calls
/// the App Store Server API, and the artifacts StoreKit asks the developer's server for.
///
/// Signatures are made by `P256SigningKey` in constant time with deterministic nonces (RFC 6979).
/// Read the key Apple lets you download (`AuthKey_KEYID.p8`) with `P256PrivateKeyFile` in
/// X509Certificates. The signer's description does not show the key.
public struct AppStoreSigner: Sendable {
    /// The key's identifier in App Store Connect (the JWS `kid` header).
    public let keyID: String
    /// The issuer identifier from the Keys page in App Store Connect (the `iss` claim).
    public let issuerID: String
    /// The app's bundle identifier (the `bid` claim).
    public let bundleID: String
    let key: P256SigningKey

    /// A signer for one app and one key.
    public init(key: P256SigningKey, keyID: String, issuerID: String, bundleID: String) {
        self.key = key
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
    }

    /// The bearer token for the App Store Server API ("Generating JSON Web Tokens for API
    /// requests"): header `{alg: ES256, kid, typ: JWT}`, claims `iss`, `iat`, `exp`, `aud`, `bid`,
    /// with integer times in seconds since 1970. Apple refuses a lifetime over an hour. An `exp`
    /// past `Int64.max` is written as `Int64.max` (no overflow trap on extreme arguments).
    public func serverAPIToken(
        issuedAt: Int64 = AppStoreSigner.currentTime(), lifetime: Int64 = 300, audience: String = "appstoreconnect-v1"
    ) -> String {
        var claims = JSONObjectText()
        claims.add("iss", issuerID)
        claims.add("iat", issuedAt)
        let (expiry, overflow) = issuedAt.addingReportingOverflow(lifetime)
        claims.add("exp", overflow ? (lifetime < 0 ? .min : .max) : expiry)
        claims.add("aud", audience)
        claims.add("bid", bundleID)
        return compactJWS(claims: claims)
    }

    /// `base64url(header) . base64url(claims) . base64url(r ‖ s)` (RFC 7515 §7.1), the
    /// signature over the first two parts with SHA-256 (RFC 7518 §3.4).
    func compactJWS(claims: JSONObjectText) -> String {
        var header = JSONObjectText()
        header.add("alg", "ES256")
        header.add("kid", keyID)
        header.add("typ", "JWT")
        let signingInput = Base64.encodeURL(header.utf8) + "." + Base64.encodeURL(claims.utf8)
        let signature = key.signature(for: SHA256.hash(Array(signingInput.utf8)))
        return signingInput + "." + Base64.encodeURL(signature)
    }
}
