import AppReceipt
import LegacyReceipt
import ReceiptStore
import X509Certificates

/// A receipt this process has verified, reduced to what answers and storage need. Built once per
/// receipt and kept in the verification cache.
struct VerifiedReceipt: Sendable {
    /// What storage keeps (bytes, SHA-256, key fields, in-app purchases as `in_app` JSON).
    private(set) var record: ReceiptRecord
    /// The environment the receipt is answered and stored in: an app receipt's own (signed); a
    /// transaction receipt's, once `admitted(at:)`, its endpoint's.
    private(set) var environment: ReceiptEnvironment
    /// The verified path, signer first, anchor last (`--revocation ocsp` asks about it).
    let chain: [Certificate]
    /// `receipt verify --json`'s `receipt` object, without the request dates (a transaction
    /// receipt's: its purchase-info keys).
    let receiptJSON: String
    /// Original transaction ids of the receipt's auto-renewable subscriptions (in-app purchases
    /// with an expiration date), each once, sorted.
    let subscriptionOriginalIDs: [String]
    /// The app's Apple id as the receipt names it (`app_item_id`; production receipts carry it).
    let appItemID: Int64?
    /// The iOS 6 style transaction receipt (DESIGN §14), answered in its own shape
    /// (`TransactionReceiptAnswer`); nil for an app receipt.
    let transactionReceipt: TransactionReceipt?

    /// Whether this is an iOS 6 style transaction receipt.
    var isTransactionReceipt: Bool { transactionReceipt != nil }

    /// The environment the receipt says it is from, when nothing signed says so: a transaction
    /// receipt's `environment` line (absent: Production), outside its signature. Nil for an app
    /// receipt, whose environment is a signed attribute.
    var unprovenEnvironmentClaim: ReceiptEnvironment? {
        transactionReceipt.map { $0.isSandbox ? .sandbox : .production }
    }

    /// Whether the receipt holds an auto-renewable subscription.
    var hasSubscription: Bool { !subscriptionOriginalIDs.isEmpty }

    /// An app receipt, stored as sent and keyed by the SHA-256 of its signed content (the PKCS#7
    /// eContent, RFC 5652 §5.2): what surrounds it (certificates' order, `crls`, unsigned
    /// attributes, BER length forms) is the sender's to vary, so variants of one receipt are one
    /// stored receipt (the first one stored).
    init(_ receipt: AppReceipt, bytes: [UInt8], chain: [Certificate]) {
        self.chain = chain
        environment = receipt.environment
        appItemID = receipt.appItemIdentifier
        receiptJSON = ReceiptJSON.receiptObject(receipt)
        transactionReceipt = nil
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
            sha256: ReceiptVerifier.sha256(Array(receipt.payload)), bytes: bytes,
            bundleID: receipt.bundleIdentifier,
            environment: receipt.environment.verifyReceiptName,
            createdMilliseconds: receipt.creationDate.millisecondsSince1970, transactions: transactions)
    }

    /// A transaction receipt: one transaction, stored in `in_app`'s key format beside app
    /// receipts' (same key: bundle id, environment, transaction id), so that either kind's answer
    /// sees the other's renewals. Its date as a source is its purchase date. Stored as its signed
    /// form (`TransactionReceipt.signedForm`), keyed by that form's SHA-256, in the environment
    /// it claims until `admitted(at:)` says which one it is answered in.
    init(_ receipt: TransactionReceipt, chain: [Certificate]) {
        self.chain = chain
        environment = receipt.isSandbox ? .sandbox : .production
        appItemID = receipt.appItemIdentifier.flatMap { Int64($0) }
        receiptJSON = TransactionReceiptJSON.receiptObject(receipt)
        transactionReceipt = receipt
        let original = receipt.originalTransactionIdentifier ?? receipt.transactionIdentifier
        subscriptionOriginalIDs = receipt.isAutoRenewable ? [original] : []
        let transaction = TransactionRecord(
            transactionID: receipt.transactionIdentifier, originalTransactionID: original,
            productID: receipt.productIdentifier,
            purchaseMilliseconds: receipt.purchaseDate.milliseconds,
            json: TransactionReceiptJSON.inAppObject(receipt))
        let signed = receipt.signedForm(sandbox: receipt.isSandbox)
        record = ReceiptRecord(
            sha256: ReceiptVerifier.sha256(signed), bytes: signed, bundleID: receipt.bundleIdentifier,
            environment: environment.verifyReceiptName,
            createdMilliseconds: receipt.purchaseDate.milliseconds, transactions: [transaction])
    }

    /// The receipt as answered and stored at `endpoint`. An app receipt is unchanged (its
    /// endpoint was checked against its signed environment). A transaction receipt takes the
    /// endpoint's environment, and its stored form says so: its `environment` line is not signed
    /// (`unprovenEnvironmentClaim`), so the endpoint that admitted it decides.
    func admitted(at endpoint: VerifyEndpoint) -> VerifiedReceipt {
        guard let transactionReceipt else { return self }
        var admitted = self
        admitted.environment = endpoint == .sandbox ? .sandbox : .production
        let signed = transactionReceipt.signedForm(sandbox: endpoint == .sandbox)
        admitted.record.bytes = signed
        admitted.record.sha256 = ReceiptVerifier.sha256(signed)
        admitted.record.environment = admitted.environment.verifyReceiptName
        return admitted
    }
}
