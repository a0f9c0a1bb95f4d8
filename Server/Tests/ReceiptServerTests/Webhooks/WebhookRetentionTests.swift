import Foundation
import GRDB
import PostgresNIO
import Logging
import Metrics
@testable import ReceiptService
import ReceiptStore
import Synchronization
import Testing

@testable import receipt_server

/// Delivered deliveries are pruned after the retention, oldest first and a limited number at a
/// time; pending and failed ones stay whatever their age; an event goes with its last delivery
/// (both backends). `--webhook-retention`: 7 days by default, `0` for ever, a bad value stops
/// start-up naming the option.
@Suite struct WebhookRetentionTests {
    typealias F = SignedDataFixtures
    typealias O = WebhookOutboxTests

    /// Outcome `state` for the claimed delivery of `event` to `endpoint`, at `milliseconds`.
    static func outcome(_ a: WebhookAttempt, _ state: WebhookOutcome.State, at milliseconds: Int64) -> WebhookOutcome {
        WebhookOutcome(
            eventID: a.eventID, endpointID: a.endpointID, attempt: a.attempt, state: state, status: state == .delivered ? 204 : nil,
            error: state == .delivered ? nil : "refused", milliseconds: milliseconds)
    }

    @Test(arguments: TestDatabase.backends)
    func deliveredOnesArePrunedOldestFirst(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await F.with(database) { store in
            for id in ["a", "b"] { try await store.addWebhookEndpoint(O.endpoint(id)) }
            for uuid in ["old-1", "old-2", "old-3", "split", "recent", "failed"] {
                try await store.save(WebhookEvent.attached(to: F.notification("uuid-\(uuid)")))
            }
            let attempts = try await O.claimAll(store)
            #expect(attempts.count == 12)
            let events = try await store.webhookDeliveries(failedOnly: false, limit: 100)
            func eventID(_ uuid: String) throws -> String {
                try #require(WebhookEvent.attached(to: F.notification("uuid-\(uuid)")).webhookEvent?.id)
            }
            #expect(events.count == 12)
            let day: Int64 = 86_400_000
            let now = EpochMilliseconds.now()
            var outcomes: [WebhookOutcome] = []
            for a in attempts {
                switch a.eventID {
                case try eventID("old-1"): outcomes.append(Self.outcome(a, .delivered, at: now - 30 * day))
                case try eventID("old-2"): outcomes.append(Self.outcome(a, .delivered, at: now - 20 * day))
                case try eventID("old-3"): outcomes.append(Self.outcome(a, .delivered, at: now - 10 * day))
                case try eventID("split"):   // delivered long ago to a, still pending for b
                    if a.endpointID == "a" { outcomes.append(Self.outcome(a, .delivered, at: now - 30 * day)) }
                case try eventID("recent"): outcomes.append(Self.outcome(a, .delivered, at: now - day))
                default: outcomes.append(Self.outcome(a, .failed, at: now - 30 * day))
                }
            }
            try await store.recordWebhookOutcomes(outcomes)

            // Oldest first, at most `limit`: the 30-day-old ones (old-1 and split's a) go first.
            #expect(try await store.pruneDeliveredWebhooks(deliveredBefore: now - 7 * day, limit: 3) == 3)
            #expect(try await store.pruneDeliveredWebhooks(deliveredBefore: now - 7 * day, limit: 1000) == 4)
            #expect(try await store.pruneDeliveredWebhooks(deliveredBefore: now - 7 * day, limit: 1000) == 0)
            let left = try await store.webhookDeliveries(failedOnly: false, limit: 100)
            let byEvent = Dictionary(grouping: left, by: \.eventID).mapValues { $0.map(\.endpointID).sorted() }
            #expect(byEvent[try eventID("recent")] == ["a", "b"])
            #expect(byEvent[try eventID("failed")] == ["a", "b"])
            #expect(byEvent[try eventID("split")] == ["b"])
            for uuid in ["old-1", "old-2", "old-3"] { #expect(byEvent[try eventID(uuid)] == nil) }
            // The pruned events are gone (redelivering finds none); the split one stays.
            #expect(try await store.redeliverWebhookEvent(id: try eventID("old-1"), now: now) == 0)
            #expect(try await store.redeliverWebhookEvent(id: try eventID("split"), now: now) == 1)
            let stored = try await Self.eventIDs(database)
            #expect(stored == Set(try ["split", "recent", "failed"].map(eventID)))
        }
    }

    /// The ids in `webhook_events`.
    static func eventIDs(_ database: TestDatabase) async throws -> Set<String> {
        let sql = "SELECT id FROM webhook_events"
        return Set(try await Inspect.rows(database, sql, sqlite: { $0[0] as String }, postgres: { try $0.decode(String.self) }))
    }

    /// The deliverer prunes what it delivered once the retention has passed (here 1 ms, checked
    /// every 20 ms): the delivery and its event are gone.
    @Test(arguments: TestDatabase.backends)
    func theDelivererPrunesWhatItDelivered(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await F.with(database) { store in
            var endpoint = O.endpoint("a")
            endpoint.sealedSecret = try WebhookSecret.generate().sealed(under: TestSecrets.key, endpointID: "a")
            try await store.addWebhookEndpoint(endpoint)
            try await store.save(WebhookEvent.attached(to: F.notification("uuid-pruned")))
            #expect(try await Self.eventIDs(database).count == 1)
            let deliverer = WebhookDeliverer(
                store: store, secrets: TestSecrets.key, transport: Accepting(),
                configuration: .init(
                    poll: .milliseconds(20), queueInterval: .milliseconds(20), retention: .milliseconds(1), pruneInterval: .milliseconds(20)),
                metrics: WebhookMetrics(factory: NOOPMetricsHandler.instance), logger: Logger(label: "webhook-retention-test"))
            let running = Task { try await deliverer.run() }
            defer { running.cancel() }
            let deadline = Date().addingTimeInterval(20)
            while try await !Self.eventIDs(database).isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(try await Self.eventIDs(database).isEmpty)
            #expect(try await store.webhookDeliveries(failedOnly: false, limit: 10).isEmpty)
        }
    }

    /// A receiver that answers 204 to everything.
    struct Accepting: WebhookTransport {
        func post(url: String, headers: [(name: String, value: String)], body: String, timeout: Duration) async throws -> Int { 204 }
    }

    @Test func retentionOption() throws {
        #expect(try StartupOptions.webhookRetention(ServerConfiguration()) == .seconds(7 * 86_400))
        var configuration = ServerConfiguration()
        configuration.webhookRetention = "0"
        #expect(try StartupOptions.webhookRetention(configuration) == nil)
        configuration.webhookRetention = "12h"
        #expect(try StartupOptions.webhookRetention(configuration) == .seconds(12 * 3600))
        for bad in ["", "soon", "-1d", "7 days"] {
            configuration.webhookRetention = bad
            #expect(throws: ConfigurationError.invalidValue("webhook-retention", bad)) { try StartupOptions.webhookRetention(configuration) }
        }
    }
}
