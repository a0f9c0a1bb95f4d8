import CryptoPrimitives
import DER

/// OCSPResponseStatus (RFC 6960 §4.2.1).
public enum OCSPResponseStatus: Int64, Sendable, Hashable {
    /// The response holds responseBytes.
    case successful = 0
    /// The responder could not read the request.
    case malformedRequest = 1
    /// The responder is in an inconsistent internal state.
    case internalError = 2
    /// The responder cannot answer now: try again later.
    case tryLater = 3
    /// The responder wants signed requests.
    case sigRequired = 5
    /// The client may not ask this responder.
    case unauthorized = 6
}

/// CRLReason (RFC 5280 §5.3.1), the reason a certificate was revoked.
public enum CRLReason: Int64, Sendable, Hashable {
    /// unspecified (0).
    case unspecified = 0
    /// keyCompromise (1).
    case keyCompromise = 1
    /// cACompromise (2).
    case caCompromise = 2
    /// affiliationChanged (3).
    case affiliationChanged = 3
    /// superseded (4).
    case superseded = 4
    /// cessationOfOperation (5).
    case cessationOfOperation = 5
    /// certificateHold (6).
    case certificateHold = 6
    /// removeFromCRL (8).
    case removeFromCRL = 8
    /// privilegeWithdrawn (9).
    case privilegeWithdrawn = 9
    /// aACompromise (10).
    case aaCompromise = 10
}

/// CertStatus (RFC 6960 §4.2.1) of one SingleResponse.
public enum OCSPCertStatus: Sendable, Hashable {
    /// `good [0] IMPLICIT NULL`: not revoked (as far as the responder knows).
    case good
    /// `revoked [1] IMPLICIT RevokedInfo`: revoked at `time` (seconds since 1970), for `reason` when given.
    case revoked(time: Int64, reason: CRLReason?)
    /// `unknown [2] IMPLICIT NULL`: the responder does not know the certificate.
    case unknown
}

/// How an OCSP response names its signer (RFC 6960 §4.2.1).
public enum OCSPResponderID: Sendable, Hashable {
    /// `byName [1] Name`: the signer's subject Name, whole DER (compared byte for byte).
    case byName([UInt8])
    /// `byKey [2] KeyHash`: SHA-1 of the signer's subjectPublicKey bits.
    case byKey([UInt8])
}

/// One SingleResponse (RFC 6960 §4.2.1).
///
///     SingleResponse ::= SEQUENCE { certID CertID, certStatus CertStatus, thisUpdate GeneralizedTime,
///                                   nextUpdate [0] EXPLICIT GeneralizedTime OPTIONAL,
///                                   singleExtensions [1] EXPLICIT Extensions OPTIONAL }
public struct OCSPSingleResponse: Sendable, Hashable {
    /// The certificate the answer is about.
    public let certID: OCSPCertID
    /// The answer.
    public let status: OCSPCertStatus
    /// When the status was known to be correct, seconds since 1970.
    public let thisUpdate: Int64
    /// When newer information will be available, seconds since 1970, if the responder says.
    public let nextUpdate: Int64?
}

/// An OCSP response (RFC 6960 §4.2.1), read as strict DER, with its BasicOCSPResponse when the
/// status is successful.
///
///     OCSPResponse ::= SEQUENCE { responseStatus OCSPResponseStatus,
///                                 responseBytes [0] EXPLICIT ResponseBytes OPTIONAL }
///     ResponseBytes ::= SEQUENCE { responseType OBJECT IDENTIFIER, response OCTET STRING }
///     BasicOCSPResponse ::= SEQUENCE { tbsResponseData ResponseData, signatureAlgorithm AlgorithmIdentifier,
///                                      signature BIT STRING, certs [0] EXPLICIT SEQUENCE OF Certificate OPTIONAL }
///     ResponseData ::= SEQUENCE { version [0] EXPLICIT Version DEFAULT v1, responderID ResponderID,
///                                 producedAt GeneralizedTime, responses SEQUENCE OF SingleResponse,
///                                 responseExtensions [1] EXPLICIT Extensions OPTIONAL }
///
/// Every element is DER (the signed `tbsResponseData` must have exactly one reading), sizes and
/// counts are bounded by `OCSPLimits`, and errors carry the offset of the element at fault. The
/// signature is not checked here: see `OCSPResponseVerifier`.
public struct OCSPResponse: Sendable {
    /// The bytes the response was read from; certificates and ranges point into them.
    package let storage: [UInt8]
    /// responseStatus.
    public let status: OCSPResponseStatus
    /// The BasicOCSPResponse, present exactly when `status` is `successful`.
    public let basic: BasicOCSPResponse?

