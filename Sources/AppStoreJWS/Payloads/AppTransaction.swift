/// The app's purchase as the App Store signs it (StoreKit 2 `AppTransaction`, App Store Server
/// API `JWSAppTransactionDecodedPayload`). Member names are Apple's; times are milliseconds since
/// 1970; members without a field here are kept in `additionalFields`.
public struct AppTransaction: Sendable, Hashable {
    public var appAppleId: Int64?
    public var applicationVersion: String?
    public var appTransactionId: String?
    public var bundleId: String?
    public var deviceVerification: String?
    public var deviceVerificationNonce: String?
    public var originalApplicationVersion: String?
    public var originalPlatform: String?
    public var originalPurchaseDate: UnixMilliseconds?
    public var preorderDate: UnixMilliseconds?
    public var receiptCreationDate: UnixMilliseconds?
    /// The environment: `Production`, `Sandbox`, `Xcode`.
    public var receiptType: String?
    public var signedDate: UnixMilliseconds?
    public var versionExternalIdentifier: Int64?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    /// Decodes a payload (JSON as signed). Call after verification: `JWSVerifier.verifyAppTransaction`.
    public init(payload: [UInt8]) throws(JWSPayloadError) {
        try PayloadObject.read(payload) { name, reader in
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
