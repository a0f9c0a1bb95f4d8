// The code of Sources/AppReceipt/AppReceipt.docc/VerifyingAnAppStoreReceipt.md, verbatim
// (ArticleSnippetTests checks it); VerifyingAnAppStoreReceiptTests runs it.

import AppReceipt
import Foundation
import X509Certificates

/// What the app unlocks, from the receipt in its bundle and the device's identifier (on iOS the
/// 16 bytes of `identifierForVendor`).
func entitlements(
    receiptData: Data, deviceIdentifier: [UInt8], policy: TrustPolicy = .appStore, now: Date = Date()
) throws -> Set<String> {
    let receipt = try AppReceipt(data: receiptData)
    try receipt.validate(
        policy: policy, bundleIdentifier: "com.example.receipts", deviceIdentifier: deviceIdentifier)
    var entitlements: Set<String> = []
    if receipt.activeAutoRenewableSubscription("com.example.receipts.pro.monthly", at: now) != nil {
        entitlements.insert("pro")
    }
    if receipt.purchases(of: "com.example.receipts.lifetime").contains(where: { $0.cancellationDate == nil }) {
        entitlements.insert("lifetime")
    }
    return entitlements
}

/// The three outcomes a caller acts on.
enum ReceiptCheck {
    case valid(AppReceipt)
    /// Not a receipt at all (a server answers 21002).
    case malformed(ReceiptError)
    /// A receipt, but not authentic or not this app's (a server answers 21003).
    case notValid(ReceiptValidationError)
}

func check(_ receiptData: Data, policy: TrustPolicy = .appStore) -> ReceiptCheck {
    let receipt: AppReceipt
    do {
        receipt = try AppReceipt(data: receiptData)
    } catch {
        return .malformed(error)
    }
    do {
        try receipt.validate(policy: policy, bundleIdentifier: "com.example.receipts")
    } catch {
        return .notValid(error)
    }
    return .valid(receipt)
}

/// One link cache for the process: Apple's intermediate is verified once, then each receipt
/// costs one RSA verification.
let linkCache = VerifiedLinkCache()

/// `verifyReceipt`'s answer for the base64 `receipt-data` a client posted.
func verifyReceiptAnswer(receiptData: String, policy: TrustPolicy = .appStore) -> String {
    let receipt: AppReceipt
    do {
        receipt = try AppReceipt(binaryOrBase64: Array(receiptData.utf8))
    } catch {
        return ReceiptJSON.failure(.malformed)
    }
    do {
        try receipt.validate(policy: policy, at: .receiptCreation, linkStore: linkCache)
    } catch {
        return ReceiptJSON.failure(.notAuthenticated)
    }
    return ReceiptJSON.response(receipt)
}

/// The App Store rules anchored at another root: a test chain's, as `receipt verify --root` does.
func appStoreRules(trusting rootCertificate: [UInt8]) throws(CertificateError) -> TrustPolicy {
    TrustPolicy.appStore(anchors: [try TrustAnchor(derEncoded: rootCertificate)])
}

/// Whether the receipt verifies with its certificates judged at `time`.
func verifies(_ receipt: AppReceipt, policy: TrustPolicy = .appStore, at time: ValidationTime) -> Bool {
    do {
        try receipt.validate(policy: policy, at: time)
        return true
    } catch {
        return false
    }
}
