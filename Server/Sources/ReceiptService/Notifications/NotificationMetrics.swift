import Metrics
import Synchronization

/// Notification metrics: `receipt_server_notifications_total{endpoint, type, result}`, the
/// verification latency (`receipt_server_notification_verification_seconds`, three tokens each)
/// and the storage latency (`receipt_server_storage_seconds{operation="notification"}`).
/// `type` is a verified `notificationType` among Apple's, `other` for an unknown one, and
/// `unknown` when the signature did not verify (or was not reached): nothing an unverified
/// request says becomes a label. An authentic notification refused (403, or 400 for a payload
/// missing a member) is counted under its verified type.
public final class NotificationMetrics: Sendable {
    let factory: any MetricsFactory
    private let counters: Mutex<[Key: Counter]> = Mutex([:])
    let verification: Timer
    let storage: Timer

    private struct Key: Hashable {
        let endpoint: String
        let type: String
        let result: NotificationAnswer.Result
    }

    /// The metrics, made through `factory` (the server's Prometheus registry).
    public init(factory: any MetricsFactory) {
        self.factory = factory
        verification = Timer(label: "receipt_server_notification_verification_seconds", factory: factory)
        storage = Timer(label: "receipt_server_storage_seconds", dimensions: [("operation", "notification")], factory: factory)
    }

    /// Counts one answer at `endpoint` (a path, or `ingest`).
    func answered(_ endpoint: String, _ answer: NotificationAnswer) {
        let key = Key(endpoint: endpoint, type: Self.label(answer.notificationType), result: answer.result)
        counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: "receipt_server_notifications_total",
                dimensions: [("endpoint", key.endpoint), ("type", key.type), ("result", key.result.rawValue)],
                factory: factory)
            counters[key] = counter
            return counter
        }.increment()
    }

    /// The `type` label of a notification type.
    static func label(_ type: String?) -> String {
        guard let type else { return "unknown" }
        return knownTypes.contains(type) ? type : "other"
    }

    /// App Store Server Notifications V2 `notificationType` values.
    static let knownTypes: Set<String> = [
        "CONSUMPTION_REQUEST", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW", "DID_RENEW",
        "EXPIRED", "EXTERNAL_PURCHASE_TOKEN", "GRACE_PERIOD_EXPIRED", "METADATA_UPDATE", "MIGRATION", "OFFER_REDEEMED",
        "ONE_TIME_CHARGE", "PRICE_CHANGE", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED", "REFUND_REVERSED",
        "RENEWAL_EXTENDED", "RENEWAL_EXTENSION", "RESCIND_CONSENT", "REVOKE", "SUBSCRIBED", "TEST",
    ]
}
