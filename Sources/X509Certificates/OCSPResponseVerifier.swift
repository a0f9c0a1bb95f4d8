import CryptoPrimitives
import DER

/// A certificate's revocation status, as an OCSP response (or a `RevocationChecker`) gives it.
public enum RevocationStatus: Sendable, Hashable {
    /// Not revoked: the answer was correct at `thisUpdate` and stays good until `nextUpdate`
    /// (seconds since 1970; `nil`: the responder gives no such time).
    case good(thisUpdate: Int64, nextUpdate: Int64?)
    /// Revoked at `at` (seconds since 1970), for `reason` when the responder gives one.
    case revoked(at: Int64, reason: CRLReason?)
    /// The responder does not know the certificate.
    case unknown
}

/// Checks an OCSP response about one certificate (RFC 6960 §3.2) and returns its status.
///
/// The response must be successful and DER; one of its SingleResponses must carry the
/// certificate's CertID (SHA-1 or SHA-256, whichever the response uses); its signature over the
/// exact `tbsResponseData` bytes must verify with the key of an authorised responder (RFC 6960
/// §4.2.2.2): the issuer itself, named by its subject or key hash, or a certificate the response
/// carries that the issuer signed directly, with id-kp-OCSPSigning in its extendedKeyUsage,
/// valid at the validation time and without critical extensions this verifier does not process.
/// The answer must be fresh: thisUpdate not after the time plus `leeway`, nextUpdate (when
/// given) not before the time minus `leeway`.
///
/// Signatures are ECDSA (P-256, P-384) and RSA PKCS#1 v1.5 with the hash the algorithm names
/// (OpenSSL's responder signs with SHA-256), checked by the same code as certificate links, each
/// one paid from a `VerificationBudget`: two with a delegated responder, one without. Offline
/// and synchronous: fetching responses is the embedder's (see `RevocationChecker`).
public struct OCSPResponseVerifier: Sendable {
    /// Seconds of clock difference tolerated between this machine and the responder (5 minutes
    /// by default, as Apple's and OpenSSL's clients allow).
    public var leeway: Int64

    /// A verifier tolerating `leeway` seconds of clock difference.
    public init(leeway: Int64 = 300) {
        self.leeway = leeway
    }

    /// The status of `certificate`, issued by `issuer`, at `time` (seconds since 1970), from the
    /// DER OCSP response `response`. When the request carried a `nonce`, a response that echoes a
    /// different one is refused; one that echoes none is accepted (responders that pre-sign do not).
    public func verify(
        _ response: [UInt8], certificate: Certificate, issuer: Certificate, at time: Int64, nonce: [UInt8]? = nil
    ) throws(OCSPError) -> RevocationStatus {
        var budget = VerificationBudget()
        return try verify(response, certificate: certificate, issuer: issuer, at: time, nonce: nonce, budget: &budget)
    }

    /// As `verify(_:certificate:issuer:at:nonce:)`, spending from the caller's `budget`.
    public func verify(
        _ response: [UInt8], certificate: Certificate, issuer: Certificate, at time: Int64, nonce: [UInt8]? = nil,
        budget: inout VerificationBudget
    ) throws(OCSPError) -> RevocationStatus {
        let parsed: OCSPResponse
        do {
            parsed = try OCSPResponse(derEncoded: response)
        } catch {
            throw .malformedResponse(error)
        }
        return try verify(parsed, certificate: certificate, issuer: issuer, at: time, nonce: nonce, budget: &budget)
    }

    /// As `verify(_:certificate:issuer:at:nonce:)`, over an already parsed response.
    public func verify(
        _ response: OCSPResponse, certificate: Certificate, issuer: Certificate, at time: Int64, nonce: [UInt8]? = nil,
        budget: inout VerificationBudget
    ) throws(OCSPError) -> RevocationStatus {
        guard let basic = response.basic else { throw .unsuccessfulResponse(response.status) }
        guard certificate.issuer == issuer.subject else { throw .issuerMismatch(subject: certificate.subjectName) }

        // The SingleResponse about this certificate, in whichever hash the response uses.
        var single: OCSPSingleResponse? = nil
        var ids: [HashAlgorithm: OCSPCertID] = [:]
        for candidate in basic.responses {
            let algorithm = candidate.certID.hashAlgorithm
            let id: OCSPCertID
            if let known = ids[algorithm] {
                id = known
            } else {
                id = try OCSPCertID(certificate: certificate, issuer: issuer, hashAlgorithm: algorithm)
                ids[algorithm] = id
            }
            if candidate.certID == id {
                single = candidate
                break
            }
        }
        guard let single else { throw .certificateNotInResponse }
        if let nonce, let echoed = basic.nonce, echoed != nonce { throw .nonceMismatch }

        // Freshness first: it costs no public-key operation.
        if single.thisUpdate > time &+ leeway { throw .notYetValid(thisUpdate: single.thisUpdate, at: time) }
        if let next = single.nextUpdate, next < time &- leeway { throw .expired(nextUpdate: next, at: time) }

        let signer = try authorisedSigner(basic, issuer: issuer, at: time, budget: &budget)
        try checkSignature(of: response, basic, by: signer, budget: &budget)
        switch single.status {
        case .good: return .good(thisUpdate: single.thisUpdate, nextUpdate: single.nextUpdate)
        case .revoked(let at, let reason): return .revoked(at: at, reason: reason)
        case .unknown: return .unknown
        }
    }

