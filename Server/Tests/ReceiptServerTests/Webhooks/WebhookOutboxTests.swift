import Foundation
import ReceiptService
import ReceiptStore
import Testing

/// The outbox on both backends: events written with what causes them, once per cause, only to
/// the endpoints that receive them; claims leased and disjoint; outcomes fenced by attempt.
@Suite struct WebhookOutboxTests {
    typealias F = SignedDataFixtures

    static func endpoint(
        _ id: String, bundleID: String = F.bundleID, environment: String? = nil, events: [String]? = nil
    ) -> WebhookEndpointRecord {
        WebhookEndpointRecord(
            id: id, url: "http://127.0.0.1:9/\(id)", bundleID: bundleID, environment: environment, events: events,
            sealedSecret: Array("sealed-\(id)".utf8), createdMilliseconds: 1)
    }

    static func claimAll(_ store: any ReceiptStorage, now: Int64 = EpochMilliseconds.now()) async throws -> [WebhookAttempt] {
        try await store.claimWebhookAttempts(limit: 10_000, excluding: [], now: now, leaseMilliseconds: 60_000)
    }

    /// A notification's event goes to each endpoint of its app whose environment and types take
    /// it, once, however often the notification is stored; the claimed body is the event's.
    @Test(arguments: TestDatabase.backends)
    func notificationEventsGoToMatchingEndpointsOnce(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await F.with(database) { store in
            for e in [
                Self.endpoint("all"), Self.endpoint("other-app", bundleID: "com.example.other"),
                Self.endpoint("sandbox", environment: "Sandbox"), Self.endpoint("renewals", events: ["DID_RENEW"]),
                Self.endpoint("refunds", events: ["REFUND"]),
            ] {
                try await store.addWebhookEndpoint(e)
            }
            let notification = WebhookEvent.attached(
                to: F.notification("uuid-1", transaction: F.transaction("9001", original: "9001", signed: 1_700_000_000_000)))
            let event = try #require(notification.webhookEvent)
            try await store.save(notification)
            try await store.save(notification)   // Apple's retry: stored once, one event
            let attempts = try await Self.claimAll(store)
            #expect(attempts.map(\.endpointID).sorted() == ["all", "renewals"])
            #expect(attempts.allSatisfy { $0.eventID == event.id && $0.body == event.body && $0.attempt == 1 })
            #expect(attempts.first { $0.endpointID == "all" }?.sealedSecret == Array("sealed-all".utf8))
            // Leased: not claimed again meanwhile.
            #expect(try await Self.claimAll(store).isEmpty)
            #expect(try await store.webhookDeliveries(failedOnly: false, limit: 10).count == 2)
        }
    }

    /// No endpoint, no event: nothing is written for an app nobody listens to.
    @Test(arguments: TestDatabase.backends)
    func nothingWrittenWithoutEndpoints(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await F.with(database) { store in
            try await store.addWebhookEndpoint(Self.endpoint("other", bundleID: "com.example.other"))
            try await store.save(WebhookEvent.attached(to: F.notification("uuid-2")))
            #expect(try await store.webhookDeliveries(failedOnly: false, limit: 10).isEmpty)
            let rows = try await CommandLineRegistry.everythingStored(database)
            #expect(!rows.contains("evt_"))
        }
    }

