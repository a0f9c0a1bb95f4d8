import Foundation
import Testing

/// Events delivered by the server process to the tests' own receiver, which verifies each with
/// PyPI `standardwebhooks` (both backends).
@Suite(.serialized, .enabled(if: AppleClient.shouldRun, AppleClient.skipReason))
struct WebhookDeliveryTests {
    typealias S = WebhookSetup

    /// 300 synthetic notifications, signed once for both backends (each a fresh notificationUUID
    /// in a database of its own).
    static let synthetic = S.tokens(300, prefix: "31")

    /// Real notifications (`RealNotification.all()`: Apple's TEST notification from the fixtures,
    /// and any others there or in `REAL_NOTIFICATIONS`) and 300 synthetic SUBSCRIBED
    /// notifications: each arrives with a valid signature, its `signedPayload` the posted token
    /// byte for byte, its `webhook-id` the body's id, each id once; the body's fields are the
    /// notification's; `webhook deliveries` lists them delivered.
    @Test(arguments: TestDatabase.backends)
    func everyNotificationArrivesSigned(_ backend: TestDatabase.Backend) async throws {
        let reals = try RealNotification.all()
        var apps = [Synthetic.bundleID]
        for notification in reals where !apps.contains(notification.bundleID) { apps.append(notification.bundleID) }
        let appleIDs = Dictionary(reals.compactMap { n in n.appAppleID.map { (n.bundleID, $0) } }, uniquingKeysWith: { first, _ in first })
        let setup = try await S.make(try await TestDatabase.make(backend), apps: apps, appleIDs: appleIDs)
        try await setup.receiver.start()
        defer { setup.receiver.stop() }
        let server = try await setup.startServer()
        defer { _ = server.terminate() }
        let synthetic = Self.synthetic
        let real = reals.map(\.token)
        try await S.post(reals.filter { $0.environment == "Sandbox" }.map(\.token), to: server, sandbox: true)
        try await S.post(reals.filter { $0.environment != "Sandbox" }.map(\.token), to: server)
        try await S.post(synthetic, to: server)
        let arrived = try await setup.waitForAll(real + synthetic, seconds: 120)
        let requests = setup.receiver.requests()
        #expect(requests.allSatisfy { $0.valid })
        for (token, request) in arrived {
            let body = request.json
            #expect(body["id"] as? String == request.id)
            #expect(body["signedPayload"] as? String == token)
            #expect(request.body.contains("\"signedPayload\":\"\(token)\""))   // byte for byte, unescaped
        }
        #expect(Set(arrived.values.map(\.id)).count == real.count + synthetic.count)
        for notification in reals {
            let body = try #require(arrived[notification.token]).json
            #expect(body["type"] as? String == notification.notificationType)
            #expect((body["subtype"] as? String) == notification.subtype)
            #expect(body["environment"] as? String == notification.environment && body["bundleId"] as? String == notification.bundleID)
            #expect(body["notificationUUID"] as? String == notification.notificationUUID)
            #expect(body["signedDate"] as? Int == notification.signedDate)
        }
        if Fixtures.isPresent {
            let test = try #require(real.first)
            let body = try #require(arrived[test]).json
            #expect(body["type"] as? String == "TEST" && body["environment"] as? String == "Sandbox")
            #expect(body["bundleId"] as? String == "com.Abilities")
            #expect(body["notificationUUID"] as? String == "5e09dcfc-205e-4ea1-9883-96676f394992")
            #expect(body["signedDate"] as? Int == 1_662_122_492_884 && body["status"] is NSNull && body["transactionId"] is NSNull)
        }
        let first = try #require(arrived[synthetic[0]]).json
        #expect(first["type"] as? String == "SUBSCRIBED" && first["subtype"] as? String == "INITIAL_BUY")
        #expect(first["transactionId"] as? String == "31100000" && first["originalTransactionId"] as? String == "31100000")
        #expect(first["productId"] as? String == "com.example.receipts.monthly" && first["status"] as? Int == 1)
        #expect(first["bundleId"] as? String == Synthetic.bundleID && first["environment"] as? String == "Production")
        #expect(first["appAccountToken"] is NSNull && first["expiresDate"] is Int)
        // Outcomes are written in batches after the answers: wait for the last of them.
        let deadline = Date().addingTimeInterval(10)
        var deliveries: [[String: Any]] = []
        repeat {
            deliveries = try await setup.deliveries()
            if deliveries.allSatisfy({ $0["state"] as? String == "delivered" }) { break }
            try await Task.sleep(for: .milliseconds(200))
        } while Date() < deadline
        #expect(deliveries.count == real.count + synthetic.count)
        #expect(deliveries.allSatisfy { $0["state"] as? String == "delivered" && $0["attempts"] as? Int == 1 })
        #expect(try await setup.deliveries(failed: true).isEmpty)
        #expect(!server.logText.contains("whsec_") && !server.logText.contains(synthetic[0]))
    }

    /// A receiver that never answers 2xx: the event is tried on the schedule (three attempts with
    /// `100ms,100ms`, the same `webhook-id`, each signed anew), then listed as failed; once the
    /// receiver is healthy, `webhook redeliver` delivers it with the same id.
    @Test(arguments: TestDatabase.backends)
    func failedAfterTheScheduleThenRedelivered(_ backend: TestDatabase.Backend) async throws {
        let setup = try await S.make(try await TestDatabase.make(backend))
        try await setup.receiver.start(fail: -1)
        let server = try await setup.startServer(["--webhook-retry-schedule", "100ms,100ms"])
        defer { _ = server.terminate() }
        let tokens = S.tokens(1, prefix: "32")
        try await S.post(tokens, to: server)
        var failed: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(30)
        while failed.isEmpty, Date() < deadline {
            try await Task.sleep(for: .milliseconds(200))
            failed = try await setup.deliveries(failed: true)
        }
        let delivery = try #require(failed.first)
        let eventID = try #require(delivery["eventId"] as? String)
        #expect(delivery["attempts"] as? Int == 3 && delivery["lastStatus"] as? Int == 500 && delivery["lastError"] as? String == "HTTP 500")
        #expect(delivery["endpointId"] as? String == setup.endpointID && delivery["type"] as? String == "SUBSCRIBED")
        let attempts = setup.receiver.requests()
        #expect(attempts.count == 3 && attempts.allSatisfy { $0.id == eventID && $0.valid && $0.status == 500 })
        #expect(server.logText.components(separatedBy: "webhook attempt failed").count - 1 == 3)
        #expect(!server.logText.contains(tokens[0]))
        setup.receiver.stop()
        try await setup.receiver.start()
        defer { setup.receiver.stop() }
        let redelivered = try await CommandLineRegistry.run(setup.database, ["webhook", "redeliver", eventID])
        #expect(redelivered["deliveries"] as? Int == 1)
        let arrived = try await setup.waitForAll(tokens, seconds: 30)
        #expect(arrived[tokens[0]]?.id == eventID)
        #expect(try await setup.deliveries(failed: true).isEmpty)
    }
}
