import Foundation
import ReceiptStore

/// `receipt-server webhook …`: endpoints as data, and the deliveries' list and redelivery.
public struct WebhookAdmin: Sendable {
    let store: any ReceiptStorage
    let secrets: SecretsKey

    /// The administration of `store`'s endpoints, their secrets sealed under `secrets`.
    public init(store: any ReceiptStorage, secrets: SecretsKey) {
        self.store = store
        self.secrets = secrets
    }

    /// Why a command is refused: one line, never a secret.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case url(WebhookURL.Refusal)
        case unregisteredApp(String)
        case environment(String)
        case eventType(String)
        case unknownEndpoint(String)
        case unknownEvent(String)

        public var description: String {
            switch self {
            case .url(let refusal): return refusal.description
            case .unregisteredApp(let bundleID): return "no app \(bundleID) is registered (receipt-server app add)"
            case .environment(let text): return "the environment is Production or Sandbox, not \(text)"
            case .eventType(let text): return "\"\(text)\" is not an event type (Apple's notificationType, or POSTED_TRANSACTION)"
            case .unknownEndpoint(let id): return "no webhook endpoint has the id \(id)"
            case .unknownEvent(let id): return "no delivery of an event \(id) to a registered endpoint"
            }
        }
    }

    /// Adds an endpoint; returns it and its secret (shown once).
    public func add(url: String, bundleID: String, environment: String?, events: [String]?) async throws -> (
        endpoint: WebhookEndpointRecord, secret: WebhookSecret
    ) {
        let checked: String
        do { checked = try WebhookURL.checked(url) } catch { throw Refusal.url(error) }
        if let environment, environment != "Production", environment != "Sandbox" { throw Refusal.environment(environment) }
        for type in events ?? [] where !Self.isEventType(type) { throw Refusal.eventType(type) }
        guard try await store.apps().contains(where: { $0.bundleID == bundleID }) else { throw Refusal.unregisteredApp(bundleID) }
        let id = "we_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let secret = WebhookSecret.generate()
        let endpoint = WebhookEndpointRecord(
            id: id, url: checked, bundleID: bundleID, environment: environment, events: events.map { Array(Set($0)).sorted() },
            sealedSecret: try secret.sealed(under: secrets, endpointID: id), createdMilliseconds: EpochMilliseconds.now())
        try await store.addWebhookEndpoint(endpoint)
        return (endpoint, secret)
    }

    /// `SUBSCRIBED`, `DID_CHANGE_RENEWAL_PREF`, …: upper-case letters and underscores, as
    /// Apple names notification types (new ones included).
    static func isEventType(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x5F }
    }

    /// Every endpoint (the sealed secret stays in storage: `json` leaves it out).
    public func list() async throws -> [WebhookEndpointRecord] {
        try await store.webhookEndpoints()
    }

    /// Removes an endpoint and its pending deliveries.
    public func remove(_ id: String) async throws {
        guard try await store.removeWebhookEndpoint(id: id) else { throw Refusal.unknownEndpoint(id) }
    }

    /// Deliveries, newest first.
    public func deliveries(failedOnly: Bool, limit: Int) async throws -> [WebhookDeliveryRecord] {
        try await store.webhookDeliveries(failedOnly: failedOnly, limit: limit)
    }

    /// Makes the event's deliveries pending again, due now, keeping its id; returns how many.
    public func redeliver(_ eventID: String) async throws -> Int {
        let count = try await store.redeliverWebhookEvent(id: eventID, now: EpochMilliseconds.now())
        guard count > 0 else { throw Refusal.unknownEvent(eventID) }
        return count
    }

    /// An endpoint as `webhook list` prints it: never its secret.
    public static func json(_ e: WebhookEndpointRecord) -> [String: Any] {
        var object: [String: Any] = [
            "id": e.id, "url": e.url, "bundleId": e.bundleID, "created": isoDate(e.createdMilliseconds),
        ]
        object["environment"] = e.environment ?? NSNull()
        object["events"] = e.events ?? NSNull()
        return object
    }

    /// A delivery as `webhook deliveries` prints it.
    public static func json(_ d: WebhookDeliveryRecord) -> [String: Any] {
        [
            "eventId": d.eventID, "endpointId": d.endpointID, "type": d.type, "state": d.state, "attempts": d.attempts,
            "lastStatus": d.lastStatus ?? NSNull(), "lastError": d.lastError ?? NSNull(),
            "nextAttempt": d.state == "pending" ? isoDate(d.nextAttemptMilliseconds) : NSNull(),
            "delivered": d.deliveredMilliseconds.map(isoDate) ?? NSNull(), "created": isoDate(d.createdMilliseconds),
        ]
    }

    static func isoDate(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000).formatted(.iso8601)
    }
}
