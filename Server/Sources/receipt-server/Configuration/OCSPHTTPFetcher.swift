import AsyncHTTPClient
import NIOCore
import ReceiptService

/// `--revocation ocsp`'s HTTP client (AsyncHTTPClient's shared one): posts the request as
/// `application/ocsp-request` (RFC 6960 Appendix A.1) and reads at most `maxResponseBytes` of a
/// 200 answer within `timeout`.
struct OCSPHTTPFetcher: OCSPFetching {
    /// Apple's responses are under 2 KB; a responder sending more is refused.
    static let maxResponseBytes = 64 << 10
    let timeout: TimeAmount = .seconds(5)

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func fetch(_ request: [UInt8], from url: String) async throws -> [UInt8] {
        var post = HTTPClientRequest(url: url)
        post.method = .POST
        post.headers.add(name: "Content-Type", value: "application/ocsp-request")
        post.headers.add(name: "Accept", value: "application/ocsp-response")
        post.body = .bytes(ByteBuffer(bytes: request))
        let response = try await HTTPClient.shared.execute(post, timeout: timeout)
        guard response.status == .ok else { throw Failure(description: "HTTP \(response.status.code)") }
        let body = try await response.body.collect(upTo: Self.maxResponseBytes)
        return Array(body.readableBytesView)
    }
}
