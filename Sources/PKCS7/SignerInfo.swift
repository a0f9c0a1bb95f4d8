import CryptoPrimitives
import DER
import X509Certificates

/// How a SignerInfo names its certificate (RFC 5652 §5.3).
public enum SignerIdentifier: Sendable, Hashable {
    /// Version 1: the certificate's issuer Name (whole DER) and serial number content octets.
    case issuerAndSerialNumber(issuer: Range<Int>, serialNumber: Range<Int>)
    /// Version 3: the certificate's subjectKeyIdentifier.
    case subjectKeyIdentifier(Range<Int>)
}

/// The signed attributes (RFC 5652 §5.3–5.4), checked while decoding: DER, and exactly one
/// content-type and one message-digest attribute, each with a single value.
public struct SignedAttributes: Sendable, Hashable {
    /// The whole `[0] IMPLICIT` element; the signature covers it re-tagged as SET (0x31).
    public let range: Range<Int>
    /// The content-type attribute's value (an OBJECT IDENTIFIER's content octets).
    public let contentTypeRange: Range<Int>
    /// The message-digest attribute's OCTET STRING content.
    public let messageDigestRange: Range<Int>
}

/// One SignerInfo (RFC 5652 §5.3), as ranges into the SignedData's storage.
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

    init(reading reader: inout ASN1Reader) throws {
        var fields = try reader.readSequence()
        let versionElement = try fields.read(.integer)
        let version = try versionElement.int64Value()
        let sid = try fields.readElement()
        switch sid.tag {
        case .sequence:
            guard version == 1 else { throw versionElement.failure(.signerIdentifierMismatch) }
            var parts = try sid.children()
            let issuer = try Self.readIssuerName(&parts)
            let serial = try parts.read(.integer)
            _ = try serial.integerBytes()
            try parts.finish()
            identifier = .issuerAndSerialNumber(issuer: issuer.range, serialNumber: serial.contentRange)
        case .contextSpecific(0, constructed: false):
            guard version == 3 else { throw versionElement.failure(.signerIdentifierMismatch) }
            identifier = .subjectKeyIdentifier(sid.contentRange)
        default:
            throw sid.failure(.encoding(.unexpectedTag(expected: .sequence, found: sid.tag)))
        }
        self.version = Int(version)
        digestAlgorithm = try AlgorithmIdentifier.readDigest(&fields)
        if let attributes = try fields.readOptional(.contextSpecific(0)) {
            signedAttributes = try SignedAttributes(attributes)
        } else {
            signedAttributes = nil
        }
        signatureAlgorithm = try AlgorithmIdentifier.readSignature(&fields)
        let signature = try fields.read(.octetString)
        signatureRange = signature.contentRange
        _ = try fields.readOptional(.contextSpecific(1))   // unsignedAttrs: not used
        try fields.finish()
    }
}

extension SignerInfo {
    /// IssuerAndSerialNumber's issuer (RFC 5652 §10.2.4) is a Name: read to the same grammar as a
    /// certificate's, and as DER, since it must equal the certificate's issuer byte for byte (a
    /// SignerInfo whose issuer breaks the grammar is malformed, not merely unmatched).
    static func readIssuerName(_ reader: inout ASN1Reader) throws -> ASN1Element {
        var strict = try reader.readElement().reread(rules: .der)
        return try Name.read(&strict)
    }
}

extension SignedAttributes {
    /// Reads `[0] IMPLICIT SET OF Attribute` strictly: the signature covers its DER encoding, so
    /// it must have exactly one (RFC 5652 §5.3, X.690 §11.6 order).
    init(_ element: ASN1Element) throws {
        try element.requireDER()   // signed as their DER (RFC 5652 §5.4): every element, not just the ones read
        var strict = element.reread(rules: .der)
        let set = try strict.read(.contextSpecific(0))
        var attributes = try set.setOfChildren()
        var contentType: Range<Int>? = nil
        var messageDigest: Range<Int>? = nil
        while !attributes.isAtEnd {
            var attribute = try attributes.readSequence()
            let type = try attribute.read(.objectIdentifier)
            let typeBytes = try type.objectIdentifierBytes()
            var values = try attribute.read(.set).setOfChildren()
            try attribute.finish()
            let isContentType = OIDs.contentType.matches(typeBytes)
            let isMessageDigest = OIDs.messageDigest.matches(typeBytes)
            guard isContentType || isMessageDigest else { continue }
            // Each at most once, with exactly one value (RFC 5652 §11.1, §11.2).
            guard (isContentType ? contentType : messageDigest) == nil else { throw type.failure(.invalidSignedAttributes) }
            let value = isContentType ? try values.read(.objectIdentifier) : try values.read(.octetString)
            if isContentType { _ = try value.objectIdentifierBytes() }
            guard values.isAtEnd else { throw type.failure(.invalidSignedAttributes) }
            if isContentType { contentType = value.contentRange } else { messageDigest = value.contentRange }
        }
        guard let contentType, let messageDigest else { throw set.failure(.invalidSignedAttributes) }
        self.init(range: set.range, contentTypeRange: contentType, messageDigestRange: messageDigest)
    }
}
