import DER

/// Why a file was refused as a P-256 private key (`P256PrivateKeyFile`). No case holds, and no
/// description shows, any byte of the key.
public enum P256PrivateKeyFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No `-----BEGIN …-----` … `-----END …-----` block with matching labels (RFC 7468 §2).
    case notPEM
    /// PEM, but of something other than a private key (a certificate, a public key).
    case notAPrivateKey
    /// `-----BEGIN ENCRYPTED PRIVATE KEY-----` (RFC 5958 §3): password-protected keys are not read.
    case encryptedKey
    /// The PEM body is not base64 (RFC 7468 §3: the standard alphabet, `=` padding).
    case invalidBase64
    /// An RSA key (`RSA PRIVATE KEY`, or PKCS#8 with rsaEncryption).
    case rsaKey
    /// An EC key on P-384 (secp384r1).
    case p384Key
    /// An EC key on another named curve, or with explicit curve parameters.
    case unsupportedCurve
    /// A PKCS#8 key of another algorithm (Ed25519, DSA, …).
    case unsupportedAlgorithm
    /// The PKCS#8 version is not 0 or 1 (RFC 5958 §2), or the ECPrivateKey version not 1
    /// (RFC 5915 §3).
    case wrongVersion
    /// A SEC 1 `EC PRIVATE KEY` without the curve in its parameters (RFC 5915 §3: outside
    /// PKCS#8 they name the curve).
    case missingCurve
    /// The DER is malformed: truncated, a wrong tag, trailing bytes (the reader's error, with the
    /// offset in the decoded DER).
    case malformed(ASN1Error)
    /// The private scalar is longer than 32 bytes, zero, or not below the order n.
    case invalidPrivateKey
    /// The file's public key is not d·G for its private key d.
    case publicKeyMismatch

    /// A short English explanation (never the key's bytes).
    public var description: String {
        switch self {
        case .notPEM: "not a PEM file (no matching -----BEGIN/-----END lines)"
        case .notAPrivateKey: "the PEM file holds no private key"
        case .encryptedKey: "the private key is encrypted (ENCRYPTED PRIVATE KEY), which is not supported"
        case .invalidBase64: "the PEM body is not valid base64"
        case .rsaKey: "an RSA key, not a P-256 EC key"
        case .p384Key: "a P-384 key, not a P-256 key"
        case .unsupportedCurve: "an EC key on a curve other than P-256"
        case .unsupportedAlgorithm: "a private key of an algorithm other than EC"
        case .wrongVersion: "unsupported private key structure version"
        case .missingCurve: "the EC PRIVATE KEY does not name its curve"
        case .malformed(let error): "malformed private key DER: \(error)"
        case .invalidPrivateKey: "the private key is not a P-256 scalar in [1, n − 1]"
        case .publicKeyMismatch: "the file's public key does not match its private key"
        }
    }
}
