import AppReceipt
import Foundation
import LegacyReceipt

/// One purchase as the inspector's summary judges it, whatever carried it: a receipt's `in_app`
/// entry, an iOS 6 transaction receipt or a StoreKit 2 transaction. Times in milliseconds since 1970.
struct InspectionPurchase: Sendable, Equatable {
    var product: String
    var transaction: String
    /// The subscription the purchase belongs to (its own id for a first purchase).
    var original: String
    var purchased: Int64
    /// Set for auto-renewable subscriptions only.
    var expires: Int64?
    /// A refund, or for an upgraded subscription the moment of the upgrade.
    var cancelled: Int64?
    var trial = false
    /// Said by StoreKit 2's `isUpgraded`; a receipt leaves it to `InspectionSummary`.
    var upgraded = false

    init(
        product: String, transaction: String, original: String, purchased: Int64, expires: Int64? = nil,
        cancelled: Int64? = nil, trial: Bool = false, upgraded: Bool = false
    ) {
        self.product = product
        self.transaction = transaction
        self.original = original
        self.purchased = purchased
        self.expires = expires
        self.cancelled = cancelled
        self.trial = trial
        self.upgraded = upgraded
    }

    init(_ purchase: InAppPurchase) {
        self.init(
            product: purchase.productIdentifier, transaction: purchase.transactionIdentifier,
            original: purchase.originalTransactionIdentifier ?? purchase.transactionIdentifier,
            purchased: purchase.purchaseDate.millisecondsSince1970,
            expires: purchase.subscriptionExpirationDate?.millisecondsSince1970,
            cancelled: purchase.cancellationDate?.millisecondsSince1970, trial: purchase.isTrialPeriod == true)
    }

    init(_ receipt: TransactionReceipt) {
        self.init(
            product: receipt.productIdentifier, transaction: receipt.transactionIdentifier,
            original: receipt.originalTransactionIdentifier ?? receipt.transactionIdentifier,
            purchased: receipt.purchaseDate.milliseconds, expires: receipt.expiresDate?.milliseconds,
            trial: receipt.isTrialPeriod == true)
    }

    /// A `JWSTransactionDecodedPayload`'s members: nil without `transactionId`, `productId` and
    /// `purchaseDate`. A free trial is `offerDiscountType` `FREE_TRIAL`; a refund `revocationDate`.
    init?(transaction object: [String: Any]) {
        guard let transaction = object["transactionId"] as? String, let product = object["productId"] as? String,
            let purchased = InspectionDate.milliseconds(object["purchaseDate"])
        else { return nil }
        self.init(
            product: product, transaction: transaction, original: object["originalTransactionId"] as? String ?? transaction,
            purchased: purchased, expires: InspectionDate.milliseconds(object["expiresDate"]),
            cancelled: InspectionDate.milliseconds(object["revocationDate"]),
            trial: object["offerDiscountType"] as? String == "FREE_TRIAL",
            upgraded: (object["isUpgraded"] as? NSNumber).map { InspectionDate.isBoolean($0) && $0.boolValue } ?? false)
    }
}
