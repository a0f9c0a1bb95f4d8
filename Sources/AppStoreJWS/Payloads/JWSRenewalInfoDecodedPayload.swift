/// Subscription renewal information as the App Store signs it (App Store Server API
/// `JWSRenewalInfoDecodedPayload`). Member names are Apple's; times are milliseconds since 1970;
/// members without a field here are kept in `additionalFields`.
public struct JWSRenewalInfoDecodedPayload: Sendable, Hashable {
    public var appAccountToken: String?
    public var appTransactionId: String?
    public var autoRenewProductId: String?
    /// 1: the subscription renews; 0: automatic renewal is off.
    public var autoRenewStatus: Int64?
    public var currency: String?
    public var eligibleWinBackOfferIds: [String]?
    public var environment: String?
    /// Why the subscription expired (1 cancelled, 2 billing error, 3 price increase declined, 4 unavailable, 5 other).
    public var expirationIntent: Int64?
    public var gracePeriodExpiresDate: UnixMilliseconds?
    public var isInBillingRetryPeriod: Bool?
    public var offerDiscountType: String?
    public var offerIdentifier: String?
    public var offerPeriod: String?
    public var offerType: Int64?
    public var originalTransactionId: String?
    public var priceIncreaseStatus: Int64?
    public var productId: String?
    public var recentSubscriptionStartDate: UnixMilliseconds?
    public var renewalDate: UnixMilliseconds?
    /// Renewal price in milliunits of `currency`.
    public var renewalPrice: Int64?
    public var signedDate: UnixMilliseconds?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    /// Decodes a payload (JSON as signed). Call after verification: `JWSVerifier.verifyRenewalInfo`.
    public init(payload: [UInt8]) throws(JWSPayloadError) {
        try PayloadObject.read(payload) { name, reader in
            switch name {
            case "appAccountToken": appAccountToken = try reader.string(name)
            case "appTransactionId": appTransactionId = try reader.string(name)
            case "autoRenewProductId": autoRenewProductId = try reader.string(name)
            case "autoRenewStatus": autoRenewStatus = try reader.int64(name)
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
            case "renewalDate": renewalDate = try reader.milliseconds(name)
            case "renewalPrice": renewalPrice = try reader.int64(name)
            case "signedDate": signedDate = try reader.milliseconds(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}
