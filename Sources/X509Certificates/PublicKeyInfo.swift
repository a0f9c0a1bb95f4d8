import CryptoPrimitives
import DER

/// A certificate's subjectPublicKeyInfo (RFC 5280 §4.1.2.7), as ranges into the certificate's
/// storage: valid indices of `Certificate.publicKeyInfo`, a slice that keeps them. RSA keys are turned into `RSAPublicKey` only when a signature is checked.
public enum PublicKeyInfo: Sendable, Hashable {
    /// rsaEncryption: the RSAPublicKey's modulus and exponent magnitudes (RFC 8017 §A.1.1).
    case rsa(modulus: Range<Int>, exponent: Range<Int>)
    /// id-ecPublicKey with a named curve: the curve and the encoded point (RFC 5480 §2).
    case ec(curve: ASN1ObjectIdentifier, point: Range<Int>)
    /// Any other algorithm, kept by identifier.
    case other(ASN1ObjectIdentifier)

    /// Reads a SubjectPublicKeyInfo (DER).
    static func read(_ reader: inout ASN1Reader) throws(CertificateError) -> PublicKeyInfo {
        let spki = try asn1(reader.read(.sequence))
        var fields = try asn1(spki.children())
        var algorithm = try asn1(fields.readSequence())
        let oidElement = try asn1(algorithm.read(.objectIdentifier))
        let oid = try asn1(oidElement.objectIdentifierBytes())
        let keyElement = try asn1(fields.read(.bitString))
        let key = try asn1(keyElement.bitStringValue())
        try asn1(fields.finish())
        guard key.isOctetAligned else { throw keyElement.failure(.invalidPublicKey) }
        let keyRange = keyElement.contentRange.dropFirst()   // after the unused-bits octet
        if OIDs.rsaEncryption.matches(oid) {
            // Parameters are NULL (RFC 3279 §2.3.1).
            guard (try? algorithm.readNull()) != nil, algorithm.isAtEnd else {
                throw oidElement.failure(.invalidAlgorithmParameters)
            }
            return try readRSAPublicKey(key.bytes, at: keyRange.lowerBound)
        }
        if OIDs.ecPublicKey.matches(oid) {
            let curve = try asn1(algorithm.read(.objectIdentifier).objectIdentifierValue())
            try asn1(algorithm.finish())
            return .ec(curve: curve, point: keyRange)
        }
        // Parameters of an algorithm this toolkit does not read: opaque, but DER (X.690 §10–11).
        while !algorithm.isAtEnd { try asn1(algorithm.readElement().requireDER()) }
        return .other(try asn1(oidElement.objectIdentifierValue()))
    }

    /// RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER } (RFC 8017 §A.1.1).
    /// Both must be positive (a negative modulus is a classic malformed key); `offset` is where
    /// `bytes` start in the input. Ranges exclude the sign octet.
    static func readRSAPublicKey(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(CertificateError) -> PublicKeyInfo {
        var reader = ASN1Reader(bytes, rules: .der, baseOffset: offset)
        var fields = try asn1(reader.readSequence())
        let modulusElement = try asn1(fields.read(.integer))
        let exponentElement = try asn1(fields.read(.integer))
        try asn1(fields.finish())
        try asn1(reader.finish())
        func magnitudeRange(_ element: ASN1Element) throws(CertificateError) -> Range<Int> {
            let magnitude = try asn1(element.unsignedIntegerBytes())
            guard magnitude.contains(where: { $0 != 0 }) else { throw element.failure(.invalidPublicKey) }
            let end = element.contentOffset + element.contentLength
            return (end - magnitude.count) ..< end
        }
        return .rsa(modulus: try magnitudeRange(modulusElement), exponent: try magnitudeRange(exponentElement))
    }
}

extension RSAPublicKey {
    /// Parses a DER RSAPublicKey (RFC 8017 §A.1.1): positive modulus and exponent, no trailing
    /// bytes, then the key rules of `RSAPublicKey.init(modulus:exponent:)`.
    public init(rsaPublicKeyDER der: [UInt8]) throws(CertificateError) {
        let info = try der.withRawBytes { (raw) throws(CertificateError) in try PublicKeyInfo.readRSAPublicKey(raw, at: 0) }
        try self.init(info, in: der, at: 0)
    }

    /// Parses a DER SubjectPublicKeyInfo holding an rsaEncryption key (RFC 5280 §4.1.2.7).
    public init(subjectPublicKeyInfoDER der: [UInt8]) throws(CertificateError) {
        let info = try der.withRawBytes { (raw) throws(CertificateError) in
            var reader = ASN1Reader(raw, rules: .der)
            let info = try PublicKeyInfo.read(&reader)
            try asn1(reader.finish())
            return info
        }
        try self.init(info, in: der, at: 0)
    }

    /// The RSA key a parsed `PublicKeyInfo` describes, with its magnitudes in `storage`.
    init(_ info: PublicKeyInfo, in storage: [UInt8], at offset: Int) throws(CertificateError) {
        guard case .rsa(let modulus, let exponent) = info else { throw CertificateError(.invalidPublicKey, at: offset) }
        do {
            self = try storage.withRawBytes { (raw) throws(RSAKeyError) in
                try RSAPublicKey(
                    modulus: UnsafeRawBufferPointer(rebasing: raw[modulus]),
                    exponent: UnsafeRawBufferPointer(rebasing: raw[exponent]))
            }
        } catch {
            throw CertificateError(.invalidPublicKey, at: offset)
        }
    }
}
