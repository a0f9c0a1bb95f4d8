import AsyncHTTPClient
import Foundation
import Testing

/// Two server processes on one PostgreSQL database, each taking half of the notifications:
/// every event is delivered once (the leases of `FOR UPDATE SKIP LOCKED` give each attempt to one
/// instance), and the two instances' Prometheus counters add up to what was delivered.
@Suite(.serialized, .enabled(if: AppleClient.shouldRun && TestDatabase.postgresAvailable, "needs Python and PostgreSQL"))
struct WebhookTwoInstancesTests {
    static let tokens = WebhookSetup.tokens(200, prefix: "36")

    @Test func eachEventOnceAcrossInstances() async throws {
        let setup = try await WebhookSetup.make(try await TestDatabase.make(.postgres))
        try await setup.receiver.start()
        defer { setup.receiver.stop() }
        let metricsPorts = try (0 ..< 2).map { _ in try HeldPort.closed() }
        let one = try await setup.startServer(["--metrics-port", "\(metricsPorts[0])"])
        defer { _ = one.terminate() }
        let other = try await setup.startServer(["--metrics-port", "\(metricsPorts[1])"])
        defer { _ = other.terminate() }
        let half = Self.tokens.count / 2
        async let first: Void = WebhookSetup.post(Array(Self.tokens[..<half]), to: one)
        async let second: Void = WebhookSetup.post(Array(Self.tokens[half...]), to: other)
        _ = try await (first, second)
        _ = try await setup.waitForAll(Self.tokens, seconds: 120)

        // Each event once: one request per id, every request valid, one attempt each.
        let requests = setup.receiver.requests()
        #expect(requests.allSatisfy { $0.valid })
        #expect(requests.count == Self.tokens.count && Set(requests.map(\.id)).count == Self.tokens.count)
        let deadline = Date().addingTimeInterval(10)
        var deliveries: [[String: Any]] = []
        repeat {
            deliveries = try await setup.deliveries()
            if deliveries.count == Self.tokens.count && deliveries.allSatisfy({ $0["state"] as? String == "delivered" }) { break }
            try await Task.sleep(for: .milliseconds(200))
        } while Date() < deadline
        #expect(deliveries.count == Self.tokens.count)
        #expect(deliveries.allSatisfy { $0["state"] as? String == "delivered" && $0["attempts"] as? Int == 1 })

        // Both instances delivered some; their counters add up; nothing is failed or retried.
        var delivered: [Int] = []
        for port in metricsPorts {
            let text = try await Self.metrics(port)
            delivered.append(Self.counter("receipt_server_webhook_delivered_total", in: text))
            #expect(Self.counter("receipt_server_webhook_failed_total", in: text) == 0)
            #expect(Self.counter("receipt_server_webhook_retried_total", in: text) == 0)
            #expect(text.contains("receipt_server_webhook_delivery_seconds_count"))
        }
        #expect(delivered.reduce(0, +) == Self.tokens.count, "\(delivered)")
        #expect(delivered.allSatisfy { $0 > 0 }, "\(delivered)")
    }

    /// The Prometheus text of the metrics listener on `port`.
    static func metrics(_ port: Int) async throws -> String {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/metrics"), timeout: .seconds(10))
        #expect(response.status.code == 200)
        return String(buffer: try await response.body.collect(upTo: 16 << 20))
    }

    /// The sum of a counter's samples (every label set) in Prometheus text; 0 when absent.
    static func counter(_ name: String, in text: String) -> Int {
        text.split(separator: "\n").filter { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0) { $0 + Int($1) }
    }
}
