import Logging
import PostgresNIO

/// The outbox in PostgreSQL: events written by the notification writer's transaction; claims
/// lock due rows with `FOR UPDATE SKIP LOCKED`, so that instances sharing the database each
/// claim different deliveries and every attempt is made once.
extension PostgresStore {
    typealias EndpointColumns = (String, String, String, String?, String?, ByteBuffer, Int64)

    /// The batch's events that go to an endpoint, in the batch's transaction, before its rows:
    /// a notification not stored yet, a posted transaction the server does not know yet.
    static func writeWebhookEvents(_ batch: [SignedDataWrite], _ connection: PostgresConnection, logger: Logger) async throws {
        let endpoints = try await connection.query(PostgresQuery(unsafeSQL: WebhookStatements.selectEndpoints), logger: logger)
            .decode(EndpointColumns.self).all().map(endpoint)
        let candidates = WebhookStatements.candidates(batch, endpoints: endpoints)
        guard !candidates.isEmpty else { return }
        let uuids: [String] = candidates.compactMap {
            if case .notification(let uuid) = $0.cause { uuid } else { nil }
        }
        var stored = Set<String>()
        if !uuids.isEmpty {
            let rows = try await connection.query(
                "SELECT notification_uuid FROM notifications WHERE notification_uuid = ANY(\(uuids))", logger: logger)
            for try await uuid in rows.decode(String.self) { stored.insert(uuid) }
        }
        var new: [WebhookStatements.Candidate] = []
        for candidate in candidates {
            switch candidate.cause {
            case .notification(let uuid):
                if !stored.contains(uuid) { new.append(candidate) }
            case .posted(let id):
                var binds = PostgresBindings()
                for _ in 0 ..< 2 {
                    binds.append(candidate.bundleID)
                    binds.append(candidate.environment)
                    binds.append(id)
                }
                let known = try await connection.query(
                    PostgresQuery(unsafeSQL: StoreStatements.numbered(WebhookStatements.knownTransaction), binds: binds), logger: logger
                ).decode(Int32.self).all()
                if known.isEmpty { new.append(candidate) }
            }
        }
        let rows = WebhookStatements.rows(new, endpoints: endpoints, now: EpochMilliseconds.now())
        try await insertRows(rows.events, columns: 6, WebhookStatements.insertEvents, connection, logger)
        try await insertRows(rows.deliveries, columns: 6, WebhookStatements.insertDeliveries, connection, logger)
    }

    /// `sql(rowCount)` once per chunk of `rows`.
    private static func insertRows(
        _ rows: [[SQLValue]], columns: Int, _ sql: (Int) -> String, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        for chunk in rows.chunks(of: maxBinds / columns) {
            var binds = PostgresBindings(capacity: chunk.count * columns)
            for row in chunk { for value in row { bind(value, &binds) } }
            _ = try await connection.query(PostgresQuery(unsafeSQL: StoreStatements.numbered(sql(chunk.count)), binds: binds), logger: logger)
        }
    }

    static func endpoint(_ c: EndpointColumns) -> WebhookEndpointRecord {
        WebhookEndpointRecord(
            id: c.0, url: c.1, bundleID: c.2, environment: c.3, events: WebhookStatements.events(c.4),
            sealedSecret: Array(buffer: c.5), createdMilliseconds: c.6)
    }

    public func addWebhookEndpoint(_ endpoint: WebhookEndpointRecord) async throws {
        try await database { [client, logger] in
            var binds = PostgresBindings()
            binds.append(endpoint.id)
            binds.append(endpoint.url)
            binds.append(endpoint.bundleID)
            binds.append(endpoint.environment)
            binds.append(WebhookStatements.eventsColumn(endpoint.events))
            binds.append(ByteBuffer(bytes: endpoint.sealedSecret))
            binds.append(endpoint.createdMilliseconds)
            _ = try await client.query(
                PostgresQuery(unsafeSQL: StoreStatements.numbered(WebhookStatements.insertEndpoint), binds: binds), logger: logger)
        }
    }

    public func webhookEndpoints() async throws -> [WebhookEndpointRecord] {
        try await database { [client, logger] in
            try await client.query(PostgresQuery(unsafeSQL: WebhookStatements.selectEndpoints), logger: logger)
                .decode(EndpointColumns.self).all().map(Self.endpoint)
        }
    }

