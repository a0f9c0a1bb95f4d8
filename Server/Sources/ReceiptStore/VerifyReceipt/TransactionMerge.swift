/// What receipts and notifications say of the same transactions, merged by key (a history is
/// one app and environment, so the transaction id completes the key).
///
/// The rule: the later source wins. A receipt's facts are true at its creation date, a
/// notification's at its `signedDate`; on equal instants the notification's win (they state
/// more). When a newer receipt wins, the fields a receipt cannot state at all
/// (`NotificationTransaction.serverMembers`: ownership type, subscription group, offer code name,
/// the upgrade flag) are kept from the notification, because the receipt's silence about them is
/// not news. A revocation's `cancellation_reason` is not kept: the newer receipt states the
/// cancellation (or its reversal) itself.
enum TransactionMerge {
    /// A receipt transaction and the creation date of the receipt it was stored from.
    struct ReceiptRow: Sendable {
        let transaction: StoredTransaction
        let asOfMilliseconds: Int64
    }

    /// One entry per transaction id, newest purchase first (then greater transaction id first).
    /// Without notification rows the receipt rows are returned as given (already in that order).
    static func merge(_ receiptRows: [ReceiptRow], _ notificationRows: [NotificationTransaction]) -> [StoredTransaction] {
        guard !notificationRows.isEmpty else { return receiptRows.map(\.transaction) }
        var told = Dictionary(notificationRows.map { ($0.transactionID, $0) }, uniquingKeysWith: { first, _ in first })
        var merged: [StoredTransaction] = []
        merged.reserveCapacity(receiptRows.count + notificationRows.count)
        for row in receiptRows {
            if let notified = told.removeValue(forKey: row.transaction.transactionID) {
                merged.append(later(row, notified))
            } else {
                merged.append(row.transaction)
            }
        }
        merged += told.values.map(stored)
        return merged.sorted(by: newestPurchaseFirst)
    }

    /// The later source's facts for one transaction both sources know.
    static func later(_ row: ReceiptRow, _ notified: NotificationTransaction) -> StoredTransaction {
        if notified.signedMilliseconds >= row.asOfMilliseconds { return stored(notified) }
        var transaction = row.transaction
        transaction.json = appending(notified.serverMembers, to: transaction.json)
        return transaction
    }

    static func stored(_ notified: NotificationTransaction) -> StoredTransaction {
        StoredTransaction(
            transactionID: notified.transactionID, originalTransactionID: notified.originalTransactionID,
            purchaseMilliseconds: notified.purchaseMilliseconds, json: notified.json)
    }

    /// `object` (a JSON object's text, `{…}`) with `members` added before its closing brace.
    static func appending(_ members: String, to object: String) -> String {
        guard !members.isEmpty, object.hasSuffix("}") else { return object }
        let body = object.dropLast()
        return body + (body.hasSuffix("{") ? "" : ",") + members + "}"
    }

    /// The order of `latest_receipt_info`: purchase date descending, then transaction id
    /// descending (byte order; transaction ids are digits, which every collation orders alike).
    static func newestPurchaseFirst(_ a: StoredTransaction, _ b: StoredTransaction) -> Bool {
        if a.purchaseMilliseconds != b.purchaseMilliseconds { return a.purchaseMilliseconds > b.purchaseMilliseconds }
        return b.transactionID.utf8.lexicographicallyPrecedes(a.transactionID.utf8)
    }
}
