import Foundation
import ReceiptStore
import Testing

/// Schema version 6 on a database a version-5 server made: old rows stay readable by the
/// verifyReceipt side and the notification history, and (holding no JWS) are invisible to the
/// App Store Server API's customer reads until a signed copy replaces them.
@Suite struct SignedDataMigrationTests {
    typealias F = SignedDataFixtures

    static func makeVersion5(_ database: TestDatabase) async throws {
        try await OlderSchema.make(
            database, version: 5,
            rows: [
                try OlderSchema.secretsCheck(database),
                """
                INSERT INTO notification_transactions (bundle_id, environment, transaction_id, original_transaction_id, product_id, \
                purchase_date_ms, signed_date_ms, info, server_members) VALUES ('\(F.bundleID)', 'Production', '8500000001', \
                '8500000001', 'com.example.monthly', 1700000000000, 1000, '{"transaction_id":"8500000001"}', '')
                """,
                """
                INSERT INTO renewal_infos (bundle_id, environment, original_transaction_id, signed_date_ms, info) VALUES \
                ('\(F.bundleID)', 'Production', '8500000001', 1000, '{"original_transaction_id":"8500000001"}')
                """,
                """
                INSERT INTO notifications (notification_uuid, bundle_id, environment, notification_type, subtype, signed_date_ms, \
                signed_payload, received_ms) VALUES ('old', '\(F.bundleID)', 'Production', 'SUBSCRIBED', NULL, 1000, 'payload.old', 5000)
                """,
            ])
    }

    @Test(arguments: TestDatabase.backends)
    func upgradesAVersion5Database(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await Self.makeVersion5(database)
        let original = "8500000001"
        try await F.with(database) { store in
            let history = try await store.history(bundleID: F.bundleID, environment: F.production, originalTransactionIDs: [original])
            #expect(history.transactions.map(\.json) == [#"{"transaction_id":"8500000001"}"#])
            #expect(history.pendingRenewals.map(\.json) == [#"{"original_transaction_id":"8500000001"}"#])
            #expect(try await store.customer(bundleID: F.bundleID, environment: F.production, transactionID: original) == nil)
            let all = NotificationHistoryQuery(startMilliseconds: 0, endMilliseconds: .max, limit: 10)
            #expect(
                try await store.notificationHistory(bundleID: F.bundleID, environment: F.production, query: all)
                    == [StoredNotificationEntry(uuid: "old", signedPayload: "payload.old", receivedMilliseconds: 5_000)])
            var filtered = all
            filtered.originalTransactionIDs = [original]
            #expect(try await store.notificationHistory(bundleID: F.bundleID, environment: F.production, query: filtered).isEmpty)

            // A later signed copy replaces the old row and makes it visible; an earlier one would not.
            try await store.save(
                PostedTransaction(
                    bundleID: F.bundleID, environment: F.production, transaction: F.transaction(original, original: original, signed: 999)))
            #expect(try await store.customer(bundleID: F.bundleID, environment: F.production, transactionID: original) == nil)
            try await store.save(
                F.notification(
                    "new", transaction: F.transaction(original, original: original, signed: 2_000), renewal: F.renewal(original, signed: 2_000)))
            let records = try #require(try await store.customer(bundleID: F.bundleID, environment: F.production, transactionID: original))
            #expect(records.transactions.map(\.facts.jws) == [F.jws(original, 2_000)])
            #expect(records.renewals.map(\.signedMilliseconds) == [2_000])
            #expect(try await store.notificationHistory(bundleID: F.bundleID, environment: F.production, query: filtered).map(\.uuid) == ["new"])
        }
    }
}
