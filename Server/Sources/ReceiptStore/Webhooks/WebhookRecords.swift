/// An outgoing event as storage keeps it: built above storage (ReceiptService's
/// `WebhookEvent`) from the notification or posted transaction that causes it, and written in the
/// transaction that stores its cause.
public struct WebhookEventRecord: Sendable, Hashable {
    /// The event's id: the `webhook-id` of every delivery and redelivery.
    public var id: String
    /// Apple's `notificationType`, or `POSTED_TRANSACTION`: what endpoints filter by.
    public var type: String
    /// The JSON body, exactly as it is signed and sent.
    public var body: String

    /// An event of the given id, type and body.
    public init(id: String, type: String, body: String) {
        self.id = id
        self.type = type
        self.body = body
    }
}

/// A webhook endpoint: where one app's events go.
public struct WebhookEndpointRecord: Sendable, Hashable {
    /// The endpoint's id (`webhook list`, `webhook remove`).
    public var id: String
    /// An `http` or `https` URL without credentials.
    public var url: String
    /// The app whose events it receives.
    public var bundleID: String
    /// `Production` or `Sandbox`; nil for both.
    public var environment: String?
    /// The event types it receives; nil for every type.
    public var events: [String]?
    /// The signing secret's bytes sealed under the operator's secrets key.
    public var sealedSecret: [UInt8]
    /// When it was added, milliseconds since 1970.
    public var createdMilliseconds: Int64

    /// An endpoint of the given values.
    public init(
        id: String, url: String, bundleID: String, environment: String?, events: [String]?, sealedSecret: [UInt8],
        createdMilliseconds: Int64
    ) {
        self.id = id
        self.url = url
        self.bundleID = bundleID
        self.environment = environment
        self.events = events
        self.sealedSecret = sealedSecret
        self.createdMilliseconds = createdMilliseconds
    }

    /// Whether an event of `type` for the app in `environment` goes to this endpoint.
    public func receives(bundleID: String, environment: String, type: String) -> Bool {
        bundleID == self.bundleID && (self.environment == nil || self.environment == environment)
            && (events == nil || events!.contains(type))
    }
}

/// One attempt to deliver an event to an endpoint, claimed by one process for its lease.
public struct WebhookAttempt: Sendable, Hashable {
    /// The event's id (`webhook-id`).
    public var eventID: String
    /// The endpoint's id.
    public var endpointID: String
    /// 1 for the first attempt (counted from the last `redeliver`).
    public var attempt: Int
    /// The endpoint's URL, as stored now.
    public var url: String
    /// The endpoint's secret sealed under the operator's secrets key, as stored now.
    public var sealedSecret: [UInt8]
    /// The event's body, as stored.
    public var body: String
    /// When the event was written, milliseconds since 1970 (its acknowledgement).
    public var eventMilliseconds: Int64

    /// An attempt of the given values.
    public init(
        eventID: String, endpointID: String, attempt: Int, url: String, sealedSecret: [UInt8], body: String, eventMilliseconds: Int64
    ) {
        self.eventID = eventID
        self.endpointID = endpointID
        self.attempt = attempt
        self.url = url
        self.sealedSecret = sealedSecret
        self.body = body
        self.eventMilliseconds = eventMilliseconds
    }
}

/// What became of an attempt.
public struct WebhookOutcome: Sendable, Hashable {
    /// The delivery's state after the attempt.
    public enum State: String, Sendable {
        /// A 2xx answer.
        case delivered
        /// Another attempt is due at `nextMilliseconds`.
        case pending
        /// The schedule's last attempt failed.
        case failed
    }

    /// The event's id.
    public var eventID: String
    /// The endpoint's id.
    public var endpointID: String
    /// The attempt this outcome belongs to (an outcome of an older attempt changes nothing).
    public var attempt: Int
    /// The delivery's state after the attempt.
    public var state: State
    /// The HTTP status answered, if any.
    public var status: Int?
    /// Why it failed, in a few words (never a secret nor a payload); nil when delivered.
    public var error: String?
    /// When delivered, or when the next attempt is due (milliseconds since 1970).
    public var milliseconds: Int64

    /// An outcome of the given values.
    public init(
        eventID: String, endpointID: String, attempt: Int, state: State, status: Int?, error: String?, milliseconds: Int64
    ) {
        self.eventID = eventID
        self.endpointID = endpointID
        self.attempt = attempt
        self.state = state
        self.status = status
        self.error = error
        self.milliseconds = milliseconds
    }
}

