import X509Certificates

/// The `RevocationChecker` the verifiers are given under `--revocation ocsp`: it answers from
/// the cache only (verification is synchronous and never waits on the network). A certificate
/// that names no responder is refused at once; one without a fresh answer throws `unavailable`
/// and, unless its last fetch failed moments ago, is noted in the request's `RevocationMisses`
/// for `RevocationGate` to fetch before verifying again.
struct CachedRevocationChecker: RevocationChecker {
    let cache: RevocationCache
    /// Seconds since 1970: answers are fresh by the server's clock, whatever time a token is
    /// verified at (revocation is asked about now).
    let clock: @Sendable () -> Int64

    func status(of certificate: Certificate, issuedBy issuer: Certificate, at time: Int64) throws(RevocationCheckError) -> RevocationStatus {
        guard let urls = try? certificate.ocspResponderURLs, !urls.isEmpty else {
            throw .noResponder(subject: certificate.subjectName)
        }
        switch cache.lookup(certificate, now: clock()) {
        case .fresh(let status):
            return status
        case .missing:
            RevocationMisses.current?.note(certificate, issuer: issuer)
            throw .unavailable(reason: "no fresh OCSP answer about \(certificate.subjectDescription)")
        case .failedRecently:
            throw .unavailable(reason: "the OCSP responders of \(certificate.subjectDescription) did not answer moments ago")
        }
    }
}
