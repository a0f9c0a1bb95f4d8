import Logging
import Metrics
import Synchronization

/// The log line written for each refused request of one kind (`receipt`, `notification`,
/// `hosted`), rate-limited: at most `perSecond` lines in each one-second window; the lines past it
/// are dropped and counted, and the next line written carries `suppressed` (how many were
/// dropped since the last line). A flood of junk thus costs at most `perSecond` lines a second,
/// while `/metrics` keeps the full numbers: `receipt_server_refusals_total{kind}` counts every
/// refusal and `receipt_server_refusal_logs_suppressed_total{kind}` the lines dropped.
final class RefusalLog: Sendable {
    /// Lines a second per kind by default.
    static let defaultPerSecond = 10

    let kind: String
    let perSecond: Int
    private let logger: Logger
    private let refusals: Counter
    private let suppressedLines: Counter

    private struct Window {
        var start: ContinuousClock.Instant
        var lines = 0
        var suppressed = 0
    }

    private let window: Mutex<Window>

    init(
        kind: String, logger: Logger, factory: any MetricsFactory, perSecond: Int = defaultPerSecond,
        now: ContinuousClock.Instant = .now
    ) {
        self.kind = kind
        self.perSecond = max(1, perSecond)
        self.logger = logger
        refusals = Counter(label: "receipt_server_refusals_total", dimensions: [("kind", kind)], factory: factory)
        suppressedLines = Counter(label: "receipt_server_refusal_logs_suppressed_total", dimensions: [("kind", kind)], factory: factory)
        window = Mutex(Window(start: now))
    }

    /// Counts one refusal and logs `message` with `metadata` at `level` unless this second's lines
    /// are spent. Returns whether the line was written.
    @discardableResult
    func refused(
        _ message: Logger.Message = "refused", _ metadata: Logger.Metadata, level: Logger.Level = .notice,
        now: ContinuousClock.Instant = .now
    ) -> Bool {
        refusals.increment()
        let suppressed: Int? = window.withLock { window in
            if now - window.start >= .seconds(1) {
                window.start = now
                window.lines = 0
            }
            guard window.lines < perSecond else {
                window.suppressed += 1
                return nil
            }
            window.lines += 1
            defer { window.suppressed = 0 }
            return window.suppressed
        }
        guard let suppressed else {
            suppressedLines.increment()
            return false
        }
        var metadata = metadata
        metadata["kind"] = "\(kind)"
        if suppressed > 0 { metadata["suppressed"] = "\(suppressed)" }
        logger.log(level: level, message, metadata: metadata)
        return true
    }
}
