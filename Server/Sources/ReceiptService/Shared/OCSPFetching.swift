/// Posts an OCSP request to a responder and returns its answer: the composition root's HTTP
/// client (`receipt-server --revocation ocsp`). The service never opens a connection itself.
public protocol OCSPFetching: Sendable {
    /// Posts `request` (DER, `application/ocsp-request`, RFC 6960 Appendix A.1) to `url` and
    /// returns the response body; throws when no 200 answer of a bounded size came in time.
    func fetch(_ request: [UInt8], from url: String) async throws -> [UInt8]
}
