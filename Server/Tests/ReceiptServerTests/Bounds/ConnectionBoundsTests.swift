import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization
import Testing

/// `--request-timeout` and `--max-connections`, against the built executable over real sockets:
/// clients trickling bytes are cut off at the deadline (headers or body), and a normal client is
/// answered while they trickle, even when they hold every connection the server allows.
@Suite(.serialized) struct ConnectionBoundsTests {
    /// Sends one byte every `interval` until the server closes the connection or `limit` passes;
    /// returns how long the connection lived, nil if it was never closed.
    static func trickle(
        _ connection: RawConnection, _ bytes: [UInt8], every interval: Duration,
        limit: Duration
    ) -> Duration? {
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
    /// trickled likewise are both closed about 2 s (`--request-timeout 2`) after their first byte,
    /// long before the 30 s idle timeout would.
    @Test func tricklingClientsAreClosedAtTheDeadline() async throws {
        let database = try await TestDatabase.make(.sqlite)
        let server = try await LiveServer.start(LiveTests.serverArguments(database, ["--request-timeout", "2", "--metrics-port", "0"]))
        defer { _ = server.terminate() }

        let port = server.port
        let bodyLived = try #require(
            await Self.onThread { () -> Duration? in
                guard let body = try? RawConnection(port: port) else { return nil }
                body.send(Self.slowBody)
                return Self.trickle(body, Array(repeating: UInt8(ascii: "x"), count: 1000), every: .milliseconds(300), limit: .seconds(15))
            }, "a trickled body was never cut off")
        #expect(bodyLived >= .milliseconds(1_500) && bodyLived <= .seconds(8), "\(bodyLived)")

        let headersLived = try #require(
            await Self.onThread { () -> Duration? in
                guard let headers = try? RawConnection(port: port) else { return nil }
                return Self.trickle(headers, Self.slowBody, every: .milliseconds(300), limit: .seconds(15))
            }, "trickled headers were never cut off")
        #expect(headersLived >= .milliseconds(1_500) && headersLived <= .seconds(8), "\(headersLived)")

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

    /// Instants the slow clients sent their first byte.
    final class FirstBytes: Sendable {
        let instants = Mutex<[ContinuousClock.Instant]>([])
        var all: [ContinuousClock.Instant] { instants.withLock { $0 } }
    }

    /// 20 clients trickling bodies, and a normal client answered while all of them are still
    /// connected; then, with `--max-connections 4` held by 4 trickling clients, a normal client
    /// waits in the accept queue and is answered only once the deadline has freed a connection.
    /// The limit is logged once. Both are checked against the instants the slow clients started
    /// (the server cuts none before its first byte plus `--request-timeout`), not against a
    /// guess of how long things take on a loaded machine.
    @Test func normalClientIsAnsweredWhileOthersTrickle() async throws {
        for (maxConnections, slow, timeout) in [(1024, 20, 8), (4, 4, 2)] {
            let database = try await TestDatabase.make(.sqlite)
            let server = try await LiveServer.start(
                LiveTests.serverArguments(
                    database,
                    [
                        "--request-timeout", String(timeout), "--max-connections", String(maxConnections),
                    ]))
            defer { _ = server.terminate() }
            let port = server.port
            let firstBytes = FirstBytes()
            // Each slow client on a thread of its own: they block, and must all trickle at once.
            let tricklers = Task {
                await withTaskGroup(of: Duration?.self) { group in
                    for _ in 0 ..< slow {
                        group.addTask {
                            await Self.onThread {
                                guard let connection = try? RawConnection(port: port) else { return nil }
                                firstBytes.instants.withLock { $0.append(.now) }
                                connection.send(Self.slowBody)
                                return Self.trickle(
                                    connection, Array(repeating: UInt8(ascii: "x"), count: 1000), every: .milliseconds(300),
                                    limit: .seconds(30))
                            }
                        }
                    }
                    return await group.reduce(into: [Duration?]()) { $0.append($1) }
                }
            }
            for _ in 0 ..< 1000 where firstBytes.all.count < slow { try await Task.sleep(for: .milliseconds(20)) }
            #expect(firstBytes.all.count == slow)
            let limited = maxConnections <= slow
            if limited {   // the server has accepted all of them
                for _ in 0 ..< 1000 where !server.logText.contains("connection limit reached") { try await Task.sleep(for: .milliseconds(20)) }
            }
            let client = HTTPClient()
            let response = try await client.execute(HTTPClientRequest(url: server.baseURL + "/health"), timeout: .seconds(30))
            let answered = ContinuousClock.now
            #expect(response.status.code == 200)
            try await client.shutdown()
            let earliestCut = try #require(firstBytes.all.min()) + .seconds(timeout)
            if limited {
                #expect(answered >= earliestCut, "answered only once the deadline freed a connection")
            } else {
                #expect(answered < earliestCut, "answered while all \(slow) clients trickle")
            }
            let lived = await tricklers.value
            #expect(lived.allSatisfy { $0 != nil }, "every trickling client was cut off")
            let limitLines = server.logText.split(separator: "\n").filter { $0.contains("connection limit reached") }
            #expect(limitLines.count == (limited ? 1 : 0))
        }
    }
}
