import DER

/// Object identifiers the toolkit recognises, compared as encoded bytes. Modules above add their
/// own (PKCS7 adds the CMS content types and attributes).
public enum OIDs: Sendable {
    // Digest algorithms (RFC 3279 §2.2.1, RFC 5754 §2).
    /// id-sha1 (1.3.14.3.2.26).
    public static let sha1 = ASN1ObjectIdentifier("1.3.14.3.2.26")
    /// id-sha224 (2.16.840.1.101.3.4.2.4).
    public static let sha224 = ASN1ObjectIdentifier("2.16.840.1.101.3.4.2.4")
    /// id-sha256 (2.16.840.1.101.3.4.2.1).
    public static let sha256 = ASN1ObjectIdentifier("2.16.840.1.101.3.4.2.1")
    /// id-sha384 (2.16.840.1.101.3.4.2.2).
    public static let sha384 = ASN1ObjectIdentifier("2.16.840.1.101.3.4.2.2")
    /// id-sha512 (2.16.840.1.101.3.4.2.3).
    public static let sha512 = ASN1ObjectIdentifier("2.16.840.1.101.3.4.2.3")

    // RSA (RFC 8017 Appendix A, RFC 4055 §5).
    /// rsaEncryption (1.2.840.113549.1.1.1): an RSA public key.
    public static let rsaEncryption = ASN1ObjectIdentifier("1.2.840.113549.1.1.1")
    /// sha1WithRSAEncryption (1.2.840.113549.1.1.5): RSA PKCS#1 v1.5 with SHA-1.
    public static let sha1WithRSAEncryption = ASN1ObjectIdentifier("1.2.840.113549.1.1.5")
    /// sha224WithRSAEncryption (1.2.840.113549.1.1.14): RSA PKCS#1 v1.5 with SHA-224.
    public static let sha224WithRSAEncryption = ASN1ObjectIdentifier("1.2.840.113549.1.1.14")
    /// sha256WithRSAEncryption (1.2.840.113549.1.1.11): RSA PKCS#1 v1.5 with SHA-256.
    public static let sha256WithRSAEncryption = ASN1ObjectIdentifier("1.2.840.113549.1.1.11")
    /// sha384WithRSAEncryption (1.2.840.113549.1.1.12): RSA PKCS#1 v1.5 with SHA-384.
    public static let sha384WithRSAEncryption = ASN1ObjectIdentifier("1.2.840.113549.1.1.12")
    /// sha512WithRSAEncryption (1.2.840.113549.1.1.13): RSA PKCS#1 v1.5 with SHA-512.
    public static let sha512WithRSAEncryption = ASN1ObjectIdentifier("1.2.840.113549.1.1.13")

    // Elliptic curves (RFC 5480 §2.1.1: id-ecPublicKey and the named curves; RFC 5758 §3.2:
    // ECDSA signature algorithms).
    /// id-ecPublicKey (1.2.840.10045.2.1): an elliptic-curve public key.
    public static let ecPublicKey = ASN1ObjectIdentifier("1.2.840.10045.2.1")
    /// secp256r1 (NIST P-256).
    public static let secp256r1 = ASN1ObjectIdentifier("1.2.840.10045.3.1.7")
    /// secp384r1 (NIST P-384).
    public static let secp384r1 = ASN1ObjectIdentifier("1.3.132.0.34")
    /// ecdsa-with-SHA256 (1.2.840.10045.4.3.2).
    public static let ecdsaWithSHA256 = ASN1ObjectIdentifier("1.2.840.10045.4.3.2")
    /// ecdsa-with-SHA384 (1.2.840.10045.4.3.3).
    public static let ecdsaWithSHA384 = ASN1ObjectIdentifier("1.2.840.10045.4.3.3")
    /// ecdsa-with-SHA512 (1.2.840.10045.4.3.4).
    public static let ecdsaWithSHA512 = ASN1ObjectIdentifier("1.2.840.10045.4.3.4")

    // X.509 extensions (RFC 5280 §4.2.1).
    /// id-ce-subjectKeyIdentifier (2.5.29.14).
    public static let subjectKeyIdentifier = ASN1ObjectIdentifier("2.5.29.14")
    /// id-ce-keyUsage (2.5.29.15).
    public static let keyUsage = ASN1ObjectIdentifier("2.5.29.15")
    /// id-ce-basicConstraints (2.5.29.19).
    public static let basicConstraints = ASN1ObjectIdentifier("2.5.29.19")
    /// id-ce-certificatePolicies (2.5.29.32).
    public static let certificatePolicies = ASN1ObjectIdentifier("2.5.29.32")
    /// id-ce-authorityKeyIdentifier (2.5.29.35).
    public static let authorityKeyIdentifier = ASN1ObjectIdentifier("2.5.29.35")
    /// id-ce-extKeyUsage (2.5.29.37).
    public static let extendedKeyUsage = ASN1ObjectIdentifier("2.5.29.37")
    /// id-kp-codeSigning (RFC 5280 §4.2.1.12).
    public static let codeSigning = ASN1ObjectIdentifier("1.3.6.1.5.5.7.3.3")

    // Apple's markers (Apple PKI Certification Practice Statement).
    /// Certificate policy on the App Store receipt signing certificate.
    public static let appleReceiptSigningPolicy = ASN1ObjectIdentifier("1.2.840.113635.100.5.6.1")
    /// Marker extension on the App Store receipt signing certificate.
    public static let appleReceiptSigningExtension = ASN1ObjectIdentifier("1.2.840.113635.100.6.11.1")
    /// Marker extension on the Apple Worldwide Developer Relations intermediate.
    public static let appleWWDRIntermediateExtension = ASN1ObjectIdentifier("1.2.840.113635.100.6.2.1")

    // Attribute types in names outside id-at (RFC 5280 Appendix A).
    /// emailAddress (PKCS #9), an IA5String.
    public static let emailAddress = ASN1ObjectIdentifier("1.2.840.113549.1.9.1")
    /// domainComponent (RFC 4519 §2.4), an IA5String.
    public static let domainComponent = ASN1ObjectIdentifier("0.9.2342.19200300.100.1.25")

    // Attribute types in names (RFC 5280 Appendix A), for display.
    static let nameAttributes: [(ASN1ObjectIdentifier, String)] = [
        (ASN1ObjectIdentifier("2.5.4.3"), "CN"), (ASN1ObjectIdentifier("2.5.4.6"), "C"),
        (ASN1ObjectIdentifier("2.5.4.7"), "L"), (ASN1ObjectIdentifier("2.5.4.8"), "ST"),
        (ASN1ObjectIdentifier("2.5.4.10"), "O"), (ASN1ObjectIdentifier("2.5.4.11"), "OU"),
        (ASN1ObjectIdentifier("2.5.4.5"), "serialNumber"),
        (emailAddress, "emailAddress"), (domainComponent, "DC"),
    ]
}
