import AsyncHTTPClient
import NIOCore
import ReceiptService

/// The webhooks' HTTP client (AsyncHTTPClient): one client for the process, redirects not
/// followed (a 3xx is an answer like any non-2xx: the operator configured this URL), no
/// decompression, up to 64 connections per host, 2 s to connect and no connection retries (the
/// deliverer's schedule retries), at most `maxAnswerBytes` of an answer read.
struct WebhookHTTPTransport: WebhookTransport {
    /// What is read of an answer's body before it is dropped.
    static let maxAnswerBytes = 64 << 10

    /// Lives as long as the process (as `HTTPClient.shared` does).
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, decompression: .disabled)
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        configuration.httpVersion = .http1Only
        // A refused or unanswered connection fails the attempt within 2 s (the pool keeps trying
        // to connect until then) instead of holding it until the attempt's own timeout.
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(2))
        // No connection retries inside the client: a refused connection fails that attempt, and
        // the deliverer's own schedule tries again. With the client's retries, its backoff grew
        // over a receiver's 10 s outage until later attempts failed at the 2 s connect timeout
        // before any new connection was tried, so a receiver back up got no request for the
        // rest of the schedule (WebhookFaultTests.receiverDownForTenSeconds, 0 requests in 120 s).
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    func post(url: String, headers: [(name: String, value: String)], body: String, timeout: Duration) async throws -> Int {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "receipt-server-webhooks")
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await Self.client.execute(request, timeout: TimeAmount(timeout))
        var read = 0
        for try await part in response.body {
            read += part.readableBytes
            if read >= Self.maxAnswerBytes { break }
        }
        return Int(response.status.code)
    }
}
