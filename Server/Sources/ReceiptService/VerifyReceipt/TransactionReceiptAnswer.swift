import AppReceipt
import Foundation
import LegacyReceipt
import ReceiptStore

/// `verifyReceipt`'s answer for an iOS 6 style transaction receipt (DESIGN §14,
/// `../shared/reference/`): `receipt` in the purchase-info key format; for an auto-renewable
/// subscription, the latest known renewal of its original transaction (from receipts of either
/// kind and notifications, `PurchaseHistory`) as one object: `latest_receipt_info` with
/// `latest_receipt` while it runs, or status 21006 with `latest_expired_receipt_info` once it has
/// expired at the request time.
enum TransactionReceiptAnswer {
    static func answer(_ receipt: VerifiedReceipt, history: PurchaseHistory?, now: Date) -> VerifyAnswer {
        // Where it was admitted (its endpoint), what it claims, and that nothing signed proves it.
        let head =
            #","environment":""# + receipt.record.environment + #"","#
            + ResponseJSON.unprovenEnvironment(claim: receipt.unprovenEnvironmentClaim ?? receipt.environment)
            + #","receipt":"# + receipt.receiptJSON
        guard let history, let latest = history.transactions.first else {
            return VerifyAnswer(status: .valid, json: #"{"status":0"# + head + "}")
        }
        let info = renewalObject(latest, history: history, bundleID: receipt.record.bundleID)
        if let expires = expiresMilliseconds(latest.json), expires <= now.millisecondsSince1970 {
            return VerifyAnswer(status: .subscriptionExpired, json: #"{"status":21006"# + head + #","latest_expired_receipt_info":"# + info + "}")
        }
        let latestReceipt = history.latestReceipt.flatMap { TransactionReceipt.recognises($0) ? $0 : nil } ?? receipt.record.bytes
        return VerifyAnswer(
            status: .valid,
            json: #"{"status":0"# + head + #","latest_receipt_info":"# + info
                + #","latest_receipt":""# + Data(latestReceipt).base64EncodedString() + #""}"#)
    }

    /// The renewal in the purchase-info key format: the stored transaction receipt's own object
    /// when the history's newest receipt is the one that states exactly these facts (every key it
    /// has, `item_id` and `unique_identifier` included); otherwise the stored `in_app` object
    /// renamed (`TransactionReceiptJSON.purchaseInfoObject`), which carries what an app receipt
    /// or a notification told.
    static func renewalObject(_ latest: StoredTransaction, history: PurchaseHistory, bundleID: String) -> String {
        if let bytes = history.latestReceipt, TransactionReceipt.recognises(bytes),
            let stored = try? TransactionReceipt(bytes), stored.transactionIdentifier == latest.transactionID,
            TransactionReceiptJSON.inAppObject(stored) == latest.json
        {
            return TransactionReceiptJSON.receiptObject(stored)
        }
        return TransactionReceiptJSON.purchaseInfoObject(inApp: latest.json, bundleIdentifier: bundleID) ?? latest.json
    }

    /// `expires_date_ms` of an `in_app`-format object, when it has one.
    static func expiresMilliseconds(_ json: String) -> Int64? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let text = object["expires_date_ms"] as? String
        else { return nil }
        return Int64(text)
    }
}
