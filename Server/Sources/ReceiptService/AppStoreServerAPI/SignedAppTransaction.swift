import AppStoreJWS
import Foundation
import ReceiptStore

/// What the App Store Server API keeps of a verified signed app transaction, and how a customer's
/// signed transactions name theirs (DESIGN §13: only facts Apple signed link them).
enum SignedAppTransaction {
    /// The record of a verified app transaction of `bundleID` in `environment`; nil when it names
    /// no `appTransactionId` a request could ask for (1 to 32 digits; app transactions signed
    /// before 2025 carry none) or no `signedDate` nor `receiptCreationDate` to order it by.
    static func record(_ app: AppTransaction, jws: String, bundleID: String, environment: String) -> AppTransactionRecord? {
        guard let id = app.appTransactionId, TransactionID.isValid(id),
            let signed = app.signedDate?.value ?? app.receiptCreationDate?.value
        else { return nil }
        return AppTransactionRecord(bundleID: bundleID, environment: environment, appTransactionID: id, signedMilliseconds: signed, jws: jws)
    }

    /// The `appTransactionId`s the customer's signed transactions carry (2025 and later), each
    /// once, newest purchase first. Read from the stored tokens, which were verified when stored.
    static func linkedIDs(_ transactions: [StoredSignedTransaction]) -> [String] {
        let newestFirst = transactions.sorted {
            ($0.purchaseMilliseconds, $0.transactionID) > ($1.purchaseMilliseconds, $1.transactionID)
        }
        var seen = Set<String>()
        return newestFirst.compactMap { transaction in
            guard let payload = payload(of: transaction.facts.jws),
                let id = try? JWSTransactionDecodedPayload(payload: payload).appTransactionId,
                TransactionID.isValid(id), seen.insert(id).inserted
            else { return nil }
            return id
        }
    }

    /// The payload of a stored compact JWS (its second part, base64url), without parsing the
    /// header's certificates again.
    static func payload(of token: String) -> [UInt8]? {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var text = String(decoding: parts[1], as: UTF8.self).replacing("-", with: "+").replacing("_", with: "/")
        text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        return Data(base64Encoded: text).map { [UInt8]($0) }
    }
}