    /// Parses a DER OCSPResponse that fills `der` exactly.
    public init(derEncoded der: [UInt8]) throws(OCSPResponseError) {
        guard der.count <= OCSPLimits.maxResponseSize else { throw OCSPResponseError(.responseTooLarge(der.count), at: 0) }
        storage = der
        (status, basic) = try der.withRawBytes { (raw) throws(OCSPResponseError) in
            var reader = ASN1Reader(raw, rules: .der)
            let parts = try Self.read(&reader, storage: der)
            try ocspDER(reader.finish())
            return parts
        }
    }

    private static func read(_ reader: inout ASN1Reader, storage: [UInt8]) throws(OCSPResponseError) -> (OCSPResponseStatus, BasicOCSPResponse?) {
        var fields = try ocspDER(reader.readSequence())
        let statusElement = try ocspDER(fields.read(.enumerated))
        let rawStatus = try ocspDER(statusElement.int64Value())
        guard let status = OCSPResponseStatus(rawValue: rawStatus) else { throw statusElement.ocspFailure(.unknownResponseStatus(rawStatus)) }
        let wrapper = try ocspDER(fields.readOptional(.contextSpecific(0)))
        try ocspDER(fields.finish())
        guard let wrapper else {
            if status == .successful { throw statusElement.ocspFailure(.missingResponseBytes) }
            return (status, nil)
        }
        guard status == .successful else { throw wrapper.ocspFailure(.unexpectedResponseBytes) }
        var explicit = try ocspDER(wrapper.children())
        var responseBytes = try ocspDER(explicit.readSequence())
        try ocspDER(explicit.finish())
        let typeElement = try ocspDER(responseBytes.read(.objectIdentifier))
        guard OIDs.ocspBasicResponse.matches(try ocspDER(typeElement.objectIdentifierBytes())) else {
            throw typeElement.ocspFailure(.unsupportedResponseType(try ocspDER(typeElement.objectIdentifierValue())))
        }
        let response = try ocspDER(responseBytes.read(.octetString))
        try ocspDER(responseBytes.finish())
        var inner = try ocspDER(response.encapsulated(rules: .der))
        let basic = try BasicOCSPResponse(reading: &inner, storage: storage)
        try ocspDER(inner.finish())
        return (status, basic)
    }
}

/// A BasicOCSPResponse (RFC 6960 §4.2.1), as ranges into the response's storage and parsed values.
public struct BasicOCSPResponse: Sendable {
    /// `tbsResponseData`, header included: the bytes the responder signed.
    package let tbsResponseDataRange: Range<Int>
    /// How the signer is named.
    public let responderID: OCSPResponderID
    /// When the response was signed, seconds since 1970.
    public let producedAt: Int64
    /// The answers, in order (at least one).
    public let responses: [OCSPSingleResponse]
    /// The id-pkix-ocsp-nonce responseExtension's nonce, if present: the content of the OCTET
    /// STRING its extnValue holds (RFC 8954), or the raw extnValue when that is not one.
    public let nonce: [UInt8]?
    /// signatureAlgorithm.
    public let signatureAlgorithm: SignatureAlgorithm
    /// The signature octets in the response's storage.
    package let signatureRange: Range<Int>
    /// `certs`: certificates that help verify the signature (a delegated responder's), in order.
    public let certificates: [Certificate]

