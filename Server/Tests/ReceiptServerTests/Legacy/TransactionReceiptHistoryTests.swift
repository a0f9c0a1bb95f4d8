import Foundation
import HummingbirdTesting
import ReceiptTestSupport
import Testing

/// Transaction receipts and app receipts of one subscription share the transactions table (key:
/// bundle id, environment, transaction id), so each kind's answer sees the other's renewals, on
/// both backends: `latest_receipt_info` is the newest renewal whichever kind told of it, in the
/// request's own key format, and `latest_receipt` is always a receipt of the request's kind.
@Suite struct TransactionReceiptHistoryTests {
    /// The first renewal (transaction receipt), purchased 2023-11-14.
    static let first = SyntheticLegacy.receipt("1000000046178817", purchased: 1_700_000_000_000, expires: SyntheticLegacy.future).text
    /// A later renewal (transaction receipt), purchased 2023-11-26, after the app receipt's creation.
    static let later = SyntheticLegacy.receipt("1000000046178999", purchased: 1_701_000_000_000, expires: SyntheticLegacy.future).text
    /// An app receipt created 2023-11-20 holding a renewal purchased 2023-11-15 (between the two).
    static let appRenewalID = "1000000046178900"
    static let appReceipt = Synthetic.receipt(
        [
            TestReceipt.Purchase(
                productIdentifier: "com.example.monthly", transactionIdentifier: appRenewalID,
                purchaseDate: SyntheticReceipts.rfc3339(1_700_100_000), originalTransactionIdentifier: SyntheticLegacy.original,
                originalPurchaseDate: SyntheticReceipts.rfc3339(1_600_000_000),
                expirationDate: SyntheticReceipts.rfc3339(SyntheticLegacy.future / 1000), productType: 3,
                webOrderLineItemIdentifier: 1_000_000_000_000_002, isTrialPeriod: false, isInIntroOfferPeriod: false)
        ], created: 1_700_500_000)

    @Test(arguments: TestDatabase.backends)
    func eachKindSeesTheOthersRenewals(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await SyntheticLegacy.trustProductionClaims(database)
        try await TestServer.with(TestServer.legacyConfiguration(database)) { client in
            let first = Data(try SyntheticLegacy.signedForm(Self.first)).base64EncodedString()
            // Alone: the receipt is its own latest renewal.
            var answer = try await client.verify(SyntheticLegacy.body(Self.first))
            #expect(Self.latest(answer)?["transaction_id"] == "1000000046178817")

            // The app receipt lists the transaction receipt's renewal beside its own, and its
            // latest_receipt is itself.
            answer = try await client.verify(Synthetic.body(Self.appReceipt))
            #expect(try JSONAnswer.status(answer) == 0)
            #expect(JSONAnswer.latestTransactionIDs(answer) == [Self.appRenewalID, "1000000046178817"])
            #expect(answer["latest_receipt"] as? String == Data(Self.appReceipt).base64EncodedString())

            // The transaction receipt now sees the app receipt's newer renewal, renamed to its key
            // format; its latest_receipt stays a transaction receipt (its own).
            answer = try await client.verify(SyntheticLegacy.body(Self.first))
            #expect(try JSONAnswer.status(answer) == 0)
            let renamed = try #require(Self.latest(answer))
            #expect(renamed["transaction_id"] == Self.appRenewalID && renamed["bid"] == Synthetic.bundleID)
            #expect(renamed["expires_date"] == String(SyntheticLegacy.future) && renamed["expires_date_ms"] == nil)
            #expect(renamed["expires_date_formatted"] == "2100-01-01 00:00:00 Etc/GMT")
            #expect(answer["latest_receipt"] as? String == first)

            // A later transaction receipt: the newest renewal for both kinds.
            answer = try await client.verify(SyntheticLegacy.body(Self.later))
            #expect(Self.latest(answer)?["transaction_id"] == "1000000046178999")
            answer = try await client.verify(SyntheticLegacy.body(Self.first))
            let newest = try #require(Self.latest(answer))
            // The stored receipt's own object: every purchase-info key, item_id included.
            #expect(newest as NSDictionary == (try TransactionReceiptStatusTests.object(Self.later)) as NSDictionary)
            #expect(answer["latest_receipt"] as? String == Data(try SyntheticLegacy.signedForm(Self.later)).base64EncodedString())
            answer = try await client.verify(Synthetic.body(Self.appReceipt))
            #expect(JSONAnswer.latestTransactionIDs(answer) == ["1000000046178999", Self.appRenewalID, "1000000046178817"])
            // The newest receipt holding the subscription is the later transaction receipt; an app
            // receipt's client is given its own receipt instead.
            #expect(answer["latest_receipt"] as? String == Data(Self.appReceipt).base64EncodedString())
        }
        let counts = try await Inspect.counts(database)
        #expect(counts.receipts == 3 && counts.transactions == 3, "\(counts)")
    }

    static func latest(_ answer: [String: Any]) -> [String: String]? {
        answer["latest_receipt_info"] as? [String: String]
    }
}
