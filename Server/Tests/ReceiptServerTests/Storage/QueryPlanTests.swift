import GRDB
@testable import ReceiptStore
import Testing

/// SQLite plans the server's hot reads by index look-ups, with no statistics (the server never
/// runs ANALYZE): a plan that walks an app's whole index instead costs every cold customer
/// 0.3 s at 270,000 transactions (issue 39's entitlements bench).
@Suite struct QueryPlanTests {
    /// The `EXPLAIN QUERY PLAN` lines of `statement` on a migrated SQLite database.
    static func plan(_ statement: SQLStatement) async throws -> [String] {
        let database = try await TestDatabase.make(.sqlite)
        try await SignedDataFixtures.with(database) { _ in }   // creates and migrates it
        let queue = try DatabaseQueue(path: database.sqlitePath!)
        defer { try? queue.close() }
        return try await queue.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.text, arguments: SQLiteStore.arguments(statement)).map { $0[3] as String }
        }
    }

    @Test func aCustomersTransactionsAreReadByOriginalID() async throws {
        let statement = SignedDataStatements.transactionsOf(
            ["6000000700", "6000000701"], limit: 1000, bundleID: Synthetic.bundleID, environment: "Production", .sqlite)
        let plan = try await Self.plan(statement)
        #expect(plan.contains { $0.contains("USING INDEX notification_transactions_by_original (") }, "\(plan)")
        #expect(!plan.contains { $0.contains("notification_transactions_by_purchase") }, "\(plan)")
    }

    /// The metrics read spans, purchases, refunds and grace periods from indexes alone, and no
    /// table scan (`SubscriptionMetricsStatements`).
    @Test func theMetricsReadIndexesOnly() async throws {
        let window = MetricsWindow(bundleID: Synthetic.bundleID, environment: "Production", firstDay: 20_000, lastDay: 20_089, now: 0)
        var plan: [String] = []
        for statement in SubscriptionMetricsStatements.statements(window, .sqlite) { plan += try await Self.plan(statement) }
        for index in [
            "INDEX notification_transactions_by_span_end", "INDEX renewal_infos_in_billing_retry",
            "INDEX notification_transactions_by_purchase_signed", "INDEX notification_transactions_by_revocation",
        ] {
            #expect(plan.contains { $0.contains(index) }, "\(index): \(plan)")
        }
        #expect(!plan.contains { $0.hasPrefix("SCAN notification_transactions") || $0.hasPrefix("SCAN t") }, "\(plan)")
    }

    /// The grace periods are read from the subscriptions in billing retry outwards: those first,
    /// then each one's transactions by original transaction id, never the app's transactions
    /// by purchase date (which read all of them).
    @Test func graceCorrectionsStartFromTheSubscriptionsInBillingRetry() async throws {
        let window = MetricsWindow(bundleID: Synthetic.bundleID, environment: "Production", firstDay: 20_000, lastDay: 20_089, now: 0)
        let plan = try await Self.plan(SubscriptionMetricsStatements.graceCorrections(window, .sqlite))
        let retry = plan.firstIndex { $0.contains("SEARCH r USING INDEX renewal_infos_in_billing_retry") }
        let transactions = plan.firstIndex { $0.contains("SEARCH t USING INDEX notification_transactions_by_original") }
        #expect(retry != nil && transactions != nil && retry! < transactions!, "\(plan)")
        #expect(!plan.contains { $0.contains("notification_transactions_by_purchase") }, "\(plan)")
    }
}

/// The PostgreSQL pool's connections run without JIT compilation (`PostgresStore`): compiling a
/// plan cost the subscription metrics 0.9 s of 2.7 s and never pays back on the server's
/// statements; and with 32 MB of `work_mem`, so that the metrics hash their groups in memory
/// instead of sorting 220,000 rows on disk.
@Suite struct PostgresSessionTests {
    @Test(.enabled(if: TestDatabase.postgresAvailable)) func poolConnectionsHaveJITOffAndRoomToHash() async throws {
        let database = try await TestDatabase.make(.postgres)
        let settings = try await SignedDataFixtures.with(database) { store -> [String] in
            let postgres = try #require(store as? PostgresStore)
            var found: [String] = []
            for setting in ["jit", "work_mem"] {
                for try await (value, ) in try await postgres.client.query("SELECT current_setting(\(setting))").decode((String,).self) {
                    found.append(value)
                }
            }
            return found
        }
        #expect(settings == ["off", "32MB"])
    }
}
