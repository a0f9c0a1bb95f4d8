import Metrics
import Synchronization

/// The hosted API's metrics: answers by endpoint and status, refused authentications
/// (`receipt_server_hosted_auth_failures_total{reason="unauthorized"}`: one reason for every 401,
/// since every 401 answer is the same) and requests refused by the rate limit. No label holds a
/// key, a token or a key id.
public final class HostedMetrics: Sendable {
    let factory: any MetricsFactory
    private let counters = Mutex<[[String]: Counter]>([:])

    /// Counters made by `factory` (the server's Prometheus registry).
    public init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func answered(_ endpoint: HostedEndpoint, _ status: Int) {
        count("receipt_server_hosted_answers_total", [("endpoint", endpoint.path), ("status", String(status))])
    }

    func authenticationFailed() {
        count("receipt_server_hosted_auth_failures_total", [("reason", "unauthorized")])
    }

    func rateLimited() {
        count("receipt_server_hosted_rate_limited_total", [])
    }

    private func count(_ label: String, _ dimensions: [(String, String)]) {
        let key = [label] + dimensions.flatMap { [$0.0, $0.1] }
        counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(label: label, dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }.increment()
    }
}
