import AsyncHTTPClient
import Foundation
import NIOCore
import ReceiptServer
@testable import receipt_server
import Testing

/// `/metrics` on its own listener (`--metrics-host`, `--metrics-port`), never on the main port,
/// and the new options in the configuration file.
@Suite struct MetricsListenerTests {
    static func get(_ client: HTTPClient, _ url: String) async throws -> (UInt, String) {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        return (response.status.code, String(buffer: try await response.body.collect(upTo: 16 << 20)))
    }

    /// The port from the `metrics listening` log line.
    static func metricsPort(_ server: LiveServer) async throws -> Int {
        for _ in 0 ..< 200 {
            for line in server.logText.split(separator: "\n") where line.contains(#""message":"metrics listening""#) {
                if let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let port = (object["port"] as? String).flatMap(Int.init)
                {
                    return port
                }
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw UnexpectedAnswer(description: "no metrics listening line: \(server.logText)")
    }

    @Test func metricsAreOnTheirOwnListenerOnly() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let client = HTTPClient()

        let server = try await LiveServer.start(LiveTests.serverArguments(database, ["--metrics-port", "0"]))
        let port = try await Self.metricsPort(server)
        #expect(port != server.port)
        #expect(try await Self.get(client, server.baseURL + "/metrics").0 == 404)
        _ = try await Self.get(client, server.baseURL + "/health")
        let (code, text) = try await Self.get(client, "http://127.0.0.1:\(port)/metrics")
        #expect(code == 200 && text.contains(#"receipt_server_http_requests_total{endpoint="/health",code="200"} 1"#))
        #expect(try await Self.get(client, "http://127.0.0.1:\(port)/health").0 == 404, "the metrics listener serves /metrics only")
        #expect(server.terminate() == 0)

        let without = try await LiveServer.start(LiveTests.serverArguments(database))
        #expect(try await Self.get(client, without.baseURL + "/metrics").0 == 404)
        #expect(!without.logText.contains("metrics listening"))
        #expect(without.terminate() == 0)
        try await client.shutdown()
    }

    @Test func optionsAreReadFromTheFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-bounds-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(
            #"""
            {"cache-bytes": 1000, "max-verifications": 3, "request-timeout": 4, "max-connections": 5,
             "metrics-host": "::1", "metrics-port": 9100, "inspect-rate": 1.5, "inspect-burst": 6}
            """#.utf8
        ).write(to: URL(fileURLWithPath: path))
        let configuration = try ServerConfiguration(configFile: path)
        #expect(configuration.cacheBytes == 1000 && configuration.maxVerifications == 3 && configuration.requestTimeout == 4)
        #expect(configuration.maxConnections == 5 && configuration.metricsHost == "::1" && configuration.metricsPort == 9100)
        #expect(configuration.inspectRate == 1.5 && configuration.inspectBurst == 6 && configuration.inspector == nil)
        try configuration.validate()

        let defaults = ServerConfiguration()
        #expect(
            defaults.metricsPort == nil && defaults.metricsHost == "127.0.0.1" && defaults.requestTimeout == 10
                && defaults.maxConnections == 1024)
        for (key, value) in [("request-timeout", 0), ("max-connections", 0), ("metrics-port", 70_000), ("inspect-burst", 0)] {
            var bad = ServerConfiguration()
            switch key {
            case "request-timeout": bad.requestTimeout = value
            case "max-connections": bad.maxConnections = value
            case "metrics-port": bad.metricsPort = value
            default: bad.inspectBurst = value
            }
            #expect(throws: ConfigurationError.invalidValue(key, String(value))) { try bad.validate() }
        }
        var clash = ServerConfiguration()
        clash.metricsPort = clash.port
        #expect(throws: ConfigurationError.self) { try clash.validate() }
    }
}
