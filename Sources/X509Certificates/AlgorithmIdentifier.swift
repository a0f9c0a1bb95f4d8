import CryptoPrimitives
import DER

/// A signature algorithm as named by an AlgorithmIdentifier.
public enum SignatureAlgorithm: Sendable, Hashable {
    /// `rsaEncryption` in a SignerInfo: PKCS#1 v1.5 with the SignerInfo's digest algorithm (the
    /// App Store's receipts use this).
    case rsaEncryption
    /// `shaNWithRSAEncryption`: PKCS#1 v1.5 with the named hash.
    case rsaWithHash(HashAlgorithm)
    /// `ecdsa-with-SHAn`: recognised, not yet verified.
    case ecdsaWithHash(HashAlgorithm)

    /// The hash the algorithm names, if it names one.
    public var hash: HashAlgorithm? {
        switch self {
        case .rsaEncryption: return nil
        case .rsaWithHash(let hash), .ecdsaWithHash(let hash): return hash
        }
    }
}

/// AlgorithmIdentifier (RFC 5280 §4.1.1.2) for the algorithms receipts and certificates use,
/// always read as DER: the bytes are covered by signatures.
package enum AlgorithmIdentifier {
    static let digests: [(ASN1ObjectIdentifier, HashAlgorithm)] = [
        (OIDs.sha256, .sha256), (OIDs.sha1, .sha1), (OIDs.sha384, .sha384), (OIDs.sha512, .sha512), (OIDs.sha224, .sha224),
    ]
    static let rsaSignatures: [(ASN1ObjectIdentifier, HashAlgorithm)] = [
        (OIDs.sha256WithRSAEncryption, .sha256), (OIDs.sha1WithRSAEncryption, .sha1),
        (OIDs.sha384WithRSAEncryption, .sha384), (OIDs.sha512WithRSAEncryption, .sha512),
        (OIDs.sha224WithRSAEncryption, .sha224),
    ]
    static let ecdsaSignatures: [(ASN1ObjectIdentifier, HashAlgorithm)] = [
        (OIDs.ecdsaWithSHA256, .sha256), (OIDs.ecdsaWithSHA384, .sha384), (OIDs.ecdsaWithSHA512, .sha512),
    ]

    /// A digest AlgorithmIdentifier; parameters absent or NULL (RFC 5754 §2).
    package static func readDigest(_ reader: inout ASN1Reader) throws(CertificateError) -> HashAlgorithm {
        let (oidElement, parameters) = try readParts(&reader)
        let oid = try asn1(oidElement.objectIdentifierBytes())
        guard let hash = lookup(digests, oid) else {
            throw oidElement.failure(.unsupportedAlgorithm(try asn1(oidElement.objectIdentifierValue())))
        }
        if let parameters { try requireNull(parameters) }
        return hash
    }

    /// A signature AlgorithmIdentifier. RSA parameters are NULL or absent (RFC 4055 §5 says
    /// implementations MUST accept both); ECDSA parameters are absent (RFC 5758 §3.2).
    package static func readSignature(_ reader: inout ASN1Reader) throws(CertificateError) -> SignatureAlgorithm {
        let (oidElement, parameters) = try readParts(&reader)
        let oid = try asn1(oidElement.objectIdentifierBytes())
        if OIDs.rsaEncryption.matches(oid) {
            if let parameters { try requireNull(parameters) }
            return .rsaEncryption
        }
        if let hash = lookup(rsaSignatures, oid) {
            if let parameters { try requireNull(parameters) }
            return .rsaWithHash(hash)
        }
        if let hash = lookup(ecdsaSignatures, oid) {
            if let parameters { throw parameters.failure(.invalidAlgorithmParameters) }
            return .ecdsaWithHash(hash)
        }
        throw oidElement.failure(.unsupportedAlgorithm(try asn1(oidElement.objectIdentifierValue())))
    }

    /// The OID element and the optional parameters element of the next AlgorithmIdentifier,
    /// re-read as DER.
    private static func readParts(_ reader: inout ASN1Reader) throws(CertificateError) -> (ASN1Element, ASN1Element?) {
        var strict = try asn1(reader.readElement().reread(rules: .der))
        var fields = try asn1(strict.readSequence())
        let oid = try asn1(fields.read(.objectIdentifier))
        let parameters = fields.isAtEnd ? nil : try asn1(fields.readElement())
        try asn1(fields.finish())
        return (oid, parameters)
    }

    private static func requireNull(_ parameters: ASN1Element) throws(CertificateError) {
        guard parameters.tag == .null, parameters.contentLength == 0 else {
            throw parameters.failure(.invalidAlgorithmParameters)
        }
    }

    private static func lookup<T>(_ table: [(ASN1ObjectIdentifier, T)], _ oid: UnsafeRawBufferPointer) -> T? {
        for (candidate, value) in table where candidate.matches(oid) { return value }
        return nil
    }
}
