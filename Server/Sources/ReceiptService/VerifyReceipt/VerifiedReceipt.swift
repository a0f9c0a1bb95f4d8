import AppReceipt
import LegacyReceipt
import ReceiptStore

/// A receipt this process has verified, reduced to what answers and storage need. Built once per
/// receipt and kept in the verification cache.
struct VerifiedReceipt: Sendable {
    /// What storage keeps (bytes, SHA-256, key fields, in-app purchases as `in_app` JSON).
    let record: ReceiptRecord
    let environment: ReceiptEnvironment
    /// `receipt verify --json`'s `receipt` object, without the request dates (a transaction
    /// receipt's: its purchase-info keys).
    let receiptJSON: String
    /// Original transaction ids of the receipt's auto-renewable subscriptions (in-app purchases
    /// with an expiration date), each once, sorted.
    let subscriptionOriginalIDs: [String]
    /// The app's Apple id as the receipt names it (`app_item_id`; production receipts carry it).
    let appItemID: Int64?
    /// Whether this is an iOS 6 style transaction receipt (DESIGN §14), answered in its own
    /// shape (`ResponseJSON.transactionReceipt`); false for an app receipt.
    let isTransactionReceipt: Bool

    /// Whether the receipt holds an auto-renewable subscription.
    var hasSubscription: Bool { !subscriptionOriginalIDs.isEmpty }

    init(_ receipt: AppReceipt, bytes: [UInt8], sha256: [UInt8]) {
        environment = receipt.environment
        appItemID = receipt.appItemIdentifier
        receiptJSON = ReceiptJSON.receiptObject(receipt)
        isTransactionReceipt = false
        var originals = Set<String>()
        let transactions = receipt.inAppPurchases.map { purchase in
            let original = purchase.originalTransactionIdentifier ?? purchase.transactionIdentifier
            if purchase.isSubscription { originals.insert(original) }
            return TransactionRecord(
                transactionID: purchase.transactionIdentifier, originalTransactionID: original,
                productID: purchase.productIdentifier,
                purchaseMilliseconds: purchase.purchaseDate.millisecondsSince1970,
                json: ReceiptJSON.purchaseObject(purchase))
        }
        subscriptionOriginalIDs = originals.sorted()
        record = ReceiptRecord(
            sha256: sha256, bytes: bytes, bundleID: receipt.bundleIdentifier,
            environment: receipt.environment.verifyReceiptName,
            createdMilliseconds: receipt.creationDate.millisecondsSince1970, transactions: transactions)
    }

    /// A transaction receipt: one transaction, stored in `in_app`'s key format beside app
    /// receipts' (same key: bundle id, environment, transaction id), so that either kind's answer
    /// sees the other's renewals. Its date as a source is its purchase date.
    init(_ receipt: TransactionReceipt, bytes: [UInt8], sha256: [UInt8]) {
        environment = receipt.isSandbox ? .sandbox : .production
        appItemID = receipt.appItemIdentifier.flatMap { Int64($0) }
        receiptJSON = TransactionReceiptJSON.receiptObject(receipt)
        isTransactionReceipt = true
        let original = receipt.originalTransactionIdentifier ?? receipt.transactionIdentifier
        subscriptionOriginalIDs = receipt.isAutoRenewable ? [original] : []
        let transaction = TransactionRecord(
            transactionID: receipt.transactionIdentifier, originalTransactionID: original,
            productID: receipt.productIdentifier,
            purchaseMilliseconds: receipt.purchaseDate.milliseconds,
            json: TransactionReceiptJSON.inAppObject(receipt))
        record = ReceiptRecord(
            sha256: sha256, bytes: bytes, bundleID: receipt.bundleIdentifier,
            environment: environment.verifyReceiptName,
            createdMilliseconds: receipt.purchaseDate.milliseconds, transactions: [transaction])
    }
}
