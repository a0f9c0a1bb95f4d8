import Foundation
import HummingbirdTesting
import ReceiptStore
import Testing

/// What the server remembers, on both backends: each receipt once, each transaction once,
/// renewals another receipt reported, `exclude-old-transactions`.
@Suite struct StorageTests {
    // R1: the first month and a consumable. R2, created later: R1's month and its renewal.
    static let start: Int64 = 1_704_103_200   // 2024-01-01T10:00:00Z
    static let first = Synthetic.renewal("7000000001", original: "7000000001", purchased: start)
    static let renewal = Synthetic.renewal("7000000002", original: "7000000001", purchased: start + 30 * 86_400)
    static let coins = Synthetic.consumable("7000000003", purchased: start + 86_400)
    static let r1 = Synthetic.receipt([first, coins], created: start + 2 * 86_400)
    static let r2 = Synthetic.receipt([first, coins, renewal], created: start + 31 * 86_400)

    @Test(arguments: TestDatabase.backends)
    func eachReceiptAndTransactionOnce(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await TestServer.with(TestServer.configuration(database)) { client in
            for _ in 0 ..< 3 {
                let status = try await client.status(Synthetic.body(Self.r1))
                #expect(status == 0)
            }
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 1, transactions: 2, notifications: 0))
        // Without the cache every request reaches storage: still nothing new.
        try await TestServer.with(TestServer.configuration(database, cache: 0)) { client in
            for _ in 0 ..< 2 {
                let status = try await client.status(Synthetic.body(Self.r1))
                #expect(status == 0)
            }
            let status = try await client.status(Synthetic.body(Self.r2))
            #expect(status == 0)
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 2, transactions: 3, notifications: 0))
    }

    @Test(arguments: TestDatabase.backends)
    func renewalReportedByAnotherReceipt(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await TestServer.with(TestServer.configuration(database)) { client in
            // R1 alone knows only its own month.
            let alone = try await client.verify(Synthetic.body(Self.r1))
            #expect(JSONAnswer.latestTransactionIDs(alone) == ["7000000001"])
            #expect(alone["latest_receipt"] as? String == Data(Self.r1).base64EncodedString())
            try await client.expectStatus(0, Synthetic.body(Self.r2))
            // R1 again: R2's renewal, newest purchase first, and R2 as the latest receipt.
            try await Self.expectRenewal(client)
        }
    }

    /// The renewal as R1's answer must show it once R2 is stored; with `exclude-old-transactions`
    /// only the renewal.
    static func expectRenewal(_ client: any TestClientProtocol) async throws {
        let answer = try await client.verify(Synthetic.body(r1))
        #expect(try JSONAnswer.status(answer) == 0)
        #expect(JSONAnswer.latestTransactionIDs(answer) == ["7000000002", "7000000001"])
        #expect(answer["latest_receipt"] as? String == Data(r2).base64EncodedString())
        let renewalEntry = try #require((answer["latest_receipt_info"] as? [[String: Any]])?.first)
        #expect(renewalEntry["original_transaction_id"] as? String == "7000000001")
        #expect(renewalEntry["purchase_date_ms"] as? String == String((start + 30 * 86_400) * 1000))
        #expect(renewalEntry["expires_date"] as? String != nil && renewalEntry["quantity"] as? String == "1")
        // The receipt itself is R1's: two purchases.
        #expect(((answer["receipt"] as? [String: Any])?["in_app"] as? [Any])?.count == 2)

        let newest = try await client.verify(Synthetic.body(r1, excludeOld: true))
        #expect(JSONAnswer.latestTransactionIDs(newest) == ["7000000002"])
        #expect(newest["latest_receipt"] as? String == Data(r2).base64EncodedString())
        let explicitFalse = try await client.verify(Synthetic.body(r1, excludeOld: false))
        #expect(JSONAnswer.latestTransactionIDs(explicitFalse) == ["7000000002", "7000000001"])
    }

    /// The same transaction id in production and sandbox receipts is two transactions; another
    /// app's receipts never show up.
    @Test(arguments: TestDatabase.backends)
    func keysIncludeEnvironmentAndApp(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let sandbox = Synthetic.receipt([Self.first, Self.renewal], created: Self.start + 40 * 86_400, environment: "Sandbox")
        let otherApp = Synthetic.receipt([Self.first, Self.renewal], created: Self.start + 40 * 86_400, bundleID: "com.example.other")
        try await TestServer.with(TestServer.configuration(database)) { client in
            try await client.expectStatus(0, Synthetic.body(sandbox), sandbox: true)
            try await client.expectStatus(0, Synthetic.body(otherApp))
            let answer = try await client.verify(Synthetic.body(Self.r1))
            #expect(JSONAnswer.latestTransactionIDs(answer) == ["7000000001"])
            #expect(answer["latest_receipt"] as? String == Data(Self.r1).base64EncodedString())
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 3, transactions: 2 + 2 + 2, notifications: 0))
    }

    /// An older receipt arriving after a newer one does not replace the newer one's facts.
    @Test(arguments: TestDatabase.backends)
    func olderReceiptDoesNotReplaceNewer(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await TestServer.with(TestServer.configuration(database)) { client in
            try await client.expectStatus(0, Synthetic.body(Self.r2))
            try await client.expectStatus(0, Synthetic.body(Self.r1))
            try await Self.expectRenewal(client)
        }
        let history = try await Inspect.history(database, originalTransactionIDs: ["7000000001"])
        #expect(history.latestReceipt == Self.r2)
        #expect(history.transactions.map(\.transactionID) == ["7000000002", "7000000001"])
    }
}

/// Several instances on one PostgreSQL: what one stores, the others answer with.
@Suite(.enabled(if: TestDatabase.postgresAvailable))
struct SharedPostgresTests {
    /// R2 (a renewal of R1's subscription, created later) posted to instance A; then R1 posted to
    /// instance B answers R2's renewal and R2 as `latest_receipt`; with `exclude-old-transactions`
    /// only the renewal.
    @Test func renewalAcrossInstances() async throws {
        let database = try await TestDatabase.make(.postgres)
        try await TestServer.with(TestServer.configuration(database)) { a in
            try await TestServer.with(TestServer.configuration(database)) { b in
                try await a.expectStatus(0, Synthetic.body(StorageTests.r2))
                try await StorageTests.expectRenewal(b)
            }
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 2, transactions: 3, notifications: 0))
    }

    /// Instances starting at once apply the migrations once (the advisory lock), and `--app`
    /// flags of one are the registry of all.
    @Test func concurrentStartAndOneRegistry() async throws {
        let database = try await TestDatabase.make(.postgres)
        let receipt = StatusTests.consumable
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0 ..< 4 {
                group.addTask {
                    try await TestServer.with(TestServer.configuration(database, apps: ["com.example.other"])) { client in
                        let status = try await client.status(Synthetic.body(receipt))
                        #expect(status == 21010)
                    }
                }
            }
            try await group.waitForAll()
        }
        // A later instance without --app still serves only the registered app.
        try await TestServer.with(TestServer.configuration(database)) { client in
            let status = try await client.status(Synthetic.body(receipt))
            #expect(status == 21010)
        }
    }
}
