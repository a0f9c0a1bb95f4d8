import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

/// `--request-timeout` and `--max-connections`, against the built executable over real sockets:
/// clients trickling bytes are cut off at the deadline (headers or body), and a normal client is
/// answered while they trickle, even when they hold every connection the server allows.
@Suite(.serialized) struct ConnectionBoundsTests {
    /// Sends one byte every `interval` until the server closes the connection or `limit` passes;
    /// returns how long the connection lived, nil if it was never closed.
    static func trickle(_ connection: RawConnection, _ bytes: [UInt8], every interval: Duration,
                        limit: Duration) -> Duration? {
        let start = ContinuousClock.now
        var index = 0
        while ContinuousClock.now - start < limit {
            if index < bytes.count, !connection.send([bytes[index]]) { return ContinuousClock.now - start }
            index += 1
            if connection.receive(timeout: interval).closed { return ContinuousClock.now - start }
        }
        return nil
    }

    /// Runs blocking `work` on a new thread (not on the cooperative pool, which has a thread per core).
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    static let slowBody = Array("POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n".utf8)

    /// A body trickled one byte every 300 ms (never silent for the 30 s idle timeout) and headers
    /// trickled likewise are both closed about 2 s (`--request-timeout 2`) after their first byte.
    @Test func tricklingClientsAreClosedAtTheDeadline() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let server = try await LiveServer.start(LiveTests.serverArguments(database, ["--request-timeout", "2", "--metrics-port", "0"]))
        defer { _ = server.terminate() }

        let port = server.port
        let bodyLived = try #require(await Self.onThread { () -> Duration? in
            guard let body = try? RawConnection(port: port) else { return nil }
            body.send(Self.slowBody)
            return Self.trickle(body, Array(repeating: UInt8(ascii: "x"), count: 1000), every: .milliseconds(300), limit: .seconds(15))
        }, "a trickled body was never cut off")
        #expect(bodyLived >= .milliseconds(1_500) && bodyLived <= .seconds(5), "\(bodyLived)")

        let headersLived = try #require(await Self.onThread { () -> Duration? in
            guard let headers = try? RawConnection(port: port) else { return nil }
            return Self.trickle(headers, Self.slowBody, every: .milliseconds(300), limit: .seconds(15))
        }, "trickled headers were never cut off")
        #expect(headersLived >= .milliseconds(1_500) && headersLived <= .seconds(5), "\(headersLived)")

        // A keep-alive connection is not on the clock between requests: idle 3 s, then answered.
        let client = HTTPClient()
        var request = HTTPClientRequest(url: server.baseURL + "/health")
        request.headers.add(name: "Connection", value: "keep-alive")
        let first = try await client.execute(request, timeout: .seconds(10)).status.code
        try await Task.sleep(for: .seconds(3))
        let second = try await client.execute(request, timeout: .seconds(10)).status.code
        let metricsPort = try await MetricsListenerTests.metricsPort(server)
        let metrics = try await MetricsListenerTests.get(client, "http://127.0.0.1:\(metricsPort)/metrics").1
        try await client.shutdown()
        #expect(first == 200 && second == 200)
        #expect(metrics.contains("receipt_server_request_timeouts_total 2"), "\(metrics)")
    }

    /// 20 clients trickling bodies, and a normal client answered at once; then, with
    /// `--max-connections 4` held by 4 trickling clients, a normal client waits in the accept queue
    /// and is answered once the deadline frees a connection. The limit is logged once.
    @Test func normalClientIsAnsweredWhileOthersTrickle() async throws {
        for (maxConnections, slow) in [(1024, 20), (4, 4)] {
            let database = try await TestDatabase.make(.sqlite)
            let server = try await LiveServer.start(LiveTests.serverArguments(database, [
                "--request-timeout", "2", "--max-connections", String(maxConnections)]))
            defer { _ = server.terminate() }
            let port = server.port
            // Each slow client on a thread of its own: they block, and must all trickle at once.
            let tricklers = Task {
                await withTaskGroup(of: Duration?.self) { group in
                    for _ in 0 ..< slow {
                        group.addTask {
                            await Self.onThread {
                                guard let connection = try? RawConnection(port: port) else { return nil }
                                connection.send(Self.slowBody)
                                return Self.trickle(connection, Array(repeating: UInt8(ascii: "x"), count: 1000), every: .milliseconds(300),
                                                    limit: .seconds(15))
                            }
                        }
                    }
                    return await group.reduce(into: [Duration?]()) { $0.append($1) }
                }
            }
            try await Task.sleep(for: .milliseconds(500))   // the slow ones are connected and trickling
            let client = HTTPClient()
            let start = ContinuousClock.now
            let response = try await client.execute(HTTPClientRequest(url: server.baseURL + "/health"), timeout: .seconds(20))
            let waited = ContinuousClock.now - start
            #expect(response.status.code == 200)
            if maxConnections > slow {
                #expect(waited < .seconds(1), "answered while \(slow) clients trickle: \(waited)")
            } else {
                #expect(waited >= .seconds(1), "waited for the deadline to free a connection: \(waited)")
            }
            try await client.shutdown()
            let lived = await tricklers.value
            #expect(lived.allSatisfy { $0 != nil }, "every trickling client was cut off")
            let limitLines = server.logText.split(separator: "\n").filter { $0.contains("connection limit reached") }
            #expect(limitLines.count == (maxConnections > slow ? 0 : 1), "\(lived) \(waited)")
        }
    }
}
