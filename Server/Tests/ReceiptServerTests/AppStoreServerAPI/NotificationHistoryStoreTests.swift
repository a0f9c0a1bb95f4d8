import Foundation
import ReceiptStore
import Testing

/// `notificationHistory` on both backends: received in [start, end), type and subtype, original
/// transaction ids, after the cursor, ordered by (received time, notificationUUID in byte order),
/// at most `limit`.
@Suite struct NotificationHistoryStoreTests {
    typealias F = SignedDataFixtures

    /// Rows with chosen received times (the writer stamps its own clock), written beside the store.
    static func rows() -> [String] {
        let rows: [(uuid: String, received: Int64, type: String, subtype: String?, original: String?, environment: String, bundle: String)] = [
            ("a-1", 1_000, "DID_RENEW", nil, "O2", "Production", F.bundleID),
            ("B-1", 1_000, "DID_RENEW", nil, "O1", "Production", F.bundleID),
            ("c", 2_000, "SUBSCRIBED", "INITIAL_BUY", "O1", "Production", F.bundleID),
            ("d", 2_000, "SUBSCRIBED", "RESUBSCRIBE", "O2", "Production", F.bundleID),
            ("e", 3_000, "TEST", nil, nil, "Production", F.bundleID),
            ("f", 999, "DID_RENEW", nil, "O1", "Production", F.bundleID),
            ("g", 1_000, "DID_RENEW", nil, "O1", "Sandbox", F.bundleID),
            ("h", 1_000, "DID_RENEW", nil, "O1", "Production", "com.example.other"),
        ]
        return rows.map { row in
            """
            INSERT INTO notifications (notification_uuid, bundle_id, environment, notification_type, subtype, signed_date_ms, \
            signed_payload, received_ms, original_transaction_id) VALUES ('\(row.uuid)', '\(row.bundle)', '\(row.environment)', \
            '\(row.type)', \(row.subtype.map { "'\($0)'" } ?? "NULL"), 1, 'payload.\(row.uuid)', \(row.received), \
            \(row.original.map { "'\($0)'" } ?? "NULL"))
            """
        }
    }

    static func uuids(
        _ store: any ReceiptStorage, _ start: Int64, _ end: Int64, type: String? = nil, subtype: String? = nil, originals: [String]? = nil,
        after cursor: NotificationCursor? = nil, limit: Int = 100
    ) async throws -> [String] {
        let query = NotificationHistoryQuery(
            startMilliseconds: start, endMilliseconds: end, type: type, subtype: subtype, originalTransactionIDs: originals, cursor: cursor,
            limit: limit)
        return try await store.notificationHistory(bundleID: F.bundleID, environment: F.production, query: query).map(\.uuid)
    }

    @Test(arguments: TestDatabase.backends)
    func filtersCursorLimitAndOrder(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await F.with(database) { _ in }   // the schema
        try await F.execute(database, Self.rows())
        try await F.with(database) { store in
            #expect(try await Self.uuids(store, 1_000, 3_000) == ["B-1", "a-1", "c", "d"])
            #expect(try await Self.uuids(store, 1_000, 3_001) == ["B-1", "a-1", "c", "d", "e"])
            #expect(try await Self.uuids(store, 0, 1_000) == ["f"])
            #expect(try await Self.uuids(store, 3_000, 3_000).isEmpty)
            #expect(try await Self.uuids(store, 0, .max, type: "SUBSCRIBED") == ["c", "d"])
            #expect(try await Self.uuids(store, 0, .max, type: "SUBSCRIBED", subtype: "RESUBSCRIBE") == ["d"])
            #expect(try await Self.uuids(store, 0, .max, originals: ["O1"]) == ["f", "B-1", "c"])
            #expect(try await Self.uuids(store, 0, .max, originals: ["O1", "O2"]) == ["f", "B-1", "a-1", "c", "d"])
            #expect(try await Self.uuids(store, 0, .max, originals: []).isEmpty)
            #expect(try await Self.uuids(store, 0, .max, type: "DID_RENEW", originals: ["O2"]) == ["a-1"])
            #expect(
                try await Self.uuids(store, 1_000, .max, after: NotificationCursor(receivedMilliseconds: 1_000, uuid: "B-1")) == [
                    "a-1", "c", "d", "e",
                ])
            #expect(try await Self.uuids(store, 1_000, .max, after: NotificationCursor(receivedMilliseconds: 1_000, uuid: "a-1")) == ["c", "d", "e"])
            #expect(try await Self.uuids(store, 0, .max, limit: 2) == ["f", "B-1"])
            #expect(try await Self.uuids(store, 0, .max, limit: 0).isEmpty)
            // Pages of one, each after the last: the whole list once.
            var paged: [String] = []
            var cursor: NotificationCursor?
            while let entry = try await store.notificationHistory(
                bundleID: F.bundleID, environment: F.production,
                query: NotificationHistoryQuery(startMilliseconds: 0, endMilliseconds: .max, cursor: cursor, limit: 1)
            ).first {
                paged.append(entry.uuid)
                #expect(entry.signedPayload == "payload.\(entry.uuid)")
                cursor = NotificationCursor(receivedMilliseconds: entry.receivedMilliseconds, uuid: entry.uuid)
            }
            #expect(paged == ["f", "B-1", "a-1", "c", "d", "e"])
            let sandbox = try await store.notificationHistory(
                bundleID: F.bundleID, environment: "Sandbox", query: NotificationHistoryQuery(startMilliseconds: 0, endMilliseconds: .max, limit: 10))
            #expect(sandbox == [StoredNotificationEntry(uuid: "g", signedPayload: "payload.g", receivedMilliseconds: 1_000)])
        }
    }

    /// The writer stores each notification's original transaction id: its transaction's, else its
    /// renewal info's; and its received time from the server's clock.
    @Test(arguments: TestDatabase.backends)
    func writerStoresOriginalTransactionID(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await F.with(database) { store in
            let before = Int64(Date().timeIntervalSince1970 * 1000)
            try await store.save(F.notification("w1", transaction: F.transaction("8400000002", original: "8400000001", signed: 1_000)))
            try await store.save(F.notification("w2", renewal: F.renewal("8400000011", signed: 1_000)))
            try await store.save(F.notification("w3", type: "TEST"))
            let after = Int64(Date().timeIntervalSince1970 * 1000)
            #expect(try await Self.uuids(store, 0, .max, originals: ["8400000001"]) == ["w1"])
            #expect(try await Self.uuids(store, 0, .max, originals: ["8400000002"]).isEmpty)
            #expect(try await Self.uuids(store, 0, .max, originals: ["8400000011"]) == ["w2"])
            let all = try await store.notificationHistory(
                bundleID: F.bundleID, environment: F.production,
                query: NotificationHistoryQuery(startMilliseconds: 0, endMilliseconds: .max, limit: 10))
            #expect(Set(all.map(\.uuid)) == ["w1", "w2", "w3"])
            #expect(all.allSatisfy { (before ... after).contains($0.receivedMilliseconds) })
        }
    }
}
