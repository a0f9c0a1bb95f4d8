import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import Metrics
import Prometheus
@testable import ReceiptService
import Synchronization
import Testing

/// The refusal log line: at most N lines a second per kind, the count of dropped lines on the next
/// line written, and every refusal counted in the metrics.
@Suite struct RefusalLogTests {
    /// Collects log lines (message and metadata).
    final class Lines: Sendable {
        let lines = Mutex<[(String, Logger.Metadata)]>([])
        var all: [(String, Logger.Metadata)] { lines.withLock { $0 } }
    }

    struct Handler: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            lines.lines.withLock { $0.append(("\(event.message)", event.metadata ?? [:])) }
        }
    }

    /// The built server: 40 junk notifications posted at once give at most 10 lines a second
    /// (plus the one after a window that says what was dropped), and lines written plus lines
    /// dropped make the 40 refusals `/metrics` counts.
    @Test func serverLogsRefusalsWithinTheRate() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let server = try await LiveServer.start(LiveTests.serverArguments(database, ["--metrics-port", "0"]))
        let client = HTTPClient()
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0 ..< 40 {
                group.addTask {
                    var request = HTTPClientRequest(url: server.baseURL + "/notifications/v2")
                    request.method = .POST
                    request.body = .bytes(ByteBuffer(string: "{}"))
                    _ = try await client.execute(request, timeout: .seconds(30))
                }
            }
            try await group.waitForAll()
        }
        let seconds = Int((ContinuousClock.now - start).components.seconds) + 1
        let port = try await MetricsListenerTests.metricsPort(server)
        let metrics = try await MetricsListenerTests.get(client, "http://127.0.0.1:\(port)/metrics").1
        try await client.shutdown()
        #expect(metrics.contains(#"receipt_server_refusals_total{kind="notification"} 40"#), "\(metrics)")
        let suppressed =
            metrics.split(separator: "\n")
            .first { $0.hasPrefix(#"receipt_server_refusal_logs_suppressed_total{kind="notification"} "#) }
            .flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0

        // Every line was written before its answer; the pipe may still be on its way here.
        func lines() -> [Substring] { server.logText.split(separator: "\n").filter { $0.contains(#""message":"notification""#) } }
        for _ in 0 ..< 250 where lines().count < 40 - suppressed { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.terminate() == 0)
        let written = lines()
        #expect(written.count >= 10 && written.count <= 10 * seconds, "\(written.count) lines in \(seconds) s")
        #expect(written.allSatisfy { $0.contains(#""kind":"notification""#) && $0.contains(#""result":"malformed""#) })
        #expect(written.count + suppressed == 40, "\(written.count) written, \(suppressed) suppressed")
    }

    @Test func linesAreRateLimitedAndCounted() {
        let lines = Lines()
        let logger = Logger(label: "test") { _ in Handler(lines: lines) }
        let registry = PrometheusCollectorRegistry()
        let t0 = ContinuousClock.now
        let log = RefusalLog(kind: "receipt", logger: logger, factory: PrometheusMetricsFactory(registry: registry), perSecond: 10, now: t0)
        let written = (0 ..< 25).map { log.refused("receipt refused", ["status": "21003"], now: t0 + .milliseconds($0 * 10)) }
        #expect(written.filter { $0 }.count == 10 && written.prefix(10).allSatisfy { $0 })
        #expect(lines.all.count == 10 && lines.all.allSatisfy { $0.1["suppressed"] == nil && $0.1["kind"] == "receipt" })

        // The next second: the first line says how many were dropped, the second does not.
        #expect(log.refused("receipt refused", ["status": "21002"], now: t0 + .milliseconds(1_100)))
        #expect(log.refused("receipt refused", ["status": "21002"], now: t0 + .milliseconds(1_200)))
        #expect(lines.all.count == 12)
        #expect(lines.all[10].1["suppressed"] == "15" && lines.all[10].1["status"] == "21002")
        #expect(lines.all[11].1["suppressed"] == nil)

        var text: [UInt8] = []
        registry.emit(into: &text)
        let metrics = String(decoding: text, as: UTF8.self)
        #expect(metrics.contains(#"receipt_server_refusals_total{kind="receipt"} 27"#), "\(metrics)")
        #expect(metrics.contains(#"receipt_server_refusal_logs_suppressed_total{kind="receipt"} 15"#), "\(metrics)")
    }
}
