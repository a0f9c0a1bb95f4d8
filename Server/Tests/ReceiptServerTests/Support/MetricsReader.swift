import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReceiptServer
@testable import receipt_server
import Synchronization

/// Reads `/metrics` from the server's own metrics listener (`metricsPort` 0: any free port, given
/// by `ServerApplication.make`'s `onMetricsRunning`), over a real socket.
final class MetricsReader: Sendable {
    let port = Mutex<Int?>(nil)

    /// The Prometheus text, once the listener is up.
    func text() async throws -> String {
        let (code, body) = try await get("/metrics")
        guard code == 200 else { throw UnexpectedAnswer(description: "/metrics: HTTP \(code)") }
        return body
    }

    /// The text's lines.
    func lines() async throws -> Set<String> {
        Set(try await text().split(separator: "\n").map(String.init))
    }

    /// GET `path` on the metrics listener: status code and body.
    func get(_ path: String) async throws -> (code: UInt, body: String) {
        var bound: Int?
        for _ in 0 ..< 400 {
            bound = port.withLock { $0 }
            if bound != nil { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        guard let bound else { throw UnexpectedAnswer(description: "the metrics listener did not start") }
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(bound)\(path)"), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 16 << 20)
        return (response.status.code, String(buffer: body))
    }
}

extension TestServer {
    /// As `with`, with the metrics listener on a free loopback port and a reader for it.
    static func withMetrics<T: Sendable>(
        _ configuration: ServerConfiguration, framework: TestingSetup = .router,
        _ body: @escaping @Sendable (any TestClientProtocol, MetricsReader) async throws -> T
    ) async throws -> T {
        var configuration = configuration
        configuration.metricsHost = "127.0.0.1"
        configuration.metricsPort = 0
        let reader = MetricsReader()
        let application = try await ServerApplication.make(
            configuration, logger: logger,
            onMetricsRunning: { port in
                reader.port.withLock { $0 = port }
            })
        return try await application.test(framework) { client in try await body(client, reader) }
    }
}
