/// How an event is POSTed (implemented with AsyncHTTPClient by the executable, as the OCSP
/// fetcher is): the status answered, or an error when no answer came (refused, reset, timed out).
public protocol WebhookTransport: Sendable {
    /// POSTs `body` (`application/json`) with `headers` to `url`, waiting at most `timeout`
    /// for the whole answer; returns its status. The answer's body is read and dropped.
    func post(url: String, headers: [(name: String, value: String)], body: String, timeout: Duration) async throws -> Int
}
