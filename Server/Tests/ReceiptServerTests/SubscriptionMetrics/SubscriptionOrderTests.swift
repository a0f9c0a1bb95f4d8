import GRDB
import PostgresNIO
@testable import ReceiptStore
import Synchronization
import Testing

/// Each auto-renewable transaction's neighbours in its subscription (schema version 13), kept by
/// the notification writer whatever order the transactions arrive in: `next_purchase_ms` is the
/// next transaction's purchase date in the status rule's order (purchase date, then the longer,
/// then the greater id), `previous_offer_discount_type` the previous one's discount.
@Suite struct SubscriptionOrderTests {
    static let original = "4100000001"

    /// (id, purchase, discount) of one subscription, in the status rule's order: "99" before
    /// "100" at one purchase date (shorter first), though "100" < "99" as text.
    static let subscription: [(id: String, purchase: Int64, discount: String?)] = [
        (original, 1_000, "FREE_TRIAL"), ("4100000002", 2_000, nil), ("4100000003", 3_000, "PAY_AS_YOU_GO"), ("99", 4_000, nil),
        ("100", 4_000, nil),
    ]

    static func posted(_ id: String, purchase: Int64, discount: String?, original: String, type: String) -> PostedTransaction {
        PostedTransaction(
            bundleID: Synthetic.bundleID, environment: "Production",
            transaction: NotificationTransaction(
                transactionID: id, originalTransactionID: original, productID: "com.example.receipts.monthly",
                purchaseMilliseconds: purchase, signedMilliseconds: purchase, json: #"{"transaction_id":"\#(id)"}"#, serverMembers: "",
                signed: SignedTransactionFacts(
                    jws: "order.\(id).test", type: type, subscriptionGroupIdentifier: "1", expiresMilliseconds: purchase + 1_000,
                    revocationMilliseconds: nil, inAppOwnershipType: "PURCHASED", appAccountToken: nil,
                    commerce: SignedCommerceFacts(price: 990, currency: "USD", transactionReason: "RENEWAL", offerDiscountType: discount))))
    }

    /// (transaction id, next purchase, previous discount) of every row.
    static func neighbours(_ database: TestDatabase) async throws -> [String: (Int64?, String?)] {
        let sql = "SELECT transaction_id, next_purchase_ms, previous_offer_discount_type FROM notification_transactions"
        let rows = try await Inspect.rows(
            database, sql, sqlite: { ($0[0] as String, ($0[1] as Int64?, $0[2] as String?)) },
            postgres: { row in
                let (id, next, previous) = try row.decode((String, Int64?, String?).self)
                return (id, (next, previous))
            })
        return Dictionary(uniqueKeysWithValues: rows)
    }

    @Test(arguments: TestDatabase.backends)
    func neighboursHoldWhateverTheArrivalOrder(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let s = Self.subscription
        try await SignedDataFixtures.with(database) { store in
            // The last first, then two at once (one batch when they meet in the writer), then the rest.
            for index in [4, 2] {
                try await store.save(
                    Self.posted(
                        s[index].id, purchase: s[index].purchase, discount: s[index].discount, original: Self.original,
                        type: SubscriptionMetricsStatements.autoRenewableType))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in [0, 3] {
                    group.addTask {
                        try await store.save(
                            Self.posted(
                                s[index].id, purchase: s[index].purchase, discount: s[index].discount, original: Self.original,
                                type: SubscriptionMetricsStatements.autoRenewableType))
                    }
                }
                try await group.waitForAll()
            }
            try await store.save(
                Self.posted(
                    s[1].id, purchase: s[1].purchase, discount: s[1].discount, original: Self.original,
                    type: SubscriptionMetricsStatements.autoRenewableType))
            // Another subscription's transaction and a non-consumable: no neighbours.
            try await store.save(
                Self.posted(
                    "4200000001", purchase: 2_500, discount: "FREE_TRIAL", original: "4200000001",
                    type: SubscriptionMetricsStatements.autoRenewableType))
            try await store.save(Self.posted("4300000001", purchase: 2_600, discount: nil, original: "4300000001", type: "Non-Consumable"))
        }
        let found = try await Self.neighbours(database)
        for (index, t) in s.enumerated() {
            let next = index + 1 < s.count ? s[index + 1].purchase : nil
            let previous = index > 0 ? s[index - 1].discount : nil
            #expect(found[t.id]?.0 == next && found[t.id]?.1 == previous, "\(t.id): \(String(describing: found[t.id]))")
        }
        #expect(found["4200000001"]?.0 == nil && found["4200000001"]?.1 == nil)
        #expect(found["4300000001"]?.0 == nil && found["4300000001"]?.1 == nil)
    }

    /// Rows stored by version 12 get their neighbours from the migration.
    @Test(arguments: TestDatabase.backends)
    func theMigrationFillsInStoredSubscriptions(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        var rows = [try OlderSchema.secretsCheck(database)]
        for t in Self.subscription {
            rows.append(
                """
                INSERT INTO notification_transactions (bundle_id, environment, transaction_id, original_transaction_id, product_id, \
                purchase_date_ms, signed_date_ms, info, server_members, signed_transaction, product_type, expires_date_ms, changed_ms, \
                offer_discount_type) VALUES ('\(Synthetic.bundleID)', 'Production', '\(t.id)', '\(Self.original)', 'com.example.monthly', \
                \(t.purchase), 1000, '{}', '', 'jws', '\(SubscriptionMetricsStatements.autoRenewableType)', \(t.purchase + 1_000), 1000, \
                \(t.discount.map { "'\($0)'" } ?? "NULL"))
                """)
        }
        try await OlderSchema.make(database, version: SubscriptionOrderSchema.version - 1, rows: rows)
        try await SignedDataFixtures.with(database) { _ in }
        let found = try await Self.neighbours(database)
        let s = Self.subscription
        for (index, t) in s.enumerated() {
            let next = index + 1 < s.count ? s[index + 1].purchase : nil
            let previous = index > 0 ? s[index - 1].discount : nil
            #expect(found[t.id]?.0 == next && found[t.id]?.1 == previous, "\(t.id): \(String(describing: found[t.id]))")
        }
    }
}
