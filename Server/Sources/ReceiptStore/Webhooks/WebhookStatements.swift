/// The outbox's SQL for both backends (`?` placeholders, numbered for PostgreSQL by
/// `StoreStatements.numbered`), and which events of a batch go into it.
enum WebhookStatements {
    static let endpointColumns = "id, url, bundle_id, environment, events, sealed_secret, created_ms"
    static let insertEndpoint = "INSERT INTO webhook_endpoints (\(endpointColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)"
    static let selectEndpoints = "SELECT \(endpointColumns) FROM webhook_endpoints ORDER BY created_ms, id"
    static let deleteEndpoint = "DELETE FROM webhook_endpoints WHERE id = ?"
    static let deletePending = "DELETE FROM webhook_deliveries WHERE endpoint_id = ? AND state = 'pending'"

    /// The oldest deliveries delivered before a time, at most a number (index
    /// `webhook_deliveries_delivered`); their event ids.
    static let pruneDelivered = """
        DELETE FROM webhook_deliveries WHERE (event_id, endpoint_id) IN (
            SELECT event_id, endpoint_id FROM webhook_deliveries WHERE state = 'delivered' AND delivered_ms < ? ORDER BY delivered_ms LIMIT ?)
        RETURNING event_id
        """

    /// Of the events whose deliveries were pruned, those with none left (another endpoint's may
    /// still be pending, failed or not yet old enough).
    static func pruneEvents(_ ids: [String], _ d: SQLDialect) -> SQLStatement {
        var statement = SQLStatement(
            d, "DELETE FROM webhook_events WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id) AND ")
        statement.among("id", ids)
        return statement
    }

    /// An event already written (the same notification in one batch twice, or two instances
    /// storing it at once) is written once: its id is derived from its cause.
    static func insertEvents(rows: Int) -> String {
        """
        INSERT INTO webhook_events (id, bundle_id, environment, type, body, created_ms) VALUES \
        \(StoreStatements.placeholders(rows: rows, columns: 6)) ON CONFLICT (id) DO NOTHING
        """
    }

    static func insertDeliveries(rows: Int) -> String {
        """
        INSERT INTO webhook_deliveries (event_id, endpoint_id, state, attempts, next_attempt_ms, created_ms) VALUES \
        \(StoreStatements.placeholders(rows: rows, columns: 6)) ON CONFLICT (event_id, endpoint_id) DO NOTHING
        """
    }

    /// Due and unleased deliveries with what an attempt needs, oldest due first; `now` twice,
    /// then the `excluded` endpoints, then the limit. PostgreSQL locks the rows it returns and skips
    /// those another transaction holds.
    static func due(excluded: Int, _ d: SQLDialect) -> String {
        let exclusion = excluded == 0 ? "" : " AND d.endpoint_id NOT IN \(StoreStatements.placeholders(rows: 1, columns: excluded))"
        return """
            SELECT d.event_id, d.endpoint_id, d.attempts, w.url, w.sealed_secret, e.body, e.created_ms
            FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id
            WHERE d.state = 'pending' AND d.next_attempt_ms <= ? AND (d.leased_until_ms IS NULL OR d.leased_until_ms <= ?)\(exclusion)
            ORDER BY d.next_attempt_ms LIMIT ?\(d == .postgres ? " FOR UPDATE OF d SKIP LOCKED" : "")
            """
    }

    /// The claim of one due delivery: its attempt counted, leased until the given time.
    static let claim = """
        UPDATE webhook_deliveries SET attempts = attempts + 1, leased_until_ms = ? WHERE event_id = ? AND endpoint_id = ?
        """

    /// Every lease let go (SQLite at start: the one process that held them is gone).
    static let releaseLeases = "UPDATE webhook_deliveries SET leased_until_ms = NULL WHERE state = 'pending' AND leased_until_ms IS NOT NULL"

    /// An attempt's outcome, written only while the delivery is still at that attempt.
    static let outcome = """
        UPDATE webhook_deliveries SET state = ?, last_status = ?, last_error = ?, next_attempt_ms = ?, delivered_ms = ?, leased_until_ms = NULL
        WHERE event_id = ? AND endpoint_id = ? AND attempts = ? AND state = 'pending'
        """

    static func deliveries(failedOnly: Bool) -> String {
        """
        SELECT d.event_id, d.endpoint_id, e.type, d.state, d.attempts, d.last_status, d.last_error, d.next_attempt_ms, \
        d.delivered_ms, d.created_ms
        FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id\(failedOnly ? " WHERE d.state = 'failed'" : "")
        ORDER BY d.created_ms DESC, d.event_id, d.endpoint_id LIMIT ?
        """
    }

