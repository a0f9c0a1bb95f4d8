/// A transaction as the App Store signs it (App Store Server API `JWSTransactionDecodedPayload`;
/// StoreKit 2 `Transaction.jwsRepresentation`). Member names are Apple's; times are milliseconds
/// since 1970; members without a field here are kept in `additionalFields`.
public struct JWSTransactionDecodedPayload: Sendable, Hashable {
    public var appAccountToken: String?
    public var appTransactionId: String?
    public var bundleId: String?
    public var currency: String?
    /// `Production`, `Sandbox`, `Xcode` or `LocalTesting`.
    public var environment: String?
    public var expiresDate: UnixMilliseconds?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    public var isUpgraded: Bool?
    public var offerDiscountType: String?
    public var offerIdentifier: String?
    public var offerPeriod: String?
    public var offerType: Int64?
    public var originalPurchaseDate: UnixMilliseconds?
    public var originalTransactionId: String?
    /// Price in milliunits of `currency`.
    public var price: Int64?
    public var productId: String?
    public var purchaseDate: UnixMilliseconds?
    public var quantity: Int64?
    public var revocationDate: UnixMilliseconds?
    public var revocationPercentage: Int64?
    public var revocationReason: Int64?
    public var revocationType: String?
    public var signedDate: UnixMilliseconds?
    public var storefront: String?
    public var storefrontId: String?
    public var subscriptionGroupIdentifier: String?
    public var transactionId: String?
    /// `PURCHASE` or `RENEWAL`.
    public var transactionReason: String?
    /// `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable`, `Non-Renewing Subscription`.
    public var type: String?
    public var webOrderLineItemId: String?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    /// Decodes a payload (JSON as signed). Call after verification: `JWSVerifier.verifyTransaction`.
    public init(payload: [UInt8]) throws(JWSPayloadError) {
        try PayloadObject.read(payload) { name, reader in
            switch name {
            case "appAccountToken": appAccountToken = try reader.string(name)
            case "appTransactionId": appTransactionId = try reader.string(name)
            case "bundleId": bundleId = try reader.string(name)
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
