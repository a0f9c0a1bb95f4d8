import AppReceipt
import Foundation
import LegacyReceipt
import X509Certificates

extension Inspector {
    /// An iOS 6 style transaction receipt (DESIGN §14): its purchase-info fields, its one
    /// purchase as an `in_app` object, and the verdict under the transaction receipts' App Store
    /// rules at its purchase date (the signer and the embedded intermediate it chains through).
    func inspectTransactionReceipt(_ bytes: [UInt8], now: Int64) -> InspectionReport {
        var report = InspectionReport(kind: "transaction-receipt", now: now)
        let receipt: TransactionReceipt
        do {
            receipt = try TransactionReceipt(bytes)
        } catch {
            report.refuse(
                status: 21002, verdict: "malformed", message: "malformed transaction receipt: \(error)",
                rule: InspectionRule(rule: "malformed"))
            return report
        }
        report.policy = legacyPolicy.name
        report.validationTime = receipt.purchaseDate.seconds
        report.fields(receiptObject: TransactionReceiptJSON.receiptObject(receipt))
        report.fieldRows.insert(Self.claimedEnvironmentRow(receipt), at: 0)
        report.purchases([TransactionReceiptJSON.inAppObject(receipt)], total: 1)
        report.summarize([InspectionPurchase(receipt)])
        report.raw = TransactionReceiptJSON.response(receipt)
        report.receiptData = Data(bytes).base64EncodedString()
        report.endpoint = receipt.isSandbox ? "/sandbox/verifyReceipt" : "/verifyReceipt"
        do {
            let verified = try receipt.verify(policy: legacyPolicy)
            report.accept(
                chain: verified.chain,
                message: "valid (\(legacyPolicy.name), transaction receipt version "
                    + "\(receipt.signature.version.rawValue)): " + Self.path(verified.chain))
        } catch {
            report.certificates([receipt.signature.certificate], verified: false)
            report.refuse(status: 21003, verdict: "not valid", message: "not valid: \(error)", rule: Self.rule(error))
            report.raw = ReceiptJSON.failure(.notAuthenticated)
        }
        return report
    }

    /// The environment the receipt claims, marked as outside its signature: nothing Apple signed
    /// in a transaction receipt tells production from sandbox (Server/README "Trust").
    static func claimedEnvironmentRow(_ receipt: TransactionReceipt) -> [String: String] {
        ["name": "environment", "value": (receipt.isSandbox ? "Sandbox" : "Production") + " (claimed, not signed)"]
    }

    static func rule(_ error: TransactionReceiptValidationError) -> InspectionRule {
        switch error {
        case .untrusted(let reason): return InspectionRule(reason)
        case .signatureHashNotSHA1: return InspectionRule(rule: "signatureHashNotSHA1")
        }
    }
}
