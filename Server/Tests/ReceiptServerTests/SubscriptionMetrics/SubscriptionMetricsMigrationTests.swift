import Foundation
@testable import ReceiptStore
import Testing

/// The entitlements and metrics migration on a database the previous version made: signed
/// transactions stored before it get their price, currency, reason and discount from their JWS
/// (more rows than one backfill step reads), renewal infos their auto-renew status from their
/// `pending_renewal_info`, so that metrics and entitlements count them.
@Suite struct SubscriptionMetricsMigrationTests {
    static let rows = SignedTransactionBackfill.batch + 7
    static let day: Int64 = 86_400_000
    static let purchased: Int64 = 20_000 * day + 3_600_000   // 2024-10-04 01:00 UTC

    static func jws(_ payload: [String: Any]) -> String {
        func base64URL(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return base64URL(Data(#"{"alg":"ES256"}"#.utf8)) + "." + base64URL(try! JSONSerialization.data(withJSONObject: payload)) + ".c2ln"
    }

    @Test(arguments: TestDatabase.backends)
    func olderRowsAreFilledFromTheirTokens(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        var rows = [try OlderSchema.secretsCheck(database)]
        for index in 0 ..< Self.rows {
            let id = String(7_100_000_000 + index)
            let token = Self.jws([
                "transactionId": id, "price": index % 2 == 0 ? 9_990 : 8_990, "currency": index % 2 == 0 ? "USD" : "EUR",
                "transactionReason": "PURCHASE", "offerDiscountType": index % 3 == 0 ? "FREE_TRIAL" : NSNull(),
            ])
            rows.append(
                """
                INSERT INTO notification_transactions (bundle_id, environment, transaction_id, original_transaction_id, product_id, \
                purchase_date_ms, signed_date_ms, info, server_members, signed_transaction, product_type, expires_date_ms, changed_ms, \
                app_account_token) VALUES ('\(Synthetic.bundleID)', 'Production', '\(id)', '\(id)', 'com.example.monthly', \
                \(Self.purchased), 1000, '{}', '', '\(token)', 'Auto-Renewable Subscription', \(Self.purchased + 30 * Self.day), 1000, \
                \(index < 5 ? "'00000000-0000-4000-8000-000000000001'" : "NULL"))
                """)
            rows.append(
                """
                INSERT INTO renewal_infos (bundle_id, environment, original_transaction_id, signed_date_ms, info, signed_renewal_info, \
                billing_retry) VALUES ('\(Synthetic.bundleID)', 'Production', '\(id)', 1000, '{"auto_renew_status":"\(index % 2)"}', 'r', 0)
                """)
        }
        try await OlderSchema.make(database, version: SubscriptionMetricsSchema.version - 1, rows: rows)
        try await SignedDataFixtures.with(database) { store in
            let day = Self.purchased / Self.day
            let metrics = try await store.subscriptionMetrics(
                MetricsWindow(bundleID: Synthetic.bundleID, environment: "Production", firstDay: day, lastDay: day, now: Self.purchased + 3_600_000))
            let (usd, eur) = ((Self.rows + 1) / 2, Self.rows / 2)
            #expect(metrics.first?.revenue == ["USD": Int64(usd) * 9_990, "EUR": Int64(eur) * 8_990])
            #expect(metrics.first?.newSubscriptions == Int64(Self.rows))
            #expect(metrics.first?.trialStarts == Int64((Self.rows + 2) / 3))
            #expect(metrics.first?.activeSubscriptions == Int64(Self.rows))
            let account = try await store.account(
                bundleID: Synthetic.bundleID, environment: "Production", appAccountToken: "00000000-0000-4000-8000-000000000001")
            #expect(account.renewals.count == 5 && account.transactions.count == 5)
            #expect(account.renewals.allSatisfy { $0.facts.autoRenewStatus == Int64($0.originalTransactionID.suffix(1))! % 2 })
        }
    }
}
