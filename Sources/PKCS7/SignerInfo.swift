import CryptoPrimitives
import DER
import X509Certificates

/// How a SignerInfo names its certificate (RFC 5652 §5.3): ranges are offsets in the bytes the
/// `SignedData` was decoded from.
public enum SignerIdentifier: Sendable, Hashable {
    /// Version 1: the certificate's issuer Name (whole DER) and serial number content octets.
    case issuerAndSerialNumber(issuer: Range<Int>, serialNumber: Range<Int>)
    /// Version 3: the certificate's subjectKeyIdentifier.
    case subjectKeyIdentifier(Range<Int>)
}

/// The signed attributes (RFC 5652 §5.3–5.4), checked while decoding: DER, and exactly one
/// content-type and one message-digest attribute, each with a single value. Ranges are offsets in
/// the bytes the `SignedData` was decoded from.
public struct SignedAttributes: Sendable, Hashable {
    /// The whole `[0] IMPLICIT` element; the signature covers it re-tagged as SET (0x31).
    public let range: Range<Int>
    /// The content-type attribute's value (an OBJECT IDENTIFIER's content octets).
    public let contentTypeRange: Range<Int>
    /// The message-digest attribute's OCTET STRING content.
    public let messageDigestRange: Range<Int>
}

/// One SignerInfo (RFC 5652 §5.3), as ranges into the SignedData's storage: offsets in the bytes
/// given to `SignedData(berEncoded:)`.
public struct SignerInfo: Sendable, Hashable {
    /// 1 (issuerAndSerialNumber) or 3 (subjectKeyIdentifier).
    public let version: Int
    /// sid: how the SignerInfo names its signer's certificate.
    public let identifier: SignerIdentifier
    /// digestAlgorithm: the hash of the content (and of the signed attributes, when present).
    public let digestAlgorithm: HashAlgorithm
    /// signedAttrs, when present; the signature then covers them instead of the content.
    public let signedAttributes: SignedAttributes?
    /// signatureAlgorithm: how the signature octets are checked.
    public let signatureAlgorithm: SignatureAlgorithm
    /// The signature octets.
    public let signatureRange: Range<Int>

    init(reading reader: inout ASN1Reader) throws(PKCS7Error) {
        var fields = try asn1(reader.readSequence())
        let versionElement = try asn1(fields.read(.integer))
        let version = try asn1(versionElement.int64Value())
        let sid = try asn1(fields.readElement())
        switch sid.tag {
        case .sequence:
            guard version == 1 else { throw versionElement.failure(.signerIdentifierMismatch) }
            var parts = try asn1(sid.children())
            let issuer = try Self.readIssuerName(&parts)
            let serial = try asn1(parts.read(.integer))
            _ = try asn1(serial.integerBytes())
            try asn1(parts.finish())
            identifier = .issuerAndSerialNumber(issuer: issuer.range, serialNumber: serial.contentRange)
        case .contextSpecific(0, constructed: false):
            guard version == 3 else { throw versionElement.failure(.signerIdentifierMismatch) }
            identifier = .subjectKeyIdentifier(sid.contentRange)
        default:
            throw sid.failure(.encoding(.unexpectedTag(expected: .sequence, found: sid.tag)))
        }
        self.version = Int(version)
        digestAlgorithm = try x509(AlgorithmIdentifier.readDigest(&fields))
        if let attributes = try asn1(fields.readOptional(.contextSpecific(0))) {
            signedAttributes = try SignedAttributes(attributes)
        } else {
            signedAttributes = nil
        }
        signatureAlgorithm = try x509(AlgorithmIdentifier.readSignature(&fields))
        let signature = try asn1(fields.read(.octetString))
        signatureRange = signature.contentRange
        _ = try asn1(fields.readOptional(.contextSpecific(1)))   // unsignedAttrs: not used
        try asn1(fields.finish())
    }
}

extension SignerInfo {
    /// IssuerAndSerialNumber's issuer (RFC 5652 §10.2.4) is a Name: read to the same grammar as a
    /// certificate's, and as DER, since it must equal the certificate's issuer byte for byte (a
    /// SignerInfo whose issuer breaks the grammar is malformed, not merely unmatched).
    static func readIssuerName(_ reader: inout ASN1Reader) throws(PKCS7Error) -> ASN1Element {
        var strict = try asn1(reader.readElement().reread(rules: .der))
        return try x509(Name.read(&strict))
    }
}

extension SignedAttributes {
    /// Reads `[0] IMPLICIT SET OF Attribute` strictly: the signature covers its DER encoding, so
    /// it must have exactly one (RFC 5652 §5.3, X.690 §11.6 order).
    init(_ element: ASN1Element) throws(PKCS7Error) {
        try asn1(element.requireDER())   // signed as their DER (RFC 5652 §5.4): every element, not just the ones read
        var strict = element.reread(rules: .der)
        let set = try asn1(strict.read(.contextSpecific(0)))
        var attributes = try asn1(set.setOfChildren())
        var contentType: Range<Int>? = nil
        var messageDigest: Range<Int>? = nil
        while !attributes.isAtEnd {
            var attribute = try asn1(attributes.readSequence())
            let type = try asn1(attribute.read(.objectIdentifier))
            let typeBytes = try asn1(type.objectIdentifierBytes())
            var values = try asn1(attribute.read(.set).setOfChildren())
            try asn1(attribute.finish())
            let isContentType = OIDs.contentType.matches(typeBytes)
            let isMessageDigest = OIDs.messageDigest.matches(typeBytes)
            guard isContentType || isMessageDigest else { continue }
            // Each at most once, with exactly one value (RFC 5652 §11.1, §11.2).
            guard (isContentType ? contentType : messageDigest) == nil else { throw type.failure(.invalidSignedAttributes) }
            let value = try asn1(isContentType ? values.read(.objectIdentifier) : values.read(.octetString))
            if isContentType { _ = try asn1(value.objectIdentifierBytes()) }
            guard values.isAtEnd else { throw type.failure(.invalidSignedAttributes) }
            if isContentType { contentType = value.contentRange } else { messageDigest = value.contentRange }
        }
        guard let contentType, let messageDigest else { throw set.failure(.invalidSignedAttributes) }
        self.init(range: set.range, contentTypeRange: contentType, messageDigestRange: messageDigest)
    }
}
