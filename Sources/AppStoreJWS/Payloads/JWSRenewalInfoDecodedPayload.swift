import JSONText
/// Subscription renewal information as the App Store signs it (App Store Server API
/// `JWSRenewalInfoDecodedPayload`). Member names are Apple's; times are milliseconds since 1970;
/// members without a field here are kept in `additionalFields`.
public struct JWSRenewalInfoDecodedPayload: Sendable, Hashable {
    /// `advancedCommerceInfo`: the Advanced Commerce API's data, for its subscriptions only (`AdvancedCommerceRenewalInfo`).
    public var advancedCommerceInfo: AdvancedCommerceRenewalInfo?
    /// `appAccountToken`: the UUID the app associated with the customer's account at purchase.
    public var appAccountToken: String?
    /// `appTransactionId`: the identifier of the app's download transaction for this account.
    public var appTransactionId: String?
    /// `autoRenewProductId`: the product the subscription renews to at the next billing period.
    public var autoRenewProductId: String?
    /// 1: the subscription renews; 0: automatic renewal is off.
    public var autoRenewStatus: Int64?
    /// `commitmentInfo`: how the subscription's commitment renews (`RenewalCommitmentInfo`).
    public var commitmentInfo: RenewalCommitmentInfo?
    /// `currency`: the ISO 4217 code of `renewalPrice`'s currency.
    public var currency: String?
    /// `eligibleWinBackOfferIds`: the win-back offers the customer may redeem.
    public var eligibleWinBackOfferIds: [String]?
    /// `environment`: `Production`, `Sandbox` or `Xcode`.
    public var environment: String?
    /// Why the subscription expired (1 cancelled, 2 billing error, 3 price increase declined, 4 unavailable, 5 other).
    public var expirationIntent: Int64?
    /// `gracePeriodExpiresDate`: when the billing grace period ends.
    public var gracePeriodExpiresDate: UnixMilliseconds?
    /// `isInBillingRetryPeriod`: whether the App Store is still trying to renew after a billing failure.
    public var isInBillingRetryPeriod: Bool?
    /// `offerDiscountType`: the offer's payment mode (`FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`).
    public var offerDiscountType: String?
    /// `offerIdentifier`: the offer code or promotional offer identifier, for the next renewal.
    public var offerIdentifier: String?
    /// `offerPeriod`: the offer's duration (ISO 8601).
    public var offerPeriod: String?
    /// `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back offer.
    public var offerType: Int64?
    /// `originalTransactionId`: the transaction identifier of the subscription's original purchase.
    public var originalTransactionId: String?
    /// `priceIncreaseStatus`: 0 the customer has not answered a price increase that needs consent,
    /// 1 they consented or were only notified.
    public var priceIncreaseStatus: Int64?
    /// `productId`: the product identifier of the current subscription.
    public var productId: String?
    /// `recentSubscriptionStartDate`: the start of the latest run of renewals without a long lapse.
    public var recentSubscriptionStartDate: UnixMilliseconds?
    /// `renewalBillingPlanType`: how the next period is billed, `BILLED_UPFRONT` or `MONTHLY` (`renewalBillingPlanType`).
    public var renewalBillingPlanType: String?
    /// `renewalDate`: when the subscription renews (or expires).
    public var renewalDate: UnixMilliseconds?
    /// Renewal price in milliunits of `currency`.
    public var renewalPrice: Int64?
    /// `signedDate`: when the App Store signed the token.
    public var signedDate: UnixMilliseconds?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    /// Decodes a payload (JSON as signed). Call after verification: `JWSVerifier.verifyRenewalInfo`.
    public init(payload: [UInt8]) throws(JWSPayloadError) {
        try PayloadObject.read(payload) { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "advancedCommerceInfo": advancedCommerceInfo = try reader.nested(name, AdvancedCommerceRenewalInfo.init)
            case "appAccountToken": appAccountToken = try reader.string(name)
            case "appTransactionId": appTransactionId = try reader.string(name)
            case "autoRenewProductId": autoRenewProductId = try reader.string(name)
            case "autoRenewStatus": autoRenewStatus = try reader.int64(name)
            case "commitmentInfo": commitmentInfo = try reader.nested(name, RenewalCommitmentInfo.init)
            case "currency": currency = try reader.string(name)
            case "eligibleWinBackOfferIds": eligibleWinBackOfferIds = try reader.strings(name)
            case "environment": environment = try reader.string(name)
            case "expirationIntent": expirationIntent = try reader.int64(name)
            case "gracePeriodExpiresDate": gracePeriodExpiresDate = try reader.milliseconds(name)
            case "isInBillingRetryPeriod": isInBillingRetryPeriod = try reader.bool(name)
            case "offerDiscountType": offerDiscountType = try reader.string(name)
            case "offerIdentifier": offerIdentifier = try reader.string(name)
            case "offerPeriod": offerPeriod = try reader.string(name)
            case "offerType": offerType = try reader.int64(name)
            case "originalTransactionId": originalTransactionId = try reader.string(name)
            case "priceIncreaseStatus": priceIncreaseStatus = try reader.int64(name)
            case "productId": productId = try reader.string(name)
            case "recentSubscriptionStartDate": recentSubscriptionStartDate = try reader.milliseconds(name)
            case "renewalBillingPlanType": renewalBillingPlanType = try reader.string(name)
            case "renewalDate": renewalDate = try reader.milliseconds(name)
            case "renewalPrice": renewalPrice = try reader.int64(name)
            case "signedDate": signedDate = try reader.milliseconds(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}