    /// The certificate whose key must have signed the response (RFC 6960 §4.2.2.2).
    private func authorisedSigner(
        _ basic: BasicOCSPResponse, issuer: Certificate, at time: Int64, budget: inout VerificationBudget
    ) throws(OCSPError) -> Certificate {
        if Self.responderID(basic.responderID, names: issuer) { return issuer }
        guard let responder = basic.certificates.first(where: { Self.responderID(basic.responderID, names: $0) }) else {
            throw .responderNotAuthorized(.responderNotFound)
        }
        let subject = responder.subjectName
        guard responder.issuer == issuer.subject else { throw .responderNotAuthorized(.notIssuedByIssuer(subject: subject)) }
        guard responder.extensions.extendedKeyUsage?.contains(OIDs.ocspSigning) == true else {
            throw .responderNotAuthorized(.missingOCSPSigning(subject: subject))
        }
        if let usage = responder.extensions.keyUsage, !usage.contains(.digitalSignature) {
            throw .responderNotAuthorized(.missingDigitalSignature(subject: subject))
        }
        // extendedKeyUsage is processed here; id-pkix-ocsp-nocheck only tells clients not to
        // check the responder's own revocation, which this verifier does not do anyway.
        for oid in responder.extensions.unhandledCritical where oid != OIDs.extendedKeyUsage && oid != OIDs.ocspNoCheck {
            throw .responderNotAuthorized(.unhandledCriticalExtension(subject: subject, oid: oid))
        }
        guard responder.isValid(at: time) else {
            throw .responderNotAuthorized(
                .notValid(subject: subject, notBefore: responder.notBefore, notAfter: responder.notAfter, at: time))
        }
        guard let hash = responder.signatureAlgorithm.hash else { throw .unsupportedSignatureAlgorithm }
        let valid = try Self.isValidSignature(
            storage: responder.storage, signed: responder.tbsRange, signature: responder.signatureRange,
            hash: hash, family: responder.signatureAlgorithm.keyFamily, by: issuer, budget: &budget)
        guard valid else { throw .responderNotAuthorized(.issuerSignatureInvalid(subject: subject)) }
        return responder
    }

    /// The responder's signature over the exact tbsResponseData bytes.
    private func checkSignature(
        of response: OCSPResponse, _ basic: BasicOCSPResponse, by signer: Certificate, budget: inout VerificationBudget
    ) throws(OCSPError) {
        guard let hash = basic.signatureAlgorithm.hash else { throw .unsupportedSignatureAlgorithm }
        let valid = try Self.isValidSignature(
            storage: response.storage, signed: basic.tbsResponseDataRange, signature: basic.signatureRange,
            hash: hash, family: basic.signatureAlgorithm.keyFamily, by: signer, budget: &budget)
        guard valid else { throw .signatureInvalid(subject: signer.subjectName) }
    }

    private static func isValidSignature(
        storage: [UInt8], signed: Range<Int>, signature: Range<Int>, hash: HashAlgorithm,
        family: SignatureAlgorithm.KeyFamily, by key: Certificate, budget: inout VerificationBudget
    ) throws(OCSPError) -> Bool {
        do {
            try budget.spend()
        } catch {
            throw .budgetExceeded
        }
        let outcome = storage.withUnsafeBytes { raw in
            let digest = hash.hash(UnsafeRawBufferPointer(rebasing: raw[signed]))
            return Result { () throws(VerificationError) in
                try key.isValidSignature(UnsafeRawBufferPointer(rebasing: raw[signature]), digest: digest, hash: hash, family: family)
            }
        }
        do {
            return try outcome.get()
        } catch {
            throw .invalidPublicKey(subject: key.subjectName)
        }
    }

    /// True when `id` names `certificate`: its subject Name byte for byte, or the SHA-1 of its
    /// subjectPublicKey bits (RFC 6960 §4.2.1).
    static func responderID(_ id: OCSPResponderID, names certificate: Certificate) -> Bool {
        switch id {
        case .byName(let name): return certificate.subject.elementsEqual(name)
        case .byKey(let hash): return OCSPCertID.hash(.sha1, certificate.subjectPublicKeyBits).elementsEqual(hash)
        }
    }
}
