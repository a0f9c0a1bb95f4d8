/// A `RevocationChecker` that asks the OCSP responders a certificate names, through an
/// `OCSPTransport` the embedder supplies: the library builds the request and checks the answer, the embedder
/// moves the bytes (and may cache answers, keyed by `OCSPCertID`, until their nextUpdate).
///
/// For each responder URL in `Certificate.ocspResponderURLs`, in order, it hands the transport the URL
/// and the DER of an `OCSPRequest` (SHA-1 CertID, no nonce: what responders pre-sign and cache)
/// and checks the answer with `verifier`. A transport failure (`RevocationCheckError.unavailable`)
/// moves on to the next URL; the last one's failure is thrown. Any other failure, and any
/// answer, ends the search: a refused answer is not retried elsewhere.
public struct OCSPRevocationChecker<Transport: OCSPTransport>: RevocationChecker {
    /// Checks the answers.
    public var verifier: OCSPResponseVerifier
    /// Moves the bytes.
    public let transport: Transport

    /// A checker fetching through `transport` and checking with `verifier`.
    public init(transport: Transport, verifier: OCSPResponseVerifier = OCSPResponseVerifier()) {
        self.verifier = verifier
        self.transport = transport
    }

    /// Asks the certificate's responders in turn; see the type's description.
    public func status(of certificate: Certificate, issuedBy issuer: Certificate, at time: Int64) throws(RevocationCheckError) -> RevocationStatus {
        let urls: [String]
        do {
            urls = try certificate.ocspResponderURLs
        } catch {
            throw .noResponder(subject: certificate.subjectName)
        }
        guard !urls.isEmpty else { throw .noResponder(subject: certificate.subjectName) }
        let request: OCSPRequest
        do {
            request = try OCSPRequest(certificate: certificate, issuer: issuer)
        } catch {
            throw .responseRefused(error)
        }
        let der = request.derEncoded
        var lastFailure = RevocationCheckError.noResponder(subject: certificate.subjectName)
        for url in urls {
            let response: [UInt8]
            do {
                response = try transport.fetch(der, from: url)
            } catch {
                guard case .unavailable = error else { throw error }
                lastFailure = error
                continue
            }
            do {
                return try verifier.verify(response, certificate: certificate, issuer: issuer, at: time)
            } catch {
                throw .responseRefused(error)
            }
        }
        throw lastFailure
    }
}

/// How an `OCSPRevocationChecker` reaches responders: the embedder's HTTP client (the library
/// itself never touches the network). Generic rather than a closure so the checker needs no
/// existential or typed-throws function type (DESIGN §15).
public protocol OCSPTransport: Sendable {
    /// Posts `request` (DER, `Content-Type: application/ocsp-request`, RFC 6960 Appendix A.1)
    /// to the responder at `url` and returns the response body (DER, `application/ocsp-response`),
    /// or throws `RevocationCheckError.unavailable` when no answer came (network error, timeout,
    /// an HTTP status other than 200). A transport may answer from its own cache.
    func fetch(_ request: [UInt8], from url: String) throws(RevocationCheckError) -> [UInt8]
}
