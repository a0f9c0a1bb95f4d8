import Hummingbird
import Metrics
import ReceiptService
import Synchronization

/// Counts HTTP responses by endpoint (the route, or `other`) and HTTP status code, as
/// `receipt_server_http_requests_total`.
struct HTTPMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let counters: HTTPCounters

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let endpoint = Self.label(request.uri.path)
        do {
            let response = try await next(request, context)
            counters.count(endpoint, response.status.code)
            return response
        } catch let error as any HTTPResponseError {
            counters.count(endpoint, error.status.code)
            throw error
        }
    }

    /// The endpoint label of `path`: itself when known, a route's template for a path naming an
    /// app (`/retention/v1/realtime/{bundleId}`), else `other`.
    static func label(_ path: String) -> String {
        if knownPaths.contains(path) { return path }
        for endpoint in RetentionEndpoint.allCases {
            let prefix = endpoint.path.dropLast("{bundleId}".count)
            if path.hasPrefix(prefix), path.count > prefix.count, !path.dropFirst(prefix.count).contains("/") { return endpoint.path }
        }
        return "other"
    }

    static var knownPaths: Set<String> {
        [
            "/verifyReceipt", "/sandbox/verifyReceipt", "/health", "/notifications/v2", "/sandbox/notifications/v2",
            "/v1/receipt", "/v1/receipt/encrypted", "/", "/inspect",
        ]
    }
}

/// The counters, made once per (endpoint, code).
final class HTTPCounters: Sendable {
    private struct Key: Hashable {
        let endpoint: String
        let code: Int
    }

    private let factory: any MetricsFactory
    private let counters = Mutex<[Key: Counter]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func count(_ endpoint: String, _ code: Int) {
        let key = Key(endpoint: endpoint, code: code)
        counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: "receipt_server_http_requests_total",
                dimensions: [("endpoint", endpoint), ("code", String(code))], factory: factory)
            counters[key] = counter
            return counter
        }.increment()
    }
}