    init(reading reader: inout ASN1Reader, storage: [UInt8]) throws(OCSPResponseError) {
        var fields = try ocspDER(reader.readSequence())
        let tbs = try ocspDER(fields.read(.sequence))
        tbsResponseDataRange = tbs.range
        signatureAlgorithm = try ocspX509(AlgorithmIdentifier.readSignature(&fields))
        let signature = try ocspDER(fields.read(.bitString))
        guard try ocspDER(signature.bitStringValue().isOctetAligned) else { throw signature.ocspFailure(.invalidSignature) }
        signatureRange = signature.contentRange.dropFirst()
        var certificates: [Certificate] = []
        if let wrapper = try ocspDER(fields.readOptional(.contextSpecific(0))) {
            var explicit = try ocspDER(wrapper.children())
            var list = try ocspDER(explicit.readSequence())
            try ocspDER(explicit.finish())
            while !list.isAtEnd {
                guard certificates.count < OCSPLimits.maxCertificates else { throw OCSPResponseError(.tooManyCertificates, at: list.offset) }
                certificates.append(try ocspX509(Certificate(reading: &list, storage: storage)))
            }
        }
        self.certificates = certificates
        try ocspDER(fields.finish())

        var body = try ocspDER(tbs.children())
        // version [0] EXPLICIT Version DEFAULT v1: DER omits v1 (X.690 §11.5).
        if let versionElement = try ocspDER(body.readOptional(.contextSpecific(0))) {
            var inner = try ocspDER(versionElement.children())
            let value = try ocspDER(inner.readInt64())
            try ocspDER(inner.finish())
            throw versionElement.ocspFailure(value == 0 ? .defaultValueEncoded : .unsupportedVersion(value))
        }
        responderID = try Self.readResponderID(&body)
        producedAt = try ocspDER(body.read(.generalizedTime).generalizedTimeValue())
        let list = try ocspDER(body.read(.sequence))
        var entries = try ocspDER(list.children())
        var responses: [OCSPSingleResponse] = []
        while !entries.isAtEnd {
            guard responses.count < OCSPLimits.maxResponses else { throw OCSPResponseError(.tooManyResponses, at: entries.offset) }
            responses.append(try Self.readSingleResponse(&entries))
        }
        guard !responses.isEmpty else { throw list.ocspFailure(.noSingleResponse) }
        self.responses = responses
        var nonce: [UInt8]? = nil
        if let wrapper = try ocspDER(body.readOptional(.contextSpecific(1))) {
            for (oid, value) in try Self.readExtensions(wrapper, handled: [OIDs.ocspNonce]) where oid == OIDs.ocspNonce {
                var inner = try ocspDER(value.encapsulated(rules: .der))
                if let octets = try? inner.read(.octetString), inner.isAtEnd {
                    nonce = Array(octets.content)
                } else {
                    nonce = Array(value.content)
                }
            }
        }
        self.nonce = nonce
        try ocspDER(body.finish())
    }

    /// ResponderID ::= CHOICE { byName [1] Name, byKey [2] KeyHash }, both EXPLICIT (the OCSP
    /// module's default tagging); KeyHash ::= OCTET STRING, a SHA-1 hash.
    private static func readResponderID(_ reader: inout ASN1Reader) throws(OCSPResponseError) -> OCSPResponderID {
        let choice = try ocspDER(reader.readElement())
        var inner = try ocspDER(choice.children())
        switch choice.tag {
        case .contextSpecific(1):
            let name = try ocspX509(Name.read(&inner))
            try ocspDER(inner.finish())
            return .byName(Array(name.encoded))
        case .contextSpecific(2):
            let hash = try ocspDER(inner.read(.octetString))
            try ocspDER(inner.finish())
            guard hash.contentLength == HashAlgorithm.sha1.digestByteCount else { throw hash.ocspFailure(.invalidHashLength) }
            return .byKey(Array(hash.content))
        default:
            throw OCSPResponseError(choice.error(.unexpectedTag(expected: .contextSpecific(1), found: choice.tag)))
        }
    }

