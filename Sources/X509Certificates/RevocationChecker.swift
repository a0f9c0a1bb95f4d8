/// Asks whether certificates are revoked: what an embedder plugs in to check revocation online.
///
/// The library itself stays offline: nothing in it fetches, and nothing calls a checker unless
/// the embedder hands one over. A conformer does its own fetching and caching (an OCSP client
/// builds an `OCSPRequest` for the responder in `Certificate.ocspResponderURLs`, posts it, and
/// checks the answer with `OCSPResponseVerifier`), and reports failures to get an answer as
/// `RevocationCheckError.unavailable`, which a server can turn into a retryable error.
/// `OCSPRevocationChecker` is that client, given an `OCSPTransport` to move the bytes.
///
/// The requirement is synchronous because the verifiers that would call it (`JWSVerifier`, the
/// receipt validation) are synchronous and Foundation-free, and must stay usable where no
/// concurrency runtime is wanted (Embedded Swift, DESIGN §15). A server that fetches
/// asynchronously checks revocation around verification instead: it takes the verified chain,
/// fetches the responses itself, and calls `OCSPResponseVerifier` (or a checker over its cache).
public protocol RevocationChecker: Sendable {
    /// The status of `certificate`, issued by `issuer`, at `time` (seconds since 1970).
    func status(of certificate: Certificate, issuedBy issuer: Certificate, at time: Int64) throws(RevocationCheckError) -> RevocationStatus
}

extension RevocationChecker {
    /// Checks every certificate of `path` (leaf first, anchor last) but the anchor, each against
    /// the next one as its issuer, and returns their statuses in path order. Stops at the first
    /// revoked certificate, throwing `revoked`; an `unknown` status is returned, not thrown,
    /// so the caller decides whether it is acceptable.
    public func check(path: [Certificate], at time: Int64) throws(RevocationCheckError) -> [RevocationStatus] {
        var statuses: [RevocationStatus] = []
        for index in path.indices.dropLast() {
            let status = try status(of: path[index], issuedBy: path[index + 1], at: time)
            if case .revoked(let at, let reason) = status {
                throw .revoked(subject: path[index].subjectName, at: at, reason: reason)
            }
            statuses.append(status)
        }
        return statuses
    }
}

/// Why a `RevocationChecker` gave no usable status.
public enum RevocationCheckError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The certificate was revoked (from `RevocationChecker.check(path:at:)`).
    case revoked(subject: CertificateName, at: Int64, reason: CRLReason?)
    /// The certificate names no responder to ask (no id-ad-ocsp access location).
    case noResponder(subject: CertificateName)
    /// The responder answered that it does not know the certificate (RFC 6960 §2.2 `unknown`):
    /// a verifier that must know the status refuses it.
    case unknownCertificate(subject: CertificateName)
    /// No answer could be had now: the responder was unreachable, slow, or answered tryLater.
    /// Worth retrying; `reason` is for logs.
    case unavailable(reason: String)
    /// An answer came and was refused (malformed, badly signed, unauthorised signer, stale).
    case responseRefused(OCSPError)

    /// True for failures a later attempt may not meet.
    public var isRetryable: Bool {
        switch self {
        case .unavailable: return true
        case .responseRefused(let error): return error.isRetryable
        case .revoked, .noResponder, .unknownCertificate: return false
        }
    }

    public var description: String {
        switch self {
        case .revoked(let subject, let at, let reason):
            return "certificate revoked (\(subject)) at \(VerificationError.text(at))" + (reason.map { ", reason \($0)" } ?? "")
        case .noResponder(let subject): return "no OCSP responder named in \(subject)"
        case .unknownCertificate(let subject): return "the OCSP responder does not know \(subject)"
        case .unavailable(let reason): return "revocation status unavailable: \(reason)"
        case .responseRefused(let error): return "revocation response refused: \(error)"
        }
    }
}
