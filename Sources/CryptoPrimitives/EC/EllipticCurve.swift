/// The curves ECDSA keys may use: NIST P-256 and P-384 (SEC 2 §2.4.2, §2.5.1; FIPS 186-5 via
/// SP 800-186 §3.2.1), as App Store JWS signatures (ES256) and Apple's certificates use them.
public enum EllipticCurve: Sendable, Hashable {
    /// NIST P-256, secp256r1, prime256v1 (JWS `ES256`).
    case p256
    /// NIST P-384, secp384r1 (Apple Root CA - G3 and its intermediates).
    case p384

    /// The size of a field element and of a scalar in bytes: 32 for P-256, 48 for P-384. A
    /// P1363 signature is twice this, an uncompressed point 1 + twice this.
    public var byteCount: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        }
    }
}
