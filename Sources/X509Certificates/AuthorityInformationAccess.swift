import DER

extension OIDs {
    /// id-pe-authorityInfoAccess (1.3.6.1.5.5.7.1.1, RFC 5280 §4.2.2.1).
    public static let authorityInfoAccess = ASN1ObjectIdentifier("1.3.6.1.5.5.7.1.1")
    /// id-ad-ocsp (1.3.6.1.5.5.7.48.1): an access method naming an OCSP responder (RFC 6960 §3.1).
    public static let ocspAccessMethod = ASN1ObjectIdentifier("1.3.6.1.5.5.7.48.1")
    /// id-ad-caIssuers (1.3.6.1.5.5.7.48.2): an access method naming the issuer's certificates.
    public static let caIssuersAccessMethod = ASN1ObjectIdentifier("1.3.6.1.5.5.7.48.2")
    /// id-kp-OCSPSigning (1.3.6.1.5.5.7.3.9): the key purpose of a delegated OCSP responder (RFC 6960 §4.2.2.2).
    public static let ocspSigning = ASN1ObjectIdentifier("1.3.6.1.5.5.7.3.9")
    /// id-pkix-ocsp-basic (1.3.6.1.5.5.7.48.1.1): the BasicOCSPResponse type (RFC 6960 §4.2.1).
    public static let ocspBasicResponse = ASN1ObjectIdentifier("1.3.6.1.5.5.7.48.1.1")
    /// id-pkix-ocsp-nonce (1.3.6.1.5.5.7.48.1.2): the nonce extension (RFC 6960 §4.4.1, RFC 8954).
    public static let ocspNonce = ASN1ObjectIdentifier("1.3.6.1.5.5.7.48.1.2")
    /// id-pkix-ocsp-nocheck (1.3.6.1.5.5.7.48.1.5): a responder certificate need not be checked (RFC 6960 §4.2.2.2.1).
    public static let ocspNoCheck = ASN1ObjectIdentifier("1.3.6.1.5.5.7.48.1.5")
}

extension Certificate {
    /// The OCSP responders the certificate's authorityInfoAccess extension names (RFC 5280
    /// §4.2.2.1): the uniformResourceIdentifier of each AccessDescription whose accessMethod is
    /// id-ad-ocsp, in order. Empty when the extension is absent or names no OCSP responder;
    /// access locations of other GeneralName forms are skipped.
    ///
    /// The certificate parser keeps this extension's value opaque, so it is read here, as DER:
    /// `SEQUENCE SIZE (1..MAX) OF AccessDescription { accessMethod OBJECT IDENTIFIER,
    /// accessLocation GeneralName }`, the URI an `[6] IMPLICIT IA5String`. A malformed value
    /// throws, at its offset in `storage`.
    public var ocspResponderURLs: [String] {
        get throws(CertificateError) {
            guard let value = try extensionValueRange(OIDs.authorityInfoAccess) else { return [] }
            return try storage.withRawBytes { (raw) throws(CertificateError) in
                var reader = ASN1Reader(UnsafeRawBufferPointer(rebasing: raw[value]), rules: .der, baseOffset: value.lowerBound)
                let list = try asn1(reader.read(.sequence))
                try asn1(reader.finish())
                var entries = try asn1(list.children())
                if entries.isAtEnd { throw list.failure(.emptyList) }
                var urls: [String] = []
                while !entries.isAtEnd {
                    var description = try asn1(entries.readSequence())
                    let method = try asn1(description.read(.objectIdentifier).objectIdentifierBytes())
                    let location = try asn1(description.readElement())
                    try asn1(description.finish())
                    try asn1(location.requireDER())
                    guard OIDs.ocspAccessMethod.matches(method), location.tag == .contextSpecific(6, constructed: false) else { continue }
                    urls.append(try asn1(location.stringValue(.ia5)))
                }
                return urls
            }
        }
    }

    /// The range in `storage` of the value (the content of extnValue's OCTET STRING) of the
    /// extension `oid`, or `nil` when the certificate does not carry it. Walks the already
    /// validated `tbsCertificate` again (RFC 5280 §4.1): the parser keeps unknown values opaque.
    package func extensionValueRange(_ oid: ASN1ObjectIdentifier) throws(CertificateError) -> Range<Int>? {
        guard extensions.contains(oid) else { return nil }
        return try storage.withRawBytes { (raw) throws(CertificateError) -> Range<Int>? in
            var reader = ASN1Reader(UnsafeRawBufferPointer(rebasing: raw[tbsRange]), rules: .der, baseOffset: tbsRange.lowerBound)
            var body = try asn1(reader.readSequence())
            _ = try asn1(body.readOptional(.contextSpecific(0)))   // version
            for _ in 0 ..< 6 { try asn1(body.skipElement()) }   // serial, signature, issuer, validity, subject, key
            _ = try asn1(body.readOptional(.contextSpecific(1, constructed: false)))
            _ = try asn1(body.readOptional(.contextSpecific(2, constructed: false)))
            guard let wrapper = try asn1(body.readOptional(.contextSpecific(3))) else { return nil }
            var inner = try asn1(wrapper.children())
            var entries = try asn1(inner.readSequence())
            while !entries.isAtEnd {
                var fields = try asn1(entries.readSequence())
                let id = try asn1(fields.read(.objectIdentifier).objectIdentifierBytes())
                _ = try asn1(fields.readOptional(.boolean))
                let value = try asn1(fields.read(.octetString))
                if oid.matches(id) { return value.contentRange }
            }
            return nil
        }
    }

    /// The range in `storage` of the subjectPublicKey BIT STRING's bits (after the unused-bits
    /// octet): what OCSP hashes as the issuer's key (RFC 6960 §4.1.1) and as a responder's
    /// `byKey` identifier (§4.2.1). Empty if the key cannot be read again (it was read once).
    package var subjectPublicKeyRange: Range<Int> {
        let range = publicKeyInfoRange
        let found: Range<Int>? = storage.withUnsafeBytes { raw in
            var reader = ASN1Reader(UnsafeRawBufferPointer(rebasing: raw[range]), rules: .der, baseOffset: range.lowerBound)
            guard var fields = try? reader.readSequence(), (try? fields.skipElement()) != nil,
                let key = try? fields.read(.bitString), key.contentLength > 0
            else { return nil }
            return key.contentRange.dropFirst()
        }
        return found ?? range.upperBound ..< range.upperBound
    }

    /// The subjectPublicKey bits (see `subjectPublicKeyRange`).
    package var subjectPublicKeyBits: ArraySlice<UInt8> { storage[subjectPublicKeyRange] }
}
