import JSONText
/// An App Store Server Notification V2 as the App Store signs it (`ResponseBodyV2DecodedPayload`).
/// `data.signedTransactionInfo` and `data.signedRenewalInfo` are JWS themselves: `JWSVerifier
/// .verifyNotification` verifies them with the same policy. Members without a field here are
/// kept in `additionalFields`.
public struct ResponseBodyV2DecodedPayload: Sendable, Hashable {
    /// `SUBSCRIBED`, `DID_RENEW`, `REFUND`, `TEST`, …
    public var notificationType: String?
    /// `subtype`: detail of `notificationType` (`INITIAL_BUY`, `AUTO_RENEW_DISABLED`, …), when it has one.
    public var subtype: String?
    /// `notificationUUID`: the notification's identifier; a notification sent again keeps it.
    public var notificationUUID: String?
    /// `version`: the notification format's version (`2.0`).
    public var version: String?
    /// `signedDate`: when the App Store signed the notification.
    public var signedDate: UnixMilliseconds?
    /// `data`: the app, the environment and the signed transaction and renewal info.
    public var data: NotificationData?
    /// `summary`: the outcome of a request to extend subscription renewal dates.
    public var summary: NotificationSummary?
    /// `externalPurchaseToken`: the token of an External Purchase notification.
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// `appData`: the app, for notifications about the app itself.
    public var appData: NotificationAppData?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    /// Decodes a payload (JSON as signed). Call after verification: `JWSVerifier.verifyNotification`.
    public init(payload: [UInt8]) throws(JWSPayloadError) {
        try PayloadObject.read(payload) { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "notificationType": notificationType = try reader.string(name)
            case "subtype": subtype = try reader.string(name)
            case "notificationUUID": notificationUUID = try reader.string(name)
            case "version": version = try reader.string(name)
            case "signedDate": signedDate = try reader.milliseconds(name)
            case "data": data = try reader.nested(name, NotificationData.init)
            case "summary": summary = try reader.nested(name, NotificationSummary.init)
            case "externalPurchaseToken": externalPurchaseToken = try reader.nested(name, ExternalPurchaseToken.init)
            case "appData": appData = try reader.nested(name, NotificationAppData.init)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// A notification's `data`: the app, the environment and the signed transaction and renewal info.
public struct NotificationData: Sendable, Hashable {
    /// `appAppleId`: the app's Apple id (absent outside production).
    public var appAppleId: Int64?
    /// `bundleId`: the app's bundle identifier.
    public var bundleId: String?
    /// `bundleVersion`: the app's build version.
    public var bundleVersion: String?
    /// `consumptionRequestReason`: why the customer asked for a refund (consumption requests).
    public var consumptionRequestReason: String?
    /// `Production` or `Sandbox`.
    public var environment: String?
    /// A JWS holding a `JWSRenewalInfoDecodedPayload`.
    public var signedRenewalInfo: String?
    /// A JWS holding a `JWSTransactionDecodedPayload`.
    public var signedTransactionInfo: String?
    /// Subscription status (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
    public var status: Int64?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "appAppleId": appAppleId = try reader.int64(name)
            case "bundleId": bundleId = try reader.string(name)
            case "bundleVersion": bundleVersion = try reader.string(name)
            case "consumptionRequestReason": consumptionRequestReason = try reader.string(name)
            case "environment": environment = try reader.string(name)
            case "signedRenewalInfo": signedRenewalInfo = try reader.string(name)
            case "signedTransactionInfo": signedTransactionInfo = try reader.string(name)
            case "status": status = try reader.int64(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// A notification's `summary` (renewal-date extension requests).
public struct NotificationSummary: Sendable, Hashable {
    /// `appAppleId`: the app's Apple id (absent outside production).
    public var appAppleId: Int64?
    /// `bundleId`: the app's bundle identifier.
    public var bundleId: String?
    /// `environment`: `Production` or `Sandbox`.
    public var environment: String?
    /// `failedCount`: how many subscriptions' renewal dates could not be extended.
    public var failedCount: Int64?
    /// `productId`: the subscription product the request was for.
    public var productId: String?
    /// `requestIdentifier`: the identifier of the request to extend renewal dates.
    public var requestIdentifier: String?
    /// `storefrontCountryCodes`: the storefronts (ISO 3166-1 alpha-3) the request covered.
    public var storefrontCountryCodes: [String]?
    /// `succeededCount`: how many subscriptions' renewal dates were extended.
    public var succeededCount: Int64?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "appAppleId": appAppleId = try reader.int64(name)
            case "bundleId": bundleId = try reader.string(name)
            case "environment": environment = try reader.string(name)
            case "failedCount": failedCount = try reader.int64(name)
            case "productId": productId = try reader.string(name)
            case "requestIdentifier": requestIdentifier = try reader.string(name)
            case "storefrontCountryCodes": storefrontCountryCodes = try reader.strings(name)
            case "succeededCount": succeededCount = try reader.int64(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// A notification's `externalPurchaseToken` (External Purchase notifications).
public struct ExternalPurchaseToken: Sendable, Hashable {
    /// `appAppleId`: the app's Apple id (absent outside production).
    public var appAppleId: Int64?
    /// `bundleId`: the app's bundle identifier.
    public var bundleId: String?
    /// `externalPurchaseId`: the token's unique identifier.
    public var externalPurchaseId: String?
    /// `tokenCreationDate`: when the token was created.
    public var tokenCreationDate: UnixMilliseconds?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "appAppleId": appAppleId = try reader.int64(name)
            case "bundleId": bundleId = try reader.string(name)
            case "externalPurchaseId": externalPurchaseId = try reader.string(name)
            case "tokenCreationDate": tokenCreationDate = try reader.milliseconds(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// A notification's `appData` (notifications about the app itself).
public struct NotificationAppData: Sendable, Hashable {
    /// `appAppleId`: the app's Apple id (absent outside production).
    public var appAppleId: Int64?
    /// `bundleId`: the app's bundle identifier.
    public var bundleId: String?
    /// `environment`: `Production` or `Sandbox`.
    public var environment: String?
    /// A JWS holding an `AppTransaction`.
    public var signedAppTransactionInfo: String?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    init(reading reader: inout PayloadReader) throws(JWSPayloadError) {
        try reader.readObject { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "appAppleId": appAppleId = try reader.int64(name)
            case "bundleId": bundleId = try reader.string(name)
            case "environment": environment = try reader.string(name)
            case "signedAppTransactionInfo": signedAppTransactionInfo = try reader.string(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

extension JSONReader<JWSPayloadError> {
    /// A nested object member read by `make`; `null` reads as absent.
    mutating func nested<T>(_ name: JSONName, _ make: (inout PayloadReader) throws(JWSPayloadError) -> T) throws(JWSPayloadError) -> T? {
        if try readNullIfPresent() { return nil }
        guard try peekKind() == .object else { throw JWSPayloadError.invalidMember(name: name.string, expected: "an object") }
        return try make(&self)
    }
}