/// One (event, endpoint) delivery as `webhook deliveries` lists it.
public struct WebhookDeliveryRecord: Sendable, Hashable {
    /// The event's id.
    public var eventID: String
    /// The endpoint's id.
    public var endpointID: String
    /// The event's type.
    public var type: String
    /// `pending`, `delivered` or `failed`.
    public var state: String
    /// Attempts made since the event was written or last redelivered.
    public var attempts: Int
    /// The last attempt's HTTP status, if it had an answer.
    public var lastStatus: Int?
    /// Why the last attempt failed, in a few words.
    public var lastError: String?
    /// When the next attempt is due (pending deliveries), milliseconds since 1970.
    public var nextAttemptMilliseconds: Int64
    /// When a 2xx answered it, milliseconds since 1970.
    public var deliveredMilliseconds: Int64?
    /// When the event was written, milliseconds since 1970.
    public var createdMilliseconds: Int64

    /// A delivery as read.
    public init(
        eventID: String, endpointID: String, type: String, state: String, attempts: Int, lastStatus: Int?, lastError: String?,
        nextAttemptMilliseconds: Int64, deliveredMilliseconds: Int64?, createdMilliseconds: Int64
    ) {
        self.eventID = eventID
        self.endpointID = endpointID
        self.type = type
        self.state = state
        self.attempts = attempts
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.nextAttemptMilliseconds = nextAttemptMilliseconds
        self.deliveredMilliseconds = deliveredMilliseconds
        self.createdMilliseconds = createdMilliseconds
    }
}

/// An endpoint's pending deliveries: how many, and since when the oldest waits.
public struct WebhookQueueDepth: Sendable, Hashable {
    /// The endpoint's id.
    public var endpointID: String
    /// Its pending deliveries.
    public var pending: Int
    /// The oldest pending event's creation, milliseconds since 1970.
    public var oldestMilliseconds: Int64

    /// A queue depth as read.
    public init(endpointID: String, pending: Int, oldestMilliseconds: Int64) {
        self.endpointID = endpointID
        self.pending = pending
        self.oldestMilliseconds = oldestMilliseconds
    }
}

/// The outbox and its endpoints, on both backends.
public protocol WebhookStore: Sendable {
    /// Adds an endpoint.
    func addWebhookEndpoint(_ endpoint: WebhookEndpointRecord) async throws
    /// Every endpoint, oldest first.
    func webhookEndpoints() async throws -> [WebhookEndpointRecord]
    /// Removes an endpoint and its pending deliveries; false when no endpoint has that id.
    func removeWebhookEndpoint(id: String) async throws -> Bool
    /// Claims up to `limit` due deliveries (none of the endpoints in `excluding`), oldest due
    /// first: each one's attempt is counted and its next attempt moved `leaseMilliseconds` past
    /// `now`, so that no other process claims it meanwhile (PostgreSQL: `FOR UPDATE SKIP LOCKED`).
    func claimWebhookAttempts(limit: Int, excluding: [String], now: Int64, leaseMilliseconds: Int64) async throws -> [WebhookAttempt]
    /// Lets go the leases a previous run of this process held, where storage can tell (SQLite:
    /// one process per file); PostgreSQL's leases end with their time.
    func releaseWebhookLeases() async throws
    /// Records outcomes; one whose attempt is no longer the delivery's changes nothing.
    func recordWebhookOutcomes(_ outcomes: [WebhookOutcome]) async throws
    /// Deliveries, newest first (only failed ones with `failedOnly`), at most `limit`.
    func webhookDeliveries(failedOnly: Bool, limit: Int) async throws -> [WebhookDeliveryRecord]
    /// Makes every delivery of the event pending again from its first attempt, due at `now`;
    /// returns how many (0: no such event, or no endpoint left for it).
    func redeliverWebhookEvent(id: String, now: Int64) async throws -> Int
    /// Pending deliveries per endpoint.
    func webhookQueue() async throws -> [WebhookQueueDepth]
    /// Deletes up to `limit` deliveries delivered before `deliveredBefore`, oldest first, and the
    /// events left with no delivery; returns how many deliveries. Pending and failed ones stay.
    func pruneDeliveredWebhooks(deliveredBefore: Int64, limit: Int) async throws -> Int
}
