import Foundation
import LegacyReceipt
import ReceiptTestSupport
import Testing

/// The two key formats of one transaction: purchase-info (a transaction receipt's answer) and
/// `in_app` (an app receipt's, and what receipt-server stores for both kinds).
@Suite struct TransactionReceiptInAppTests {
    /// A subscription renewal whose text dates agree with its milliseconds (2020-09-13 and
    /// 2020-10-13, 12:26:40 UTC).
    static let renewal = TestTransactionReceipt(version: 3, expiresMilliseconds: 1_602_592_000_000)

    static func object(_ text: String) throws -> [String: String] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
    }

    @Test func inAppObjectRenamesTheExpiryAndKeepsEveryValue() throws {
        let receipt = try TransactionReceipt(Self.renewal.text)
        let inApp = try Self.object(TransactionReceiptJSON.inAppObject(receipt))
        #expect(inApp["expires_date_ms"] == "1602592000000")
        #expect(inApp["expires_date"] == "2020-10-13 12:26:40 Etc/GMT")
        #expect(inApp["expires_date_pst"] == "2020-10-13 05:26:40 America/Los_Angeles")
        #expect(inApp["purchase_date"] == "2020-09-13 12:26:40 Etc/GMT")
        #expect(inApp["purchase_date_ms"] == "1600000000000")
        #expect(inApp["transaction_id"] == "1000000046178817" && inApp["original_transaction_id"] == "1000000046178817")
        #expect(inApp["product_id"] == "com.example.monthly" && inApp["quantity"] == "1")
        #expect(inApp["web_order_line_item_id"] == "1000000000000001")
        #expect(inApp["is_trial_period"] == "false" && inApp["is_in_intro_offer_period"] == "false")
        // Fields an in_app entry does not have stay out.
        #expect(inApp["bid"] == nil && inApp["item_id"] == nil && inApp["unique_identifier"] == nil && inApp["expires_date_formatted"] == nil)
    }

    /// `in_app` → purchase-info gives back the receipt's own values for every key both formats hold.
    @Test func purchaseInfoObjectInvertsInAppObject() throws {
        let receipt = try TransactionReceipt(Self.renewal.text)
        let original = try Self.object(TransactionReceiptJSON.receiptObject(receipt))
        let text = try #require(
            TransactionReceiptJSON.purchaseInfoObject(
                inApp: TransactionReceiptJSON.inAppObject(receipt),
                bundleIdentifier: receipt.bundleIdentifier))
        let back = try Self.object(text)
        let shared = [
            "bid", "quantity", "product_id", "transaction_id", "original_transaction_id", "purchase_date", "purchase_date_ms",
            "purchase_date_pst", "original_purchase_date", "original_purchase_date_ms", "original_purchase_date_pst",
            "expires_date", "expires_date_formatted", "expires_date_formatted_pst", "web_order_line_item_id",
            "is_trial_period", "is_in_intro_offer_period",
        ]
        for key in shared {
            #expect(back[key] != nil && back[key] == original[key], "\(key): \(back[key] ?? "-") vs \(original[key] ?? "-")")
        }
        #expect(Set(back.keys) == Set(shared))
        #expect(text.hasPrefix(#"{"bid":"com.example.app""#))
    }

    /// Members an app receipt or a notification adds (a cancellation) are kept under their names;
    /// non-string members and non-objects are not carried.
    @Test func purchaseInfoObjectKeepsOtherMembers() throws {
        let inApp = #"{"transaction_id":"7","cancellation_date_ms":"1700000000000","in_app_ownership_type":"PURCHASED","n":1}"#
        let back = try Self.object(try #require(TransactionReceiptJSON.purchaseInfoObject(inApp: inApp, bundleIdentifier: "a.b")))
        #expect(back == ["bid": "a.b", "transaction_id": "7", "cancellation_date_ms": "1700000000000", "in_app_ownership_type": "PURCHASED"])
        #expect(TransactionReceiptJSON.purchaseInfoObject(inApp: "[1]", bundleIdentifier: "a.b") == nil)
        #expect(TransactionReceiptJSON.purchaseInfoObject(inApp: "{", bundleIdentifier: "a.b") == nil)
    }
}
