import AppReceipt
import Foundation
import LegacyReceipt
import ReceiptStore

/// Answer bodies. The pieces are JSON the root library wrote (`ReceiptJSON`) or stored as it wrote
/// them; the text added here holds only digits, dates, base64 and fixed names, which need no
/// escaping.
enum ResponseJSON {
    /// `{"status":N}`, and for 21100 `"is-retryable":true`; for a transaction receipt refused for
    /// its environment, the environment it claims and that nothing signed proves it
    /// (`unprovenEnvironment`).
    static func failure(_ status: VerifyStatus, unprovenClaim: ReceiptEnvironment? = nil) -> String {
        if status == .storageUnavailable { return #"{"status":21100,"is-retryable":true}"# }
        guard let unprovenClaim else { return #"{"status":\#(status.rawValue)}"# }
        return #"{"status":\#(status.rawValue),"# + unprovenEnvironment(claim: unprovenClaim) + "}"
    }

    /// `"claimed_environment":"…","environment_proven":false`: what a transaction receipt says of
    /// its environment, outside its signature.
    static func unprovenEnvironment(claim: ReceiptEnvironment) -> String {
        #""claimed_environment":""# + claim.verifyReceiptName + #"","environment_proven":false"#
    }

    /// Status 0: `environment`, `receipt` with the request dates, and for receipts with
    /// auto-renewable subscriptions `latest_receipt_info`, `latest_receipt` and, when
    /// notifications told of their renewals, `pending_renewal_info`.
    static func valid(_ receipt: VerifiedReceipt, requestDate: Date, history: PurchaseHistory?, excludeOld: Bool) -> String {
        var text = #"{"status":0,"environment":""#
        text.reserveCapacity(
            receipt.receiptJSON.utf8.count + 256
                + (history.map { h in
                    h.transactions.reduce(0) { $0 + $1.json.utf8.count + 1 } + (h.latestReceipt?.count ?? 0) * 4 / 3 + 64
                } ?? 0))
        text += receipt.record.environment + #"","receipt":"#
        text += receipt.receiptJSON.dropLast()
        text += #","request_date":""# + AppleDateFormat.gmt(requestDate)
        text += #"","request_date_ms":""# + AppleDateFormat.milliseconds(requestDate)
        text += #"","request_date_pst":""# + AppleDateFormat.pacific(requestDate) + #""}"#
        if let history {
            let transactions = excludeOld ? newestPerOriginal(history.transactions) : history.transactions
            text += #","latest_receipt_info":["#
            text += transactions.map(\.json).joined(separator: ",")
            text += "]"
            // The newest receipt holding them, unless it is a transaction receipt (iOS 6 style):
            // an app receipt's client is given its own receipt instead.
            if let latest = history.latestReceipt.map({ TransactionReceipt.recognises($0) ? receipt.record.bytes : $0 }) {
                text += #","latest_receipt":""# + Data(latest).base64EncodedString() + #"""#
            }
            if !history.pendingRenewals.isEmpty {
                text += #","pending_renewal_info":["# + history.pendingRenewals.map(\.json).joined(separator: ",") + "]"
            }
        }
        text += "}"
        return text
    }

    /// `exclude-old-transactions`: of transactions sorted newest purchase first, the first of each
    /// original transaction id.
    static func newestPerOriginal(_ transactions: [StoredTransaction]) -> [StoredTransaction] {
        var seen = Set<String>()
        return transactions.filter { seen.insert($0.originalTransactionID).inserted }
    }
}