    /// A posted transaction new to the server is an event; one the server knew (from a
    /// notification) is not, nor the same one posted again.
    @Test(arguments: TestDatabase.backends)
    func postedTransactionsNewToTheServerOnly(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await F.with(database) { store in
            try await store.addWebhookEndpoint(Self.endpoint("all"))
            try await store.save(F.notification("uuid-3", type: "SUBSCRIBED", transaction: F.transaction("7001", original: "7001", signed: 5)))
            _ = try await Self.claimAll(store)
            let known = PostedTransaction(
                bundleID: F.bundleID, environment: F.production, transaction: F.transaction("7001", original: "7001", signed: 6))
            try await store.save(WebhookEvent.attached(to: known))
            #expect(try await Self.claimAll(store).isEmpty)
            let new = WebhookEvent.attached(
                to: PostedTransaction(
                    bundleID: F.bundleID, environment: F.production, transaction: F.transaction("7002", original: "7001", signed: 7)))
            try await store.save(new)
            try await store.save(new)
            let attempts = try await Self.claimAll(store)
            #expect(attempts.map(\.eventID) == [new.webhookEvent?.id])
            let body = try JSONAnswer.object(Data(try #require(attempts.first).body.utf8))
            #expect(body["type"] as? String == "POSTED_TRANSACTION" && body["transactionId"] as? String == "7002")
            #expect(body["signedPayload"] as? String == F.jws("7002", 7))
        }
    }

    /// An outcome is written for its own attempt only; a retry is claimed when due with the next
    /// attempt number; a failed delivery is listed and redelivered from its first attempt.
    @Test(arguments: TestDatabase.backends)
    func outcomesAreFencedByAttempt(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await F.with(database) { store in
            try await store.addWebhookEndpoint(Self.endpoint("all"))
            try await store.save(WebhookEvent.attached(to: F.notification("uuid-4")))
            let first = try #require(try await Self.claimAll(store).first)
            let now = EpochMilliseconds.now()
            let retry = WebhookOutcome(
                eventID: first.eventID, endpointID: "all", attempt: 1, state: .pending, status: 500, error: "HTTP 500", milliseconds: now + 1000)
            try await store.recordWebhookOutcomes([retry])
            #expect(try await Self.claimAll(store, now: now).isEmpty)   // not due yet
            let second = try #require(try await Self.claimAll(store, now: now + 1000).first)
            #expect(second.attempt == 2 && second.eventID == first.eventID)
            // The first attempt's late answer changes nothing.
            let late = WebhookOutcome(
                eventID: first.eventID, endpointID: "all", attempt: 1, state: .delivered, status: 200, error: nil, milliseconds: now)
            try await store.recordWebhookOutcomes([late])
            #expect(try await store.webhookDeliveries(failedOnly: false, limit: 1).first?.state == "pending")
            try await store.recordWebhookOutcomes([
                WebhookOutcome(
                    eventID: first.eventID, endpointID: "all", attempt: 2, state: .failed, status: nil, error: "refused", milliseconds: now)
            ])
            let failed = try await store.webhookDeliveries(failedOnly: true, limit: 10)
            #expect(failed.map(\.eventID) == [first.eventID] && failed.first?.attempts == 2 && failed.first?.lastError == "refused")
            #expect(try await store.redeliverWebhookEvent(id: "evt_unknown", now: now) == 0)
            #expect(try await store.redeliverWebhookEvent(id: first.eventID, now: now) == 1)
            #expect(try await store.webhookDeliveries(failedOnly: true, limit: 10).isEmpty)
            let again = try #require(try await Self.claimAll(store, now: now).first)
            #expect(again.attempt == 1 && again.eventID == first.eventID)
            #expect(try await store.webhookQueue().map(\.endpointID) == ["all"])
            #expect(try await store.removeWebhookEndpoint(id: "all"))
            #expect(try await store.removeWebhookEndpoint(id: "all") == false)
            #expect(try await store.webhookQueue().isEmpty)
        }
    }

    /// Concurrent claims (PostgreSQL: `FOR UPDATE SKIP LOCKED`) take disjoint deliveries that
    /// together are all of them.
    @Test(arguments: TestDatabase.backends)
    func concurrentClaimsAreDisjoint(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await F.with(database) { store in
            try await store.addWebhookEndpoint(Self.endpoint("all"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0 ..< 200 { group.addTask { try await store.save(WebhookEvent.attached(to: F.notification("uuid-c-\(index)"))) } }
                try await group.waitForAll()
            }
            let claims = try await withThrowingTaskGroup(of: [WebhookAttempt].self) { group in
                for _ in 0 ..< 8 {
                    group.addTask {
                        try await store.claimWebhookAttempts(limit: 40, excluding: [], now: EpochMilliseconds.now(), leaseMilliseconds: 60_000)
                    }
                }
                return try await group.reduce(into: [WebhookAttempt]()) { $0 += $1 }
            }
            #expect(claims.count == 200)
            #expect(Set(claims.map(\.eventID)).count == 200)
            // An excluded endpoint's deliveries are not claimed.
            try await store.save(WebhookEvent.attached(to: F.notification("uuid-c-late")))
            #expect(try await store.claimWebhookAttempts(limit: 10, excluding: ["all"], now: EpochMilliseconds.now(), leaseMilliseconds: 1).isEmpty)
        }
    }
}
