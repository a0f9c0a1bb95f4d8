import JSONText
/// A transaction as the App Store signs it (App Store Server API `JWSTransactionDecodedPayload`;
/// StoreKit 2 `Transaction.jwsRepresentation`). Member names are Apple's; times are milliseconds
/// since 1970; members without a field here are kept in `additionalFields`.
public struct JWSTransactionDecodedPayload: Sendable, Hashable {
    /// `advancedCommerceInfo`: the Advanced Commerce API's data, for its SKUs only (`AdvancedCommerceTransactionInfo`).
    public var advancedCommerceInfo: AdvancedCommerceTransactionInfo?
    /// `appAccountToken`: the UUID the app associated with the customer's account at purchase.
    public var appAccountToken: String?
    /// `appTransactionId`: the identifier of the app's download transaction for this account.
    public var appTransactionId: String?
    /// `billingPlanType`: how the subscription is billed, `BILLED_UPFRONT` or `MONTHLY` (`billingPlanType`).
    public var billingPlanType: String?
    /// `bundleId`: the app's bundle identifier.
    public var bundleId: String?
    /// `commitmentInfo`: the commitment this transaction pays a period of (`TransactionCommitmentInfo`).
    public var commitmentInfo: TransactionCommitmentInfo?
    /// `currency`: the ISO 4217 code of `price`'s currency.
    public var currency: String?
    /// `Production`, `Sandbox`, `Xcode` or `LocalTesting`.
    public var environment: String?
    /// `expiresDate`: when the subscription expires or renews.
    public var expiresDate: UnixMilliseconds?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    /// `isUpgraded`: true when the customer upgraded to another subscription, ending this one.
    public var isUpgraded: Bool?
    /// `offerDiscountType`: the offer's payment mode (`FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`).
    public var offerDiscountType: String?
    /// `offerIdentifier`: the offer code or promotional offer identifier.
    public var offerIdentifier: String?
    /// `offerPeriod`: the offer's duration (ISO 8601).
    public var offerPeriod: String?
    /// `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back offer.
    public var offerType: Int64?
    /// `originalPurchaseDate`: the purchase date of the original transaction.
    public var originalPurchaseDate: UnixMilliseconds?
    /// `originalTransactionId`: the transaction identifier of the original purchase.
    public var originalTransactionId: String?
    /// Price in milliunits of `currency`.
    public var price: Int64?
    /// `productId`: the product identifier.
    public var productId: String?
    /// `purchaseDate`: when the App Store charged the customer (for a renewal, when it renewed).
    public var purchaseDate: UnixMilliseconds?
    /// `quantity`: how many consumable products were purchased.
    public var quantity: Int64?
    /// `revocationDate`: when the App Store refunded or revoked the transaction.
    public var revocationDate: UnixMilliseconds?
    /// `revocationPercentage`: the share of the transaction refunded or revoked, in milliunits.
    public var revocationPercentage: Int64?
    /// `revocationReason`: 0 another reason, 1 the customer reported an issue with the app.
    public var revocationReason: Int64?
    /// `revocationType`: `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE`.
    public var revocationType: String?
    /// `signedDate`: when the App Store signed the token.
    public var signedDate: UnixMilliseconds?
    /// `storefront`: the three-letter code (ISO 3166-1 alpha-3) of the storefront's country or region.
    public var storefront: String?
    /// `storefrontId`: Apple's identifier of the storefront.
    public var storefrontId: String?
    /// `subscriptionGroupIdentifier`: the subscription group the product belongs to.
    public var subscriptionGroupIdentifier: String?
    /// `transactionId`: the transaction's identifier.
    public var transactionId: String?
    /// `PURCHASE` or `RENEWAL`.
    public var transactionReason: String?
    /// `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable`, `Non-Renewing Subscription`.
    public var type: String?
    /// `webOrderLineItemId`: the identifier of subscription purchase events across devices.
    public var webOrderLineItemId: String?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    /// Decodes a payload (JSON as signed). Call after verification: `JWSVerifier.verifyTransaction`.
    public init(payload: [UInt8]) throws(JWSPayloadError) {
        try PayloadObject.read(payload) { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "advancedCommerceInfo": advancedCommerceInfo = try reader.nested(name, AdvancedCommerceTransactionInfo.init)
            case "appAccountToken": appAccountToken = try reader.string(name)
            case "appTransactionId": appTransactionId = try reader.string(name)
            case "billingPlanType": billingPlanType = try reader.string(name)
            case "bundleId": bundleId = try reader.string(name)
            case "commitmentInfo": commitmentInfo = try reader.nested(name, TransactionCommitmentInfo.init)
            case "currency": currency = try reader.string(name)
            case "environment": environment = try reader.string(name)
            case "expiresDate": expiresDate = try reader.milliseconds(name)
            case "inAppOwnershipType": inAppOwnershipType = try reader.string(name)
            case "isUpgraded": isUpgraded = try reader.bool(name)
            case "offerDiscountType": offerDiscountType = try reader.string(name)
            case "offerIdentifier": offerIdentifier = try reader.string(name)
            case "offerPeriod": offerPeriod = try reader.string(name)
            case "offerType": offerType = try reader.int64(name)
            case "originalPurchaseDate": originalPurchaseDate = try reader.milliseconds(name)
            case "originalTransactionId": originalTransactionId = try reader.string(name)
            case "price": price = try reader.int64(name)
            case "productId": productId = try reader.string(name)
            case "purchaseDate": purchaseDate = try reader.milliseconds(name)
            case "quantity": quantity = try reader.int64(name)
            case "revocationDate": revocationDate = try reader.milliseconds(name)
            case "revocationPercentage": revocationPercentage = try reader.int64(name)
            case "revocationReason": revocationReason = try reader.int64(name)
            case "revocationType": revocationType = try reader.string(name)
            case "signedDate": signedDate = try reader.milliseconds(name)
            case "storefront": storefront = try reader.string(name)
            case "storefrontId": storefrontId = try reader.string(name)
            case "subscriptionGroupIdentifier": subscriptionGroupIdentifier = try reader.string(name)
            case "transactionId": transactionId = try reader.string(name)
            case "transactionReason": transactionReason = try reader.string(name)
            case "type": type = try reader.string(name)
            case "webOrderLineItemId": webOrderLineItemId = try reader.string(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}
