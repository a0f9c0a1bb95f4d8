import JSONText
/// The app's purchase as the App Store signs it (StoreKit 2 `AppTransaction`, App Store Server
/// API `JWSAppTransactionDecodedPayload`). Member names are Apple's; times are milliseconds since
/// 1970; members without a field here are kept in `additionalFields`.
public struct AppTransaction: Sendable, Hashable {
    /// `appAppleId`: the app's Apple id in the App Store (absent outside production).
    public var appAppleId: Int64?
    /// `applicationVersion`: the app version the app transaction applies to.
    public var applicationVersion: String?
    /// `appTransactionId`: the identifier of the app's download transaction for this account.
    public var appTransactionId: String?
    /// `bundleId`: the app's bundle identifier.
    public var bundleId: String?
    /// `deviceVerification`: the base64 hash that ties the app transaction to a device.
    public var deviceVerification: String?
    /// `deviceVerificationNonce`: the UUID hashed into `deviceVerification`.
    public var deviceVerificationNonce: String?
    /// `originalApplicationVersion`: the app version the customer first purchased or downloaded.
    public var originalApplicationVersion: String?
    /// `originalPlatform`: the platform of the original purchase (`iOS`, `macOS`, …).
    public var originalPlatform: String?
    /// `originalPurchaseDate`: when the customer first purchased or downloaded the app.
    public var originalPurchaseDate: UnixMilliseconds?
    /// `preorderDate`: when the customer pre-ordered the app, if they did.
    public var preorderDate: UnixMilliseconds?
    /// `receiptCreationDate`: when the App Store created this app transaction.
    public var receiptCreationDate: UnixMilliseconds?
    /// The environment: `Production`, `Sandbox`, `Xcode`.
    public var receiptType: String?
    /// `signedDate`: when the App Store signed the token.
    public var signedDate: UnixMilliseconds?
    /// `versionExternalIdentifier`: the App Store's identifier of the app version purchased.
    public var versionExternalIdentifier: Int64?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    /// Decodes a payload (JSON as signed). Call after verification: `JWSVerifier.verifyAppTransaction`.
    public init(payload: [UInt8]) throws(JWSPayloadError) {
        try PayloadObject.read(payload) { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "appAppleId": appAppleId = try reader.int64(name)
            case "applicationVersion": applicationVersion = try reader.string(name)
            case "appTransactionId": appTransactionId = try reader.string(name)
            case "bundleId": bundleId = try reader.string(name)
            case "deviceVerification": deviceVerification = try reader.string(name)
            case "deviceVerificationNonce": deviceVerificationNonce = try reader.string(name)
            case "originalApplicationVersion": originalApplicationVersion = try reader.string(name)
            case "originalPlatform": originalPlatform = try reader.string(name)
            case "originalPurchaseDate": originalPurchaseDate = try reader.milliseconds(name)
            case "preorderDate": preorderDate = try reader.milliseconds(name)
            case "receiptCreationDate": receiptCreationDate = try reader.milliseconds(name)
            case "receiptType": receiptType = try reader.string(name)
            case "signedDate": signedDate = try reader.milliseconds(name)
            case "versionExternalIdentifier": versionExternalIdentifier = try reader.int64(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}
