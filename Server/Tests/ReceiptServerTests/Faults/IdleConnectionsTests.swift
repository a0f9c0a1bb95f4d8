#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import AsyncHTTPClient
import Foundation
import Synchronization
import Testing

/// 1,000 idle connections and 50 clients trickling a byte a second: a normal client is still
/// answered within 1 s (p99 over 200 requests), the idle connections are closed at
/// `--idle-timeout` (not before), and the trickling ones, never silent, are not.
@Suite struct IdleConnectionsTests {
    static let idle = 1_000
    static let tricklers = 50
    static let idleTimeout = 6

    /// Raises this process's soft limit of open files (the server inherits it) to at least
    /// `needed`; the reason when the hard limit is lower.
    static func raiseFileLimit(_ needed: rlim_t) -> String? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return "getrlimit failed" }
        if limit.rlim_cur >= needed { return nil }
        guard limit.rlim_max >= needed else { return "the hard limit of open files is \(limit.rlim_max), below \(needed)" }
        limit.rlim_cur = needed
        return setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? nil : "setrlimit refused \(needed) open files"
    }

    /// A connected loopback socket, or nil.
    static func connectSocket(_ port: Int) -> Int32? {
        #if canImport(Glibc)
            let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Polls `fds` until each is closed by the peer or `limit` passes; the instant each closed.
    static func watchClosures(_ fds: [Int32], limit: Duration) -> [ContinuousClock.Instant?] {
        var closed = [ContinuousClock.Instant?](repeating: nil, count: fds.count)
        var polled = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let end = ContinuousClock.now + limit
        var buffer = [UInt8](repeating: 0, count: 512)
        while ContinuousClock.now < end, closed.contains(where: { $0 == nil }) {
            guard poll(&polled, nfds_t(polled.count), 100) > 0 else { continue }
            for index in polled.indices where polled[index].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(polled[index].fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n <= 0 {
                    closed[index] = .now
                    polled[index].fd = -1   // poll ignores negative descriptors
                }
            }
        }
        return closed
    }

    @Test func normalClientAnsweredBesideIdleAndTricklingConnections() async throws {
        if let refused = Self.raiseFileLimit(rlim_t(4 * (Self.idle + Self.tricklers) + 256)) {
            print("SKIP IdleConnectionsTests: \(refused)")
            return
        }
        let database = try await TestDatabase.make(.sqlite)
        let server = try await LiveServer.start(
            LiveTests.serverArguments(
                database, ["--idle-timeout", String(Self.idleTimeout), "--request-timeout", "60", "--max-connections", "2000"]))
        defer { _ = server.terminate() }
        let port = server.port

        let opened = ContinuousClock.now
        var fds: [Int32] = []
        for _ in 0 ..< Self.idle { if let fd = Self.connectSocket(port) { fds.append(fd) } }
        defer { for fd in fds { close(fd) } }
        let allOpen = ContinuousClock.now
        #expect(fds.count == Self.idle, "opened \(fds.count) idle connections")
        let closures = Task { [fds] in await ConnectionBoundsTests.onThread { Self.watchClosures(fds, limit: .seconds(Self.idleTimeout + 10)) } }

        // 50 clients each sending a request's body one byte a second (never silent).
        let tricklersStarted = ContinuousClock.now
        let trickling = Task {
            await withTaskGroup(of: Duration?.self) { group in
                for _ in 0 ..< Self.tricklers {
                    group.addTask {
                        await ConnectionBoundsTests.onThread {
                            guard let connection = try? RawConnection(port: port) else { return .zero }
                            connection.send(ConnectionBoundsTests.slowBody)
                            return ConnectionBoundsTests.trickle(
                                connection, Array(repeating: UInt8(ascii: "x"), count: 1000), every: .seconds(1),
                                limit: .seconds(Self.idleTimeout + 4))
                        }
                    }
                }
                return await group.reduce(into: [Duration?]()) { $0.append($1) }
            }
        }

        // The normal client: 200 requests, one after another.
        let client = HTTPClient()
        var latencies: [Duration] = []
        for _ in 0 ..< 200 {
            let sent = ContinuousClock.now
            let response = try await client.execute(HTTPClientRequest(url: server.baseURL + "/health"), timeout: .seconds(10))
            _ = try await response.body.collect(upTo: 1 << 16)
            latencies.append(ContinuousClock.now - sent)
            #expect(response.status.code == 200)
        }
        try await client.shutdown()
        latencies.sort()
        let p99 = latencies[latencies.count * 99 / 100 - 1]
        #expect(p99 < .seconds(1), "p99 \(p99)")

        let closed = await closures.value
        let lived = closed.map { $0.map { $0 - allOpen } }
        let earliest = closed.compactMap { $0 }.min().map { $0 - opened }
        let latest = lived.compactMap { $0 }.max()
        #expect(lived.allSatisfy { $0 != nil }, "\(lived.filter { $0 == nil }.count) idle connections never closed")
        #expect(
            earliest.map { $0 >= .seconds(Self.idleTimeout) - .milliseconds(500) } ?? false,
            "closed before --idle-timeout: \(String(describing: earliest))")
        #expect(latest.map { $0 <= .seconds(Self.idleTimeout + 3) } ?? false, "closed long after --idle-timeout: \(String(describing: latest))")
        let tricklerLives = await trickling.value
        let cut = tricklerLives.compactMap { $0 }
        #expect(cut.isEmpty, "\(cut.count) trickling clients closed within \(Self.idleTimeout + 4) s: \(cut.prefix(3))")
        print(
            "FAULT \(fds.count) idle + \(Self.tricklers) trickling connections (idle ones opened in \(allOpen - opened), tricklers from \(tricklersStarted - opened)): "
                + "normal client p50 \(latencies[latencies.count / 2]), p99 \(p99), max \(latencies.last!); "
                + "first idle one closed \(earliest.map { "\($0)" } ?? "-") after the first opened, last \(latest.map { "\($0)" } ?? "-") after the last opened (--idle-timeout \(Self.idleTimeout))"
        )
    }
}
