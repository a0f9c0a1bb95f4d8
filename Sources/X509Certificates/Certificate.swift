import CryptoPrimitives
import DER

/// An X.509 v1/v3 certificate (RFC 5280 §4.1), read as strict DER.
///
/// Holds the bytes it came from (shared storage: a receipt's certificates all point into the
/// receipt's one copy) and ranges into them: the exact `tbsCertificate` a signature covers,
/// issuer and subject as raw DER, serial, public key, signature. Parsed once; nothing re-encoded.
public struct Certificate: Sendable {
    /// The storage holding the certificate (possibly among other data).
    package internal(set) var storage: [UInt8]
    /// The certificate's whole encoding within `storage`.
    package internal(set) var range: Range<Int>
    /// `tbsCertificate`, header included: the bytes the issuer signed.
    package internal(set) var tbsRange: Range<Int>
    /// 1 or 3.
    public let version: Int
    /// serialNumber content octets (two's complement).
    package internal(set) var serialRange: Range<Int>
    /// The outer signatureAlgorithm (equal to the inner one, RFC 5280 §4.1.1.2).
    public let signatureAlgorithm: SignatureAlgorithm
    /// issuer Name, whole DER encoding.
    package internal(set) var issuerRange: Range<Int>
    /// subject Name, whole DER encoding.
    package internal(set) var subjectRange: Range<Int>
    /// Validity, seconds since 1970 (RFC 5280 §4.1.2.5: both ends inclusive).
    public let notBefore: Int64
    /// The last second of validity, seconds since 1970 (inclusive).
    public let notAfter: Int64
    /// subjectPublicKeyInfo, whole DER encoding.
    package internal(set) var publicKeyInfoRange: Range<Int>
    /// The parsed public key.
    public internal(set) var publicKey: PublicKeyInfo
    /// Extensions (empty for v1).
    public let extensions: CertificateExtensions
    /// signatureValue bits (whole octets).
    package internal(set) var signatureRange: Range<Int>

    /// Parses a DER certificate that fills `der` exactly.
    public init(derEncoded der: [UInt8]) throws(CertificateError) {
        self = try der.withRawBytes { (raw) throws(CertificateError) in
            var reader = ASN1Reader(raw, rules: .der)
            let certificate = try Certificate(reading: &reader, storage: der)
            try asn1(reader.finish())
            return certificate
        }
    }

    /// Reads the next element of `reader` (whose input is `storage`) as a DER certificate,
    /// whatever rules the reader itself uses.
    package init(reading reader: inout ASN1Reader, storage: [UInt8]) throws(CertificateError) {
        try self.init(element: asn1(reader.readElement()), storage: storage)
    }

