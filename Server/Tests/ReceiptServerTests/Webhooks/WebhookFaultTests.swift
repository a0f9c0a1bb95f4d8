import Foundation
import Testing

/// Every event survives the receiver's and the server's faults (both backends): a receiver
/// answering 500 fifty times, a receiver down for 10 s, the server killed (`kill -9`) while
/// delivering, PostgreSQL restarted. Run with the other fault tests, alone (`Server/ci`).
@Suite(.serialized, .enabled(if: AppleClient.shouldRun, AppleClient.skipReason))
struct WebhookFaultTests {
    typealias S = WebhookSetup

    /// 20 events while the receiver answers its first fifty requests 500: each is retried
    /// until a 2xx; none fails.
    @Test(arguments: TestDatabase.backends)
    func receiverAnswering500FiftyTimes(_ backend: TestDatabase.Backend) async throws {
        let setup = try await S.make(try await TestDatabase.make(backend))
        try await setup.receiver.start(fail: 50)
        defer { setup.receiver.stop() }
        let server = try await setup.startServer(["--webhook-retry-schedule", "100ms,200ms,400ms,800ms,1s,1s,1s,1s,1s,1s"])
        defer { _ = server.terminate() }
        let tokens = S.tokens(20, prefix: "41")
        try await S.post(tokens, to: server)
        let arrived = try await setup.waitForAll(tokens, seconds: 60)
        #expect(arrived.count == 20)
        let requests = setup.receiver.requests()
        #expect(requests.filter { $0.status == 500 }.count == 50 && requests.allSatisfy { $0.valid })
        // Each event kept its id across its retries.
        for request in requests where request.status == 500 { #expect(arrived.values.contains { $0.id == request.id }) }
        #expect(try await setup.deliveries(failed: true).isEmpty)
    }

    /// The receiver down (connections refused) for 10 s while 20 notifications are acknowledged:
    /// all arrive after it is back.
    @Test(arguments: TestDatabase.backends)
    func receiverDownForTenSeconds(_ backend: TestDatabase.Backend) async throws {
        let setup = try await S.make(try await TestDatabase.make(backend))
        let server = try await setup.startServer(["--webhook-retry-schedule", "1s,2s,4s,8s,8s,8s"])
        defer { _ = server.terminate() }
        let tokens = S.tokens(20, prefix: "42")
        let down = Date()
        try await S.post(tokens, to: server)
        try await Task.sleep(for: .seconds(max(0, 10 - Date().timeIntervalSince(down))))
        #expect(setup.receiver.requests().isEmpty)
        try await setup.receiver.start()
        defer { setup.receiver.stop() }
        // 120 s: one loaded Server/ci rehearsal on PostgreSQL saw no attempt reach the receiver
        // within 60 s of its return (suspected: AsyncHTTPClient's connection backoff after 10 s
        // of refused connections; issue 38's note), another delivered all within seconds.
        let arrived = try await setup.waitForAll(tokens, seconds: 120)
        #expect(arrived.count == 20 && setup.receiver.requests().allSatisfy { $0.valid })
        // The attempts made while it was down failed (logged) and were retried: none failed for good.
        #expect(server.logText.contains("webhook attempt failed"))
        let deadline = Date().addingTimeInterval(10)
        var deliveries: [[String: Any]] = []
        repeat {
            deliveries = try await setup.deliveries()
            if deliveries.allSatisfy({ $0["state"] as? String == "delivered" }) { break }
            try await Task.sleep(for: .milliseconds(200))
        } while Date() < deadline
        #expect(deliveries.count == 20 && deliveries.allSatisfy { $0["state"] as? String == "delivered" })
        #expect(deliveries.contains { ($0["attempts"] as? Int ?? 0) >= 2 })
    }

    /// The server killed with SIGKILL while attempts are in flight (the receiver answers after
    /// 1 s): every acknowledged notification's event arrives after a restart.
    @Test(arguments: TestDatabase.backends)
    func serverKilledMidDelivery(_ backend: TestDatabase.Backend) async throws {
        let setup = try await S.make(try await TestDatabase.make(backend))
        try await setup.receiver.start(delay: 1)
        defer { setup.receiver.stop() }
        // A 1 s timeout keeps PostgreSQL's leases (a dead instance's end with their time) short.
        let options = ["--webhook-timeout", "2s", "--webhook-retry-schedule", "1s,1s,1s,1s"]
        let server = try await setup.startServer(options)
        let tokens = S.tokens(40, prefix: "43")
        try await S.post(tokens, to: server)
        _ = try await setup.receiver.waitFor(20, "a first attempt") { !$0.isEmpty }
        server.kill()
        let restarted = try await setup.startServer(options)
        defer { _ = restarted.terminate() }
        let arrived = try await setup.waitForAll(tokens, seconds: 90)
        #expect(arrived.count == 40 && setup.receiver.requests().allSatisfy { $0.valid })
    }

    /// PostgreSQL stopped (immediate: every backend killed) while events are pending, then
    /// started again: the events of before and after arrive.
    @Test(.enabled(if: PrivateCluster.shouldRun, "PostgreSQL 15 is not installed"))
    func postgresRestarted() async throws {
        let cluster = try PrivateCluster()
        defer { cluster.remove() }
        let database = TestDatabase(backend: .postgres, url: cluster.url)
        let setup = try await S.make(database)
        try await setup.receiver.start(delay: 0.5)
        defer { setup.receiver.stop() }
        let server = try await setup.startServer(["--webhook-retry-schedule", "1s,1s,2s,2s,4s,4s"])
        defer { _ = server.terminate() }
        let before = S.tokens(20, prefix: "44")
        try await S.post(before, to: server)
        try cluster.stopImmediately()
        try await Task.sleep(for: .seconds(3))
        try cluster.start()
        let after = S.tokens(10, prefix: "45")
        let deadline = Date().addingTimeInterval(30)
        while true {   // the pool reconnects within a few seconds
            do {
                try await S.post(after, to: server)
                break
            } catch  where Date() < deadline {
                try await Task.sleep(for: .milliseconds(500))
            }
        }
        let arrived = try await setup.waitForAll(before + after, seconds: 90)
        #expect(arrived.count == 30 && setup.receiver.requests().allSatisfy { $0.valid })
    }
}
