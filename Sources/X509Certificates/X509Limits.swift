/// Resource bounds on X.509 input, beyond the reader's nesting limit (`ASN1Limits.maxDepth`).
/// Past them parsing fails with its own `CertificateError` kind; within them the work is linear.
public enum X509Limits: Sendable {
    /// Largest certificate accepted, in bytes (whole DER encoding). Apple's certificates take
    /// 0.5–1.6 KB, and one with an RSA-8192 key (the largest `RSAPublicKey` accepts: 1 KB of
    /// modulus and 1 KB of signature) and a full set of extensions stays under 4 KB. 16 KiB leaves
    /// four times that, while a message's certificates (`PKCS7Limits.maxCertificates` of them)
    /// can cost at most 256 KiB of parsing.
    public static let maxCertificateSize = 16 * 1024

    /// Largest Name accepted, in bytes (whole DER encoding). Apple's names take 70–200 bytes. One
    /// of each attribute a name usually carries at RFC 5280's upper bounds (Appendix A: CN, O, OU
    /// 64 characters, L and ST 128, C 2, emailAddress 255), every character 4 bytes of UTF-8,
    /// comes to about 2.9 KB; 4 KiB holds it.
    public static let maxNameSize = 4 * 1024

    /// Most extensions in one certificate. Apple's carry 3 to 10, web certificates about 10.
    /// Each extension is checked against the ones before it (RFC 5280 §4.2: at most one of each),
    /// so this also bounds that check at 496 comparisons.
    public static let maxExtensions = 32
}