    /// Reads `outer` (an element of `storage`, read under any rules) as a DER certificate.
    ///
    /// Every element of it is DER (DESIGN §3: the bytes a signature covers must have exactly one
    /// reading): each field is read by a DER reader that checks its value (X.690 §10–11), and the
    /// parts no reader interprets (values of name attributes without a string syntax, parameters
    /// of an unknown key algorithm) are walked with `requireDER` where they are skipped.
    /// Extension values are OCTET STRINGs: the known ones are decoded as DER, others stay opaque.
    package init(element outer: ASN1Element, storage: [UInt8]) throws(CertificateError) {
        guard outer.encodedLength <= X509Limits.maxCertificateSize else {
            throw outer.failure(.certificateTooLarge(outer.encodedLength))
        }
        var strict = outer.reread(rules: .der)
        let certificate = try asn1(strict.read(.sequence))
        var fields = try asn1(certificate.children())
        let tbs = try asn1(fields.read(.sequence))
        let outerAlgorithmElement = try asn1(fields.readElement())
        var algorithmReader = outerAlgorithmElement.reread(rules: .der)
        signatureAlgorithm = try AlgorithmIdentifier.readSignature(&algorithmReader)
        let signatureElement = try asn1(fields.read(.bitString))
        guard try asn1(signatureElement.bitStringValue().isOctetAligned) else { throw signatureElement.failure(.encoding(.invalidBitString)) }
        try asn1(fields.finish())

        self.storage = storage
        range = certificate.range
        tbsRange = tbs.range
        signatureRange = signatureElement.contentRange.dropFirst()

        var body = try asn1(tbs.children())
        // version [0] EXPLICIT Version DEFAULT v1: DER omits v1 (X.690 §11.5).
        if let versionElement = try asn1(body.readOptional(.contextSpecific(0))) {
            var inner = try asn1(versionElement.children())
            let value = try asn1(inner.readInt64())
            try asn1(inner.finish())
            guard value == 1 || value == 2 else {
                throw versionElement.failure(value == 0 ? .defaultValueEncoded : .unsupportedVersion(value))
            }
            version = Int(value) + 1
        } else {
            version = 1
        }
        let serial = try asn1(body.read(.integer))
        _ = try asn1(serial.integerBytes())
        serialRange = serial.contentRange
        let innerAlgorithm = try asn1(body.read(.sequence))
        guard innerAlgorithm.encoded.elementsEqual(outerAlgorithmElement.encoded) else {
            throw innerAlgorithm.failure(.signatureAlgorithmMismatch)
        }
        let issuer = try Name.read(&body)
        // RFC 5280 §4.1.2.4: "The issuer field MUST contain a non-empty distinguished name."
        guard issuer.contentLength > 0 else { throw issuer.failure(.invalidName(.emptyIssuer)) }
        issuerRange = issuer.range
        var validity = try asn1(body.readSequence())
        notBefore = try asn1(validity.readTime())
        notAfter = try asn1(validity.readTime())
        try asn1(validity.finish())
        subjectRange = try Name.read(&body).range
        let keyStart = body.offset
        publicKey = try PublicKeyInfo.read(&body)
        publicKeyInfoRange = keyStart ..< body.offset
        // issuerUniqueID [1] and subjectUniqueID [2] (v2/v3 only), then extensions [3] (v3 only).
        if version >= 2 {
            _ = try asn1(body.readOptional(.contextSpecific(1, constructed: false)))
            _ = try asn1(body.readOptional(.contextSpecific(2, constructed: false)))
        }
        if version == 3, let wrapper = try asn1(body.readOptional(.contextSpecific(3))) {
            var inner = try asn1(wrapper.children())
            extensions = try CertificateExtensions.read(&inner)
            try asn1(inner.finish())
        } else {
            extensions = CertificateExtensions()
        }
        try asn1(body.finish())
    }
}

extension Certificate {
    /// The whole DER encoding.
    public var encoded: ArraySlice<UInt8> { storage[range] }
    /// The signed `tbsCertificate` bytes.
    public var tbsCertificate: ArraySlice<UInt8> { storage[tbsRange] }
    /// Issuer Name DER.
    public var issuer: ArraySlice<UInt8> { storage[issuerRange] }
    /// Subject Name DER.
    public var subject: ArraySlice<UInt8> { storage[subjectRange] }
    /// Serial number octets.
    public var serialNumber: ArraySlice<UInt8> { storage[serialRange] }
    /// Signature octets.
    public var signature: ArraySlice<UInt8> { storage[signatureRange] }
    /// subjectPublicKeyInfo DER.
    public var publicKeyInfo: ArraySlice<UInt8> { storage[publicKeyInfoRange] }

    /// The subject Name, for errors: its bytes, no text until asked (`CertificateName`).
    public var subjectName: CertificateName { CertificateName(der: subject) }
    /// The issuer Name, for errors: its bytes, no text until asked (`CertificateName`).
    public var issuerName: CertificateName { CertificateName(der: issuer) }
    /// The subject as display text (`subjectName.description`).
    public var subjectDescription: String { subjectName.description }
    /// The issuer as display text (`issuerName.description`).
    public var issuerDescription: String { issuerName.description }

    /// True when issuer and subject are the same name (RFC 5280 §6.1: self-issued).
    public var isSelfIssued: Bool { issuer == subject }

    /// SHA-256 of the whole encoding.
    public var fingerprint: Digest {
        storage.withUnsafeBytes { SHA256.hash(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// True when `time` (seconds since 1970) lies within notBefore…notAfter, both inclusive.
    public func isValid(at time: Int64) -> Bool { notBefore <= time && time <= notAfter }
}
