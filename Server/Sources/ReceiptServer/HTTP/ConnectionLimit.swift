import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import Synchronization

/// At most `maxConnections` open connections (`--max-connections`): at the limit the server
/// stops accepting, so new connections wait in the kernel's accept queue (and time out there)
/// instead of taking file descriptors and memory. Hummingbird's `AvailableConnectionsDelegate`
/// does the accounting; this one adds one warning line when the limit is reached, at most once a
/// minute (with how often it was reached since the last line), and
/// `receipt_server_connection_limit_reached_total`.
struct ConnectionLimit: AvailableConnectionsDelegate {
    let maxConnections: Int
    let notice: LimitNotice
    private var open = 0

    init(maxConnections: Int, notice: LimitNotice) {
        self.maxConnections = maxConnections
        self.notice = notice
    }

    mutating func connectionOpened() {
        open += 1
        if open >= maxConnections { notice.reached(open: open) }
    }

    mutating func connectionClosed() {
        open -= 1
    }

    func isAcceptingNewConnections() -> Bool {
        open < maxConnections
    }
}

/// The connection limit's log line, rate-limited, and its counter.
final class LimitNotice: Sendable {
    let maxConnections: Int
    let interval: Duration
    private let logger: Logger
    private let counter: Counter
    private let state = Mutex<(last: ContinuousClock.Instant?, since: Int)>((nil, 0))

    init(maxConnections: Int, logger: Logger, factory: any MetricsFactory, interval: Duration = .seconds(60)) {
        self.maxConnections = maxConnections
        self.interval = interval
        self.logger = logger
        counter = Counter(label: "receipt_server_connection_limit_reached_total", factory: factory)
    }

    func reached(open: Int, now: ContinuousClock.Instant = .now) {
        counter.increment()
        let times: Int? = state.withLock { state in
            state.since += 1
            if let last = state.last, now - last < interval { return nil }
            state.last = now
            defer { state.since = 0 }
            return state.since
        }
        guard let times else { return }
        logger.warning(
            "connection limit reached: new connections wait until one closes",
            metadata: [
                "max_connections": "\(maxConnections)", "open": "\(open)", "times_reached": "\(times)",
            ])
    }
}
