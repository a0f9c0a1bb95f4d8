import Foundation
import HummingbirdTesting
import ReceiptStore
import Testing

/// The fields only the server side knows, as `verifyReceipt` named them (`../shared/reference/002`):
/// offers (`offerType` 1 introductory, 2 promotional, 3 offer code), upgrades, price consent, a
/// changed auto-renew product.
@Suite struct NotificationFieldsTests {
    typealias N = SyntheticNotifications
    static let day: Int64 = 86_400_000
    static let t0: Int64 = 1_706_781_600_000   // 2024-02-01T10:00:00Z
    static let first = "9300000001", second = "9300000002", upgraded = "9300000003"
    static let receipt = Synthetic.receipt([Synthetic.renewal(first, original: first, purchased: t0 / 1000)], created: t0 / 1000 + 60)

    static func entries(_ answer: [String: Any]) -> [String: [String: String]] {
        let list = answer["latest_receipt_info"] as? [[String: String]] ?? []
        return Dictionary(list.map { ($0["transaction_id"] ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    @Test(arguments: TestDatabase.backends)
    func offersUpgradesAndPriceConsent(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        // The Self.first week a free trial, the next month an offer code, the month after a promotional
        // offer, then Self.upgraded away from (the renewal info names the yearly product).
        var trial = N.Transaction(
            transactionId: Self.first, originalTransactionId: Self.first, purchaseDate: Self.t0, expiresDate: Self.t0 + 7 * Self.day,
            signedDate: Self.t0 + 10_000)
        trial.offerType = 1
        trial.offerDiscountType = "FREE_TRIAL"
        var coded = N.Transaction(
            transactionId: Self.second, originalTransactionId: Self.first, purchaseDate: Self.t0 + 7 * Self.day,
            expiresDate: Self.t0 + 37 * Self.day, signedDate: Self.t0 + 7 * Self.day + 1_000)
        coded.offerType = 3
        coded.offerIdentifier = "SPRING2024"
        coded.offerDiscountType = "PAY_AS_YOU_GO"
        var promoted = N.Transaction(
            transactionId: Self.upgraded, originalTransactionId: Self.first, purchaseDate: Self.t0 + 37 * Self.day,
            expiresDate: Self.t0 + 67 * Self.day, signedDate: Self.t0 + 40 * Self.day)
        promoted.offerType = 2
        promoted.offerIdentifier = "loyalty.50"
        promoted.isUpgraded = true
        var renewal = N.Renewal(originalTransactionId: Self.first, signedDate: Self.t0 + 40 * Self.day)
        renewal.autoRenewProductId = "com.example.receipts.yearly"
        renewal.priceIncreaseStatus = 1
        renewal.offerType = 2
        renewal.offerIdentifier = "loyalty.50"
        let tokens = [
            N.token("SUBSCRIBED", subtype: "INITIAL_BUY", signedDate: trial.signedDate, transaction: trial),
            N.token("OFFER_REDEEMED", subtype: "UPGRADE", signedDate: coded.signedDate, transaction: coded),
            N.token("DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE", signedDate: promoted.signedDate, transaction: promoted, renewal: renewal),
        ]
        try await TestServer.with(N.configuration(database)) { client in
            for token in tokens { #expect(try await client.notify(token: token) == 200) }
            let answer = try await client.verify(Synthetic.body(Self.receipt))
            #expect(JSONAnswer.latestTransactionIDs(answer) == [Self.upgraded, Self.second, Self.first])
            let entries = Self.entries(answer)
            // The receipt (created after the trial's notification) wins for the Self.first month; it says
            // nothing of the trial, but keeps what only the notification knows.
            #expect(entries[Self.first]?["in_app_ownership_type"] == "PURCHASED")
            #expect(entries[Self.first]?["subscription_group_identifier"] == "21000001")
            #expect(entries[Self.second]?["offer_code_ref_name"] == "SPRING2024")
            #expect(entries[Self.second]?["is_in_intro_offer_period"] == "false" && entries[Self.second]?["is_trial_period"] == "false")
            #expect(entries[Self.second]?["promotional_offer_id"] == nil && entries[Self.second]?["is_upgraded"] == nil)
            #expect(entries[Self.upgraded]?["promotional_offer_id"] == "loyalty.50")
            #expect(entries[Self.upgraded]?["is_upgraded"] == "true")
            #expect(entries[Self.upgraded]?["offer_code_ref_name"] == nil)
            let pending = answer["pending_renewal_info"] as? [[String: String]]
            #expect(
                pending == [
                    [
                        "auto_renew_product_id": "com.example.receipts.yearly", "auto_renew_status": "1", "original_transaction_id": Self.first,
                        "product_id": "com.example.receipts.monthly", "price_consent_status": "1", "promotional_offer_id": "loyalty.50",
                    ]
                ])
        }
    }

    /// A free trial told only by a notification is a trial, not an introductory price.
    @Test func freeTrialOnlyToldByANotification() async throws {
        let database = try await TestDatabase.make(.sqlite)
        var trial = N.Transaction(
            transactionId: "9300000011", originalTransactionId: Self.first, purchaseDate: Self.t0 - Self.day,
            expiresDate: Self.t0 + 6 * Self.day, signedDate: Self.t0 - Self.day + 1_000)
        trial.offerType = 1
        trial.offerDiscountType = "FREE_TRIAL"
        var intro = N.Transaction(
            transactionId: "9300000012", originalTransactionId: Self.first, purchaseDate: Self.t0 - 2 * Self.day,
            expiresDate: Self.t0 - Self.day, signedDate: Self.t0 - 2 * Self.day + 1_000)
        intro.offerType = 1
        intro.offerDiscountType = "PAY_UP_FRONT"
        let tokens = [
            N.token("SUBSCRIBED", signedDate: intro.signedDate, transaction: intro),
            N.token("DID_RENEW", signedDate: trial.signedDate, transaction: trial),
        ]
        try await TestServer.with(N.configuration(database)) { client in
            for token in tokens { #expect(try await client.notify(token: token) == 200) }
            let entries = Self.entries(try await client.verify(Synthetic.body(Self.receipt)))
            #expect(entries["9300000011"]?["is_trial_period"] == "true" && entries["9300000011"]?["is_in_intro_offer_period"] == "false")
            #expect(entries["9300000012"]?["is_trial_period"] == "false" && entries["9300000012"]?["is_in_intro_offer_period"] == "true")
        }
    }
}
