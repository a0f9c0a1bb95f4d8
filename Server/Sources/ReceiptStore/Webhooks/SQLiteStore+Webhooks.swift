import Foundation
import GRDB

/// The outbox in SQLite: events written by the notification writer's transaction; claims and
/// outcomes through the pool's one writer (one server process per file, so a claim needs no lock
/// beyond the write transaction).
extension SQLiteStore {
    /// The batch's events that go to an endpoint, in the batch's transaction, before its rows:
    /// a notification not stored yet, a posted transaction the server does not know yet.
    static func writeWebhookEvents(_ batch: [SignedDataWrite], _ db: Database) throws {
        let endpoints = try readEndpoints(db)
        let candidates = WebhookStatements.candidates(batch, endpoints: endpoints)
        guard !candidates.isEmpty else { return }
        var new: [WebhookStatements.Candidate] = []
        for candidate in candidates where try !isKnown(candidate, db) { new.append(candidate) }
        let rows = WebhookStatements.rows(new, endpoints: endpoints, now: EpochMilliseconds.now())
        let insertEvent = try db.cachedStatement(sql: WebhookStatements.insertEvents(rows: 1))
        for values in rows.events { try insertEvent.execute(arguments: StatementArguments(values.flatMap(databaseValues))) }
        let insertDelivery = try db.cachedStatement(sql: WebhookStatements.insertDeliveries(rows: 1))
        for values in rows.deliveries { try insertDelivery.execute(arguments: StatementArguments(values.flatMap(databaseValues))) }
    }

    private static func isKnown(_ candidate: WebhookStatements.Candidate, _ db: Database) throws -> Bool {
        switch candidate.cause {
        case .notification(let uuid):
            return try String.fetchOne(db.cachedStatement(sql: WebhookStatements.storedNotifications(1)), arguments: [uuid]) != nil
        case .posted(let id):
            let key = [candidate.bundleID, candidate.environment, id]
            return try Int.fetchOne(db.cachedStatement(sql: WebhookStatements.knownTransaction), arguments: StatementArguments(key + key)) != nil
        }
    }

    private static func readEndpoints(_ db: Database) throws -> [WebhookEndpointRecord] {
        try Row.fetchAll(db.cachedStatement(sql: WebhookStatements.selectEndpoints)).map { row in
            WebhookEndpointRecord(
                id: row[0], url: row[1], bundleID: row[2], environment: row[3], events: WebhookStatements.events(row[4]),
                sealedSecret: bytes(row[5]) ?? [], createdMilliseconds: row[6])
        }
    }

    public func addWebhookEndpoint(_ endpoint: WebhookEndpointRecord) async throws {
        try await write { db in
            try db.execute(
                sql: WebhookStatements.insertEndpoint,
                arguments: [
                    endpoint.id, endpoint.url, endpoint.bundleID, endpoint.environment, WebhookStatements.eventsColumn(endpoint.events),
                    Data(endpoint.sealedSecret), endpoint.createdMilliseconds,
                ])
        }
    }

    public func webhookEndpoints() async throws -> [WebhookEndpointRecord] {
        try await read { db in try Self.readEndpoints(db) }
    }

    public func removeWebhookEndpoint(id: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: WebhookStatements.deleteEndpoint, arguments: [id])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: WebhookStatements.deletePending, arguments: [id])
            return true
        }
    }

    /// Looked for in a read first: an idle outbox costs no write transaction (the writers'
    /// lock) per poll.
    public func claimWebhookAttempts(limit: Int, excluding: [String], now: Int64, leaseMilliseconds: Int64) async throws -> [WebhookAttempt] {
        var arguments: [(any DatabaseValueConvertible)?] = [now, now]
        arguments += excluding
        arguments.append(limit)
        let sql = WebhookStatements.due(excluded: excluding.count, .sqlite)
        let probe = StatementArguments(arguments)
        guard try await read({ db in try Row.fetchOne(db, sql: sql, arguments: probe) != nil }) else { return [] }
        return try await write { db in
            let due = try Row.fetchAll(
                db, sql: sql, arguments: probe
            ).map { row in
                WebhookAttempt(
                    eventID: row[0], endpointID: row[1], attempt: (row[2] as Int) + 1, url: row[3], sealedSecret: Self.bytes(row[4]) ?? [],
                    body: row[5], eventMilliseconds: row[6])
            }
            let claim = try db.cachedStatement(sql: WebhookStatements.claim)
            for attempt in due { try claim.execute(arguments: [now + leaseMilliseconds, attempt.eventID, attempt.endpointID]) }
            return due
        }
    }

    /// One server process per file (`DatabaseLock`): a lease held at start is a dead process's.
    public func releaseWebhookLeases() async throws {
        try await write { db in try db.execute(sql: WebhookStatements.releaseLeases) }
    }

    public func recordWebhookOutcomes(_ outcomes: [WebhookOutcome]) async throws {
        guard !outcomes.isEmpty else { return }
        try await write { db in
            let update = try db.cachedStatement(sql: WebhookStatements.outcome)
            for outcome in outcomes {
                try update.execute(arguments: StatementArguments(WebhookStatements.outcomeValues(outcome).flatMap(Self.databaseValues)))
            }
        }
    }

    public func webhookDeliveries(failedOnly: Bool, limit: Int) async throws -> [WebhookDeliveryRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: WebhookStatements.deliveries(failedOnly: failedOnly), arguments: [limit]).map { row in
                WebhookDeliveryRecord(
                    eventID: row[0], endpointID: row[1], type: row[2], state: row[3], attempts: row[4], lastStatus: row[5],
                    lastError: row[6], nextAttemptMilliseconds: row[7], deliveredMilliseconds: row[8], createdMilliseconds: row[9])
            }
        }
    }

    public func redeliverWebhookEvent(id: String, now: Int64) async throws -> Int {
        try await write { db in
            try db.execute(sql: WebhookStatements.redeliver, arguments: [now, id])
            return db.changesCount
        }
    }

    public func webhookQueue() async throws -> [WebhookQueueDepth] {
        try await read { db in
            try Row.fetchAll(db, sql: WebhookStatements.queue).map { row in
                WebhookQueueDepth(endpointID: row[0], pending: row[1], oldestMilliseconds: row[2])
            }
        }
    }

    public func pruneDeliveredWebhooks(deliveredBefore: Int64, limit: Int) async throws -> Int {
        try await write { db in
            let ids = try String.fetchAll(db, sql: WebhookStatements.pruneDelivered, arguments: [deliveredBefore, limit])
            guard !ids.isEmpty else { return 0 }
            for chunk in Array(Set(ids)).sorted().chunks(of: 500) {
                let statement = WebhookStatements.pruneEvents(Array(chunk), .sqlite)
                try db.execute(sql: statement.text, arguments: Self.arguments(statement))
            }
            return ids.count
        }
    }

    /// A write transaction of its own, any failure as `StoreError.database`.
    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.write(body)
        } catch {
            throw StoreError.database(String(describing: error))
        }
    }
}
