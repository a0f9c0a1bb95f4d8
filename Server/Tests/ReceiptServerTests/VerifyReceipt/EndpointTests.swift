import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PostgresNIO
import Testing

/// `/health`, `/metrics`, and Xcode receipts behind `--allow-xcode`.
@Suite struct EndpointTests {
    @Test func metricsCountAnswersLatencyAndCacheHits() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await TestServer.withMetrics(TestServer.configuration(database)) { client, metrics in
            try await client.expectStatus(0, Synthetic.body(StatusTests.subscription))
            try await client.expectStatus(0, Synthetic.body(StatusTests.subscription))
            try await client.expectStatus(21002, Data(#"{"receipt-data": 1}"#.utf8))
            try await client.expectStatus(21008, Synthetic.body(StatusTests.subscription), sandbox: true)
            // Not on the main port: only on the metrics listener.
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .notFound)
            }
            let text = try await metrics.text()
            let lines = Set(text.split(separator: "\n").map(String.init))
            for expected in [
                #"receipt_server_verify_answers_total{endpoint="/verifyReceipt",status="0"} 2"#,
                #"receipt_server_verify_answers_total{endpoint="/verifyReceipt",status="21002"} 1"#,
                #"receipt_server_verify_answers_total{endpoint="/sandbox/verifyReceipt",status="21008"} 1"#,
                #"receipt_server_cache_lookups_total{result="hit"} 2"#,
                #"receipt_server_cache_lookups_total{result="miss"} 1"#,
                #"receipt_server_verification_seconds_count 1"#,
                #"receipt_server_storage_seconds_count{operation="save"} 1"#,
                #"receipt_server_storage_seconds_count{operation="history"} 2"#,
                #"receipt_server_http_requests_total{endpoint="/verifyReceipt",code="200"} 3"#,
            ] {
                #expect(lines.contains(expected), "missing: \(expected)")
            }
            #expect(text.contains(#"receipt_server_verification_seconds_bucket{le="0.001"}"#))
        }
    }

    @Test(arguments: TestDatabase.backends)
    func healthIs200WhenStorageAnswers(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await TestServer.with(TestServer.configuration(database)) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
            }
        }
    }

    /// 503 once the database refuses connections (its connections are ended and new ones barred).
    @Test(.enabled(if: TestDatabase.postgresAvailable))
    func healthIs503WhenStorageIsDown() async throws {
        let database = try await TestDatabase.make(.postgres)
        let name = try #require(database.url.split(separator: "/").last.map(String.init))
        try await TestServer.with(TestServer.configuration(database)) { client in
            try await TestDatabase.admin(URLComponents(string: TestDatabase.postgresURL!)!) { admin in
                _ = try await admin.query(PostgresNIO.PostgresQuery(unsafeSQL: "ALTER DATABASE \(name) ALLOW_CONNECTIONS false"))
                _ = try await admin.query(
                    PostgresNIO.PostgresQuery(
                        unsafeSQL:
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'"))
            }
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
            }
            try await client.expectStatus(21100, Synthetic.body(StatusTests.consumable))
            try await TestDatabase.admin(URLComponents(string: TestDatabase.postgresURL!)!) { admin in
                _ = try await admin.query(PostgresNIO.PostgresQuery(unsafeSQL: "ALTER DATABASE \(name) ALLOW_CONNECTIONS true"))
            }
            // The pool reconnects (with back-off): health and answers come back.
            var healthy = false
            for _ in 0 ..< 120 where !healthy {
                healthy = try await client.execute(uri: "/health", method: .get) { $0.status == .ok }
                if !healthy { try await Task.sleep(for: .milliseconds(500)) }
            }
            #expect(healthy)
            try await client.expectStatus(0, Synthetic.body(StatusTests.consumable))
        }
    }

    /// Xcode receipts verify only at the sandbox endpoint with `--allow-xcode`.
    @Test(.enabled(if: Fixtures.shouldRun))
    func xcodeReceiptsNeedAllowXcode() async throws {
        let body = Synthetic.body(try Fixtures.bytes("receipts/xcode.der"))
        for allow in [false, true] {
            let database = try await TestDatabase.make(.sqlite)
            try await TestServer.with(TestServer.configuration(database, allowXcode: allow, roots: [])) { client in
                try await client.expectStatus(21003, body)
                try await client.expectStatus(allow ? 0 : 21003, body, sandbox: true)
            }
        }
    }
}
