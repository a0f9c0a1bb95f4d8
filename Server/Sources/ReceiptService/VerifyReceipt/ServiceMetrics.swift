import Metrics
import Synchronization

/// The service's metrics, through swift-metrics with an explicit factory (the HTTP layer gives a
/// Prometheus one): answers by endpoint and status, verification and storage latency, cache hits.
public final class ServiceMetrics: Sendable {
    let factory: any MetricsFactory
    private let answers: Mutex<[AnswerKey: Counter]> = Mutex([:])
    let verification: Timer
    let storageSave: Timer
    let storageHistory: Timer
    let cacheHits: Counter
    let cacheMisses: Counter

    private struct AnswerKey: Hashable {
        let endpoint: VerifyEndpoint
        let status: VerifyStatus
    }

    public init(factory: any MetricsFactory) {
        self.factory = factory
        verification = Timer(label: "receipt_server_verification_seconds", factory: factory)
        storageSave = Timer(label: "receipt_server_storage_seconds", dimensions: [("operation", "save")], factory: factory)
        storageHistory = Timer(label: "receipt_server_storage_seconds", dimensions: [("operation", "history")], factory: factory)
        cacheHits = Counter(label: "receipt_server_cache_lookups_total", dimensions: [("result", "hit")], factory: factory)
        cacheMisses = Counter(label: "receipt_server_cache_lookups_total", dimensions: [("result", "miss")], factory: factory)
    }

    /// Counts one `verifyReceipt` answer.
    func answered(_ endpoint: VerifyEndpoint, _ status: VerifyStatus) {
        let key = AnswerKey(endpoint: endpoint, status: status)
        let counter = answers.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: "receipt_server_verify_answers_total",
                dimensions: [("endpoint", endpoint.path), ("status", String(status.rawValue))], factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }
}

extension Duration {
    /// The duration in nanoseconds (sub-nanosecond parts dropped).
    var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