    private static func readSingleResponse(_ reader: inout ASN1Reader) throws(OCSPResponseError) -> OCSPSingleResponse {
        var fields = try ocspDER(reader.readSequence())
        let certID = try readCertID(&fields)
        let statusElement = try ocspDER(fields.readElement())
        let status: OCSPCertStatus
        switch statusElement.tag {
        case .contextSpecific(0, constructed: false), .contextSpecific(2, constructed: false):
            guard statusElement.contentLength == 0 else { throw OCSPResponseError(statusElement.error(.invalidNull)) }
            status = statusElement.tag.number == 0 ? .good : .unknown
        case .contextSpecific(1):
            // RevokedInfo ::= SEQUENCE { revocationTime GeneralizedTime, revocationReason [0] EXPLICIT CRLReason OPTIONAL }
            var info = try ocspDER(statusElement.children())
            let time = try ocspDER(info.read(.generalizedTime).generalizedTimeValue())
            var reason: CRLReason? = nil
            if let wrapper = try ocspDER(info.readOptional(.contextSpecific(0))) {
                var inner = try ocspDER(wrapper.children())
                let element = try ocspDER(inner.read(.enumerated))
                try ocspDER(inner.finish())
                let value = try ocspDER(element.int64Value())
                guard let known = CRLReason(rawValue: value) else { throw element.ocspFailure(.invalidRevocationReason(value)) }
                reason = known
            }
            try ocspDER(info.finish())
            status = .revoked(time: time, reason: reason)
        default:
            throw OCSPResponseError(statusElement.error(.unexpectedTag(expected: .contextSpecific(0, constructed: false), found: statusElement.tag)))
        }
        let thisUpdate = try ocspDER(fields.read(.generalizedTime).generalizedTimeValue())
        var nextUpdate: Int64? = nil
        if let wrapper = try ocspDER(fields.readOptional(.contextSpecific(0))) {
            var inner = try ocspDER(wrapper.children())
            nextUpdate = try ocspDER(inner.read(.generalizedTime).generalizedTimeValue())
            try ocspDER(inner.finish())
        }
        if let wrapper = try ocspDER(fields.readOptional(.contextSpecific(1))) {
            _ = try readExtensions(wrapper, handled: [])
        }
        try ocspDER(fields.finish())
        return OCSPSingleResponse(certID: certID, status: status, thisUpdate: thisUpdate, nextUpdate: nextUpdate)
    }

    /// CertID (RFC 6960 §4.1.1); each hash must have its algorithm's length.
    static func readCertID(_ reader: inout ASN1Reader) throws(OCSPResponseError) -> OCSPCertID {
        var fields = try ocspDER(reader.readSequence())
        let hash = try ocspX509(AlgorithmIdentifier.readDigest(&fields))
        let nameHash = try ocspDER(fields.read(.octetString))
        let keyHash = try ocspDER(fields.read(.octetString))
        let serial = try ocspDER(fields.read(.integer))
        _ = try ocspDER(serial.integerBytes())
        try ocspDER(fields.finish())
        for element in [nameHash, keyHash] where element.contentLength != hash.digestByteCount {
            throw element.ocspFailure(.invalidHashLength)
        }
        return OCSPCertID(
            hashAlgorithm: hash, issuerNameHash: Array(nameHash.content), issuerKeyHash: Array(keyHash.content),
            serialNumber: Array(serial.content))
    }

    /// `[n] EXPLICIT Extensions` (RFC 5280 §4.1): SEQUENCE SIZE (1..MAX) OF Extension, each
    /// identifier once, critical DEFAULT FALSE omitted when false; a critical extension not in
    /// `handled` is refused. Returns every extension's identifier and extnValue element.
    private static func readExtensions(_ wrapper: ASN1Element, handled: [ASN1ObjectIdentifier]) throws(OCSPResponseError) -> [(
        ASN1ObjectIdentifier, ASN1Element
    )] {
        var explicit = try ocspDER(wrapper.children())
        let list = try ocspDER(explicit.read(.sequence))
        try ocspDER(explicit.finish())
        var entries = try ocspDER(list.children())
        var result: [(ASN1ObjectIdentifier, ASN1Element)] = []
        while !entries.isAtEnd {
            guard result.count < OCSPLimits.maxExtensions else { throw OCSPResponseError(.invalidExtensionCount, at: entries.offset) }
            var fields = try ocspDER(entries.readSequence())
            let oidElement = try ocspDER(fields.read(.objectIdentifier))
            let oid = try ocspDER(oidElement.objectIdentifierValue())
            var critical = false
            if let flag = try ocspDER(fields.readOptional(.boolean)) {
                critical = try ocspDER(flag.boolValue())
                if !critical { throw flag.ocspFailure(.defaultValueEncoded) }
            }
            let value = try ocspDER(fields.read(.octetString))
            try ocspDER(fields.finish())
            if result.contains(where: { $0.0 == oid }) { throw oidElement.ocspFailure(.duplicateExtension(oid)) }
            if critical && !handled.contains(oid) { throw oidElement.ocspFailure(.unhandledCriticalExtension(oid)) }
            result.append((oid, value))
        }
        if result.isEmpty { throw list.ocspFailure(.invalidExtensionCount) }
        return result
    }
}

extension BasicOCSPResponse {
    /// The first SingleResponse about `certID` (same hash algorithm, hashes and serial), if any.
    public func response(for certID: OCSPCertID) -> OCSPSingleResponse? {
        responses.first { $0.certID == certID }
    }
}
