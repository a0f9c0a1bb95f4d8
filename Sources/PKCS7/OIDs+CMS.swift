import DER
import X509Certificates

extension OIDs {
    // PKCS#7 / CMS content types (RFC 5652 §4, §5.1) and attributes (§11).
    /// id-data (1.2.840.113549.1.7.1): the content type of a receipt's payload.
    public static let data = ASN1ObjectIdentifier("1.2.840.113549.1.7.1")
    /// id-signedData (1.2.840.113549.1.7.2).
    public static let signedData = ASN1ObjectIdentifier("1.2.840.113549.1.7.2")
    /// id-contentType (1.2.840.113549.1.9.3), the content-type signed attribute.
    public static let contentType = ASN1ObjectIdentifier("1.2.840.113549.1.9.3")
    /// id-messageDigest (1.2.840.113549.1.9.4), the message-digest signed attribute.
    public static let messageDigest = ASN1ObjectIdentifier("1.2.840.113549.1.9.4")
}