    /// Every delivery of the event to an endpoint still registered, back to its first attempt.
    static let redeliver = """
        UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_ms = ?, last_error = NULL, delivered_ms = NULL,
            leased_until_ms = NULL
        WHERE event_id = ? AND endpoint_id IN (SELECT id FROM webhook_endpoints)
        """

    static let queue = """
        SELECT endpoint_id, COUNT(*), MIN(created_ms) FROM webhook_deliveries WHERE state = 'pending' GROUP BY endpoint_id ORDER BY endpoint_id
        """

    /// Notifications of these UUIDs already stored.
    static func storedNotifications(_ count: Int) -> String {
        "SELECT notification_uuid FROM notifications WHERE notification_uuid IN \(StoreStatements.placeholders(rows: 1, columns: count))"
    }

    /// Whether the server already knows a transaction (from a notification, a posted or imported
    /// transaction, or a receipt).
    static let knownTransaction = """
        SELECT 1 FROM notification_transactions WHERE bundle_id = ? AND environment = ? AND transaction_id = ? UNION ALL \
        SELECT 1 FROM transactions WHERE bundle_id = ? AND environment = ? AND transaction_id = ? LIMIT 1
        """

    /// `events` as stored: `,A,B,` (nil for every type).
    static func eventsColumn(_ events: [String]?) -> String? {
        events.map { "," + $0.joined(separator: ",") + "," }
    }

    /// The stored `events` column as a list.
    static func events(_ column: String?) -> [String]? {
        column.map { $0.split(separator: ",").map(String.init) }
    }

    /// An event of the batch with its app and environment.
    struct Candidate {
        let event: WebhookEventRecord
        let bundleID: String
        let environment: String
        /// The notification's UUID, or the posted transaction's id.
        let cause: Cause

        enum Cause {
            case notification(uuid: String)
            case posted(transactionID: String)
        }
    }

    /// The batch's writes that carry an event, when any endpoint may receive it.
    static func candidates(_ batch: [SignedDataWrite], endpoints: [WebhookEndpointRecord]) -> [Candidate] {
        batch.compactMap { write -> Candidate? in
            let candidate: Candidate
            switch write {
            case .notification(let n):
                guard let event = n.webhookEvent else { return nil }
                candidate = Candidate(event: event, bundleID: n.bundleID, environment: n.environment, cause: .notification(uuid: n.uuid))
            case .posted(let p):
                guard let event = p.webhookEvent else { return nil }
                candidate = Candidate(
                    event: event, bundleID: p.bundleID, environment: p.environment, cause: .posted(transactionID: p.transaction.transactionID))
            case .appTransaction:
                return nil
            }
            let receiving = endpoints.contains {
                $0.receives(bundleID: candidate.bundleID, environment: candidate.environment, type: candidate.event.type)
            }
            return receiving ? candidate : nil
        }
    }

    /// The rows to write for the new candidates: each event once, one pending delivery per
    /// endpoint receiving it, due at once.
    static func rows(
        _ new: [Candidate], endpoints: [WebhookEndpointRecord], now: Int64
    ) -> (events: [[SQLValue]], deliveries: [[SQLValue]]) {
        var seen = Set<String>()
        var events: [[SQLValue]] = []
        var deliveries: [[SQLValue]] = []
        for candidate in new where seen.insert(candidate.event.id).inserted {
            let e = candidate.event
            events.append([.text(e.id), .text(candidate.bundleID), .text(candidate.environment), .text(e.type), .text(e.body), .integer(now)])
            for endpoint in endpoints where endpoint.receives(bundleID: candidate.bundleID, environment: candidate.environment, type: e.type) {
                deliveries.append([.text(e.id), .text(endpoint.id), .text("pending"), .integer(0), .integer(now), .integer(now)])
            }
        }
        return (events, deliveries)
    }

    /// An outcome's values for `outcome`.
    static func outcomeValues(_ o: WebhookOutcome) -> [SQLValue] {
        [
            .text(o.state.rawValue), .integer(o.status.map(Int64.init)), .text(o.error),
            .integer(o.state == .pending ? o.milliseconds : 0), .integer(o.state == .delivered ? o.milliseconds : nil),
            .text(o.eventID), .text(o.endpointID), .integer(Int64(o.attempt)),
        ]
    }
}
