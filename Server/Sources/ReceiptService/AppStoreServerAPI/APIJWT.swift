import AppStoreJWS
import CryptoPrimitives

/// An App Store Server API token (a JWT, RFC 7519, in JWS compact serialization, RFC 7515 §7.1)
/// taken apart and checked as far as it can be without a key: the header says ES256 and names a
/// key, the claims are there with their types. The signature is not verified yet (`isSigned`).
struct APIJWT: Sendable {
    /// The header's `kid` (RFC 7515 §4.1.4): the In-App Purchase key's id.
    let keyID: String
    /// The payload's claims.
    let claims: APIJWTClaims
    /// The signing input (RFC 7515 §5.2 step 8), `base64url(header) "." base64url(payload)`.
    private let signingInput: ArraySlice<UInt8>
    /// The signature, r ‖ s (RFC 7518 §3.4).
    private let signature: [UInt8]

    /// The token's parts; nil unless, in this order:
    /// - it is a compact JWS of three base64url parts with a JSON object header (RFC 7515 §7.1);
    /// - `alg` is `ES256` (RFC 7515 §4.1.1, RFC 7518 §3.4; `none`, HMAC and every other
    ///   algorithm are refused before anything else is looked at);
    /// - `crit` is absent (§4.1.11: no extension is understood here);
    /// - `typ`, if present, is `JWT` (RFC 7519 §5.1, compared case-insensitively as RFC 7515
    ///   §4.1.9 says);
    /// - `kid` is a non-empty string;
    /// - the signature is 64 bytes (RFC 7518 §3.4: r and s of 32 bytes each);
    /// - the payload holds the claims `APIJWTClaims` requires.
    init?(_ token: [UInt8]) {
        guard let jws = try? CompactJWS(token), jws.header.algorithm == "ES256", !jws.header.hasCriticalParameters,
            jws.header.type.map({ $0.lowercased() == "jwt" }) ?? true,
            let keyID = jws.header.keyID, !keyID.isEmpty,
            jws.signature.count == 64,
            let claims = APIJWTClaims.decode(jws.payload)
        else { return nil }
        self.keyID = keyID
        self.claims = claims
        signingInput = jws.token[..<jws.signingInputEnd]
        signature = jws.signature
    }

    /// Whether `key` signed the token: ECDSA P-256 over the SHA-256 of the signing input
    /// (RFC 7518 §3.4), verified by `CryptoPrimitives`.
    func isSigned(by key: ECDSAPublicKey) -> Bool {
        var hasher = SHA256()
        hasher.update(signingInput)
        return key.curve == .p256 && key.isValidSignature(rawRepresentation: signature, digest: hasher.finalize())
    }
}