    public func removeWebhookEndpoint(id: String) async throws -> Bool {
        try await database { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in
                let removed = try await connection.query("DELETE FROM webhook_endpoints WHERE id = \(id) RETURNING id", logger: logger)
                    .decode(String.self).all()
                guard !removed.isEmpty else { return false }
                _ = try await connection.query("DELETE FROM webhook_deliveries WHERE endpoint_id = \(id) AND state = 'pending'", logger: logger)
                return true
            }
        }
    }

    public func claimWebhookAttempts(limit: Int, excluding: [String], now: Int64, leaseMilliseconds: Int64) async throws -> [WebhookAttempt] {
        try await database { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in
                var binds = PostgresBindings()
                binds.append(now)
                binds.append(now)
                for id in excluding { binds.append(id) }
                binds.append(Int64(limit))
                let due = try await connection.query(
                    PostgresQuery(unsafeSQL: StoreStatements.numbered(WebhookStatements.due(excluded: excluding.count, .postgres)), binds: binds),
                    logger: logger
                ).decode((String, String, Int64, String, ByteBuffer, String, Int64).self).all().map { row in
                    WebhookAttempt(
                        eventID: row.0, endpointID: row.1, attempt: Int(row.2) + 1, url: row.3, sealedSecret: Array(buffer: row.4),
                        body: row.5, eventMilliseconds: row.6)
                }
                guard !due.isEmpty else { return [] }
                let lease = now + leaseMilliseconds
                let events = due.map(\.eventID), endpoints = due.map(\.endpointID)
                _ = try await connection.query(
                    """
                    UPDATE webhook_deliveries d SET attempts = d.attempts + 1, leased_until_ms = \(lease)
                    FROM unnest(\(events)::text[], \(endpoints)::text[]) AS c(event_id, endpoint_id)
                    WHERE d.event_id = c.event_id AND d.endpoint_id = c.endpoint_id
                    """, logger: logger)
                return due
            }
        }
    }

    /// Nothing: other instances may hold leases; a dead one's end with their time.
    public func releaseWebhookLeases() async throws {}

    public func recordWebhookOutcomes(_ outcomes: [WebhookOutcome]) async throws {
        guard !outcomes.isEmpty else { return }
        try await database { [client, logger] in
            // One statement for the batch: the outcomes as parallel arrays (0 and "" for NULL).
            _ = try await client.query(
                """
                UPDATE webhook_deliveries d SET state = o.state, last_status = NULLIF(o.status, 0), last_error = NULLIF(o.error, ''),
                    next_attempt_ms = o.next_ms, delivered_ms = NULLIF(o.delivered_ms, 0), leased_until_ms = NULL
                FROM unnest(\(outcomes.map(\.eventID))::text[], \(outcomes.map(\.endpointID))::text[], \(outcomes.map { Int64($0.attempt) })::bigint[],
                    \(outcomes.map(\.state.rawValue))::text[], \(outcomes.map { Int64($0.status ?? 0) })::bigint[], \(outcomes.map { $0.error ?? "" })::text[],
                    \(outcomes.map { $0.state == .pending ? $0.milliseconds : 0 })::bigint[],
                    \(outcomes.map { $0.state == .delivered ? $0.milliseconds : 0 })::bigint[])
                    AS o(event_id, endpoint_id, attempt, state, status, error, next_ms, delivered_ms)
                WHERE d.event_id = o.event_id AND d.endpoint_id = o.endpoint_id AND d.attempts = o.attempt AND d.state = 'pending'
                """, logger: logger)
        }
    }

    public func webhookDeliveries(failedOnly: Bool, limit: Int) async throws -> [WebhookDeliveryRecord] {
        try await database { [client, logger] in
            var binds = PostgresBindings()
            binds.append(Int64(limit))
            return try await client.query(
                PostgresQuery(unsafeSQL: StoreStatements.numbered(WebhookStatements.deliveries(failedOnly: failedOnly)), binds: binds),
                logger: logger
            ).decode((String, String, String, String, Int64, Int64?, String?, Int64, Int64?, Int64).self).all().map { r in
                WebhookDeliveryRecord(
                    eventID: r.0, endpointID: r.1, type: r.2, state: r.3, attempts: Int(r.4), lastStatus: r.5.map(Int.init), lastError: r.6,
                    nextAttemptMilliseconds: r.7, deliveredMilliseconds: r.8, createdMilliseconds: r.9)
            }
        }
    }

    public func redeliverWebhookEvent(id: String, now: Int64) async throws -> Int {
        try await database { [client, logger] in
            var binds = PostgresBindings()
            binds.append(now)
            binds.append(id)
            return try await client.query(
                PostgresQuery(unsafeSQL: StoreStatements.numbered(WebhookStatements.redeliver + " RETURNING 1"), binds: binds), logger: logger
            ).decode(Int32.self).all().count
        }
    }

    public func webhookQueue() async throws -> [WebhookQueueDepth] {
        try await database { [client, logger] in
            try await client.query(PostgresQuery(unsafeSQL: WebhookStatements.queue), logger: logger).decode((String, Int64, Int64).self).all()
                .map { WebhookQueueDepth(endpointID: $0.0, pending: Int($0.1), oldestMilliseconds: $0.2) }
        }
    }

    public func pruneDeliveredWebhooks(deliveredBefore: Int64, limit: Int) async throws -> Int {
        try await database { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in
                var binds = PostgresBindings()
                binds.append(deliveredBefore)
                binds.append(Int64(limit))
                let ids = try await connection.query(
                    PostgresQuery(unsafeSQL: StoreStatements.numbered(WebhookStatements.pruneDelivered), binds: binds), logger: logger
                ).decode(String.self).all()
                guard !ids.isEmpty else { return 0 }
                _ = try await connection.query(Self.query(WebhookStatements.pruneEvents(Array(Set(ids)).sorted(), .postgres)), logger: logger)
                return ids.count
            }
        }
    }
}
