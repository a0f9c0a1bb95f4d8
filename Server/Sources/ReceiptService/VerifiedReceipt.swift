import AppReceipt
import ReceiptStore

/// A receipt this process has verified, reduced to what answers and storage need. Built once per
/// receipt and kept in the verification cache.
struct VerifiedReceipt: Sendable {
    /// What storage keeps (bytes, SHA-256, key fields, in-app purchases as `in_app` JSON).
    let record: ReceiptRecord
    let environment: ReceiptEnvironment
    /// `receipt verify --json`'s `receipt` object, without the request dates.
    let receiptJSON: String
    /// Original transaction ids of the receipt's auto-renewable subscriptions (in-app purchases
    /// with an expiration date), each once, sorted.
    let subscriptionOriginalIDs: [String]
    /// The app's Apple id as the receipt names it (`app_item_id`; production receipts carry it).
    let appItemID: Int64?

    /// Whether the receipt holds an auto-renewable subscription.
    var hasSubscription: Bool { !subscriptionOriginalIDs.isEmpty }

    init(_ receipt: AppReceipt, bytes: [UInt8], sha256: [UInt8]) {
        environment = receipt.environment
        appItemID = receipt.appItemIdentifier
        receiptJSON = ReceiptJSON.receiptObject(receipt)
        var originals = Set<String>()
        let transactions = receipt.inAppPurchases.map { purchase in
            let original = purchase.originalTransactionIdentifier ?? purchase.transactionIdentifier
            if purchase.isSubscription { originals.insert(original) }
            return TransactionRecord(transactionID: purchase.transactionIdentifier, originalTransactionID: original,
                                     productID: purchase.productIdentifier,
                                     purchaseMilliseconds: purchase.purchaseDate.millisecondsSince1970,
                                     json: ReceiptJSON.purchaseObject(purchase))
        }
        subscriptionOriginalIDs = originals.sorted()
        record = ReceiptRecord(sha256: sha256, bytes: bytes, bundleID: receipt.bundleIdentifier,
                               environment: receipt.environment.verifyReceiptName,
                               createdMilliseconds: receipt.creationDate.millisecondsSince1970, transactions: transactions)
    }
}
