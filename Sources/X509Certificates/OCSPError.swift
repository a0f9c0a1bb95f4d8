import DER

/// Why an OCSP response does not vouch for a certificate's status (RFC 6960 §3.2), or why a
/// request could not be made. A malformed response is `malformedResponse`; the other cases name
/// the rule a well-formed response broke.
public enum OCSPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The response is not a DER OCSPResponse.
    case malformedResponse(OCSPResponseError)
    /// responseStatus is not `successful` (`tryLater` and `internalError` are worth retrying).
    case unsuccessfulResponse(OCSPResponseStatus)
    /// The certificate does not name the given issuer (its issuer field is not the issuer's subject).
    case issuerMismatch(subject: CertificateName)
    /// No SingleResponse carries the CertID of the certificate asked about (hash algorithm,
    /// issuer name and key hashes, serial number).
    case certificateNotInResponse
    /// The response's signature algorithm cannot sign it (bare rsaEncryption).
    case unsupportedSignatureAlgorithm
    /// The signature over tbsResponseData does not verify with the responder's key; `subject`
    /// is the responder certificate's.
    case signatureInvalid(subject: CertificateName)
    /// The responder's key is unusable or of another family than the signature algorithm.
    case invalidPublicKey(subject: CertificateName)
    /// The signer is not authorised to answer for the issuer's certificates (RFC 6960 §4.2.2.2).
    case responderNotAuthorized(ResponderRefusal)
    /// thisUpdate lies in the future, beyond the verifier's leeway (RFC 6960 §3.2 item 5).
    case notYetValid(thisUpdate: Int64, at: Int64)
    /// nextUpdate lies in the past, beyond the verifier's leeway: the answer is stale (RFC 6960 §3.2 item 6).
    case expired(nextUpdate: Int64, at: Int64)
    /// The response echoes a nonce other than the request's (RFC 8954).
    case nonceMismatch
    /// The check used up its `VerificationBudget` of public-key operations.
    case budgetExceeded

    /// Why a signer is not an authorised responder (RFC 6960 §4.2.2.2): it must be the issuer
    /// itself, or a certificate in the response issued directly by the issuer with
    /// id-kp-OCSPSigning in its extendedKeyUsage.
    public enum ResponderRefusal: Sendable, Hashable, CustomStringConvertible {
        /// The responderID names neither the issuer nor a certificate the response carries.
        case responderNotFound
        /// The responder certificate's issuer is not the certificate's issuer (by name).
        case notIssuedByIssuer(subject: CertificateName)
        /// The issuer's signature on the responder certificate does not verify.
        case issuerSignatureInvalid(subject: CertificateName)
        /// The responder certificate's extendedKeyUsage lacks id-kp-OCSPSigning (or is absent).
        case missingOCSPSigning(subject: CertificateName)
        /// The responder certificate's keyUsage is present without digitalSignature (RFC 5280 §4.2.1.3).
        case missingDigitalSignature(subject: CertificateName)
        /// The responder certificate is not valid at the validation time.
        case notValid(subject: CertificateName, notBefore: Int64, notAfter: Int64, at: Int64)
        /// The responder certificate carries a critical extension this verifier does not process.
        case unhandledCriticalExtension(subject: CertificateName, oid: ASN1ObjectIdentifier)

        public var description: String {
            switch self {
            case .responderNotFound: return "the responder is neither the issuer nor a certificate in the response"
            case .notIssuedByIssuer(let subject): return "responder certificate not issued by the certificate's issuer (\(subject))"
            case .issuerSignatureInvalid(let subject): return "issuer's signature on the responder certificate invalid (\(subject))"
            case .missingOCSPSigning(let subject): return "responder certificate without id-kp-OCSPSigning (\(subject))"
            case .missingDigitalSignature(let subject): return "responder certificate's key usage lacks digitalSignature (\(subject))"
            case .notValid(let subject, let notBefore, let notAfter, let at):
                return "responder certificate (\(subject)) valid \(VerificationError.text(notBefore)) to \(VerificationError.text(notAfter)), "
                    + "not at \(VerificationError.text(at))"
            case .unhandledCriticalExtension(let subject, let oid): return "unhandled critical extension \(oid) (\(subject))"
            }
        }
    }

    /// True for failures a later attempt may not meet: the responder asked to be retried or
    /// failed internally. Everything else is an answer that must not be trusted.
    public var isRetryable: Bool {
        switch self {
        case .unsuccessfulResponse(let status): return status == .tryLater || status == .internalError
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .malformedResponse(let error): return "malformed OCSP response: \(error)"
        case .unsuccessfulResponse(let status): return "OCSP response status \(status) (\(status.rawValue))"
        case .issuerMismatch(let subject): return "the issuer given is not the issuer of \(subject)"
        case .certificateNotInResponse: return "the OCSP response does not answer for the certificate"
        case .unsupportedSignatureAlgorithm: return "unsupported OCSP response signature algorithm"
        case .signatureInvalid(let subject): return "OCSP response signature invalid (responder \(subject))"
        case .invalidPublicKey(let subject): return "unusable responder key (\(subject))"
        case .responderNotAuthorized(let refusal): return "OCSP responder not authorised: \(refusal)"
        case .notYetValid(let thisUpdate, let at):
            return "OCSP response thisUpdate \(VerificationError.text(thisUpdate)) is after \(VerificationError.text(at))"
        case .expired(let nextUpdate, let at):
            return "OCSP response stale: nextUpdate \(VerificationError.text(nextUpdate)) is before \(VerificationError.text(at))"
        case .nonceMismatch: return "OCSP response nonce differs from the request's"
        case .budgetExceeded:
            return "more than \(VerificationBudget.maxPublicKeyOperations) public-key operations needed: verification budget exceeded"
        }
    }
}
