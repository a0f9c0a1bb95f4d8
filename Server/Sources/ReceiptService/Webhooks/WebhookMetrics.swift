import Metrics
import ReceiptStore
import Synchronization

/// Webhook metrics: `receipt_server_webhook_delivered_total`, `…_retried_total` (attempts that
/// failed and will be tried again), `…_failed_total` (deliveries failed after their last
/// attempt), `receipt_server_webhook_delivery_seconds` (from the event's acknowledgement to a
/// 2xx), and per endpoint `receipt_server_webhook_queue_depth{endpoint}` and
/// `receipt_server_webhook_oldest_pending_seconds{endpoint}` (read from storage, so they count
/// every instance's queue).
public final class WebhookMetrics: Sendable {
    let factory: any MetricsFactory
    let delivered: Counter
    let retried: Counter
    let failed: Counter
    let latency: Timer
    private let gauges = Mutex<[String: (depth: Gauge, oldest: Gauge)]>([:])

    /// The metrics, made through `factory` (the server's Prometheus registry).
    public init(factory: any MetricsFactory) {
        self.factory = factory
        delivered = Counter(label: "receipt_server_webhook_delivered_total", factory: factory)
        retried = Counter(label: "receipt_server_webhook_retried_total", factory: factory)
        failed = Counter(label: "receipt_server_webhook_failed_total", factory: factory)
        latency = Timer(label: "receipt_server_webhook_delivery_seconds", factory: factory)
    }

    /// Records the queues read at `now`; an endpoint no longer listed is at 0.
    func record(_ queues: [WebhookQueueDepth], now: Int64) {
        gauges.withLock { gauges in
            var seen = Set<String>()
            for queue in queues {
                seen.insert(queue.endpointID)
                let pair = gauges[queue.endpointID] ?? make(queue.endpointID)
                gauges[queue.endpointID] = pair
                pair.depth.record(queue.pending)
                pair.oldest.record(Double(max(0, now - queue.oldestMilliseconds)) / 1000)
            }
            for (id, pair) in gauges where !seen.contains(id) {
                pair.depth.record(0)
                pair.oldest.record(0)
            }
        }
    }

    private func make(_ endpointID: String) -> (depth: Gauge, oldest: Gauge) {
        (
            Gauge(label: "receipt_server_webhook_queue_depth", dimensions: [("endpoint", endpointID)], factory: factory),
            Gauge(label: "receipt_server_webhook_oldest_pending_seconds", dimensions: [("endpoint", endpointID)], factory: factory)
        )
    }
}
