import JSONText
/// A Retention Messaging API real-time request as the App Store signs it
/// (`DecodedRealtimeRequestBody`): the App Store asks the app's server which retention message to
/// show a customer about to cancel. Member names are Apple's; members without a field here are
/// kept in `additionalFields`.
public struct DecodedRealtimeRequestBody: Sendable, Hashable {
    /// `appAppleId`: the app's Apple id in the App Store.
    public var appAppleId: Int64?
    /// `environment`: `Production` or `Sandbox`.
    public var environment: String?
    /// `originalTransactionId`: the original transaction identifier of the customer's subscription.
    public var originalTransactionId: String?
    /// `productId`: the auto-renewable subscription's product identifier.
    public var productId: String?
    /// `requestIdentifier`: the UUID the App Store gave this request.
    public var requestIdentifier: String?
    /// `signedDate`: when the App Store signed the request.
    public var signedDate: UnixMilliseconds?
    /// `userLocale`: the device's locale (`locale`, e.g. `en-US`).
    public var userLocale: String?
    /// Members this type has no field for, as signed.
    public var additionalFields: [String: JSONValue] = [:]

    /// Decodes a payload (JSON as signed). Call after verification: `JWSVerifier.verifyRealtimeRequest`.
    public init(payload: [UInt8]) throws(JWSPayloadError) {
        try PayloadObject.read(payload) { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "appAppleId": appAppleId = try reader.int64(name)
            case "environment": environment = try reader.string(name)
            case "originalTransactionId": originalTransactionId = try reader.string(name)
            case "productId": productId = try reader.string(name)
            case "requestIdentifier": requestIdentifier = try reader.string(name)
            case "signedDate": signedDate = try reader.milliseconds(name)
            case "userLocale": userLocale = try reader.string(name)
            default: try reader.keep(name, in: &additionalFields)
            }
        }
    }
}

/// The body the App Store posts to a Get Retention Message endpoint (`RealtimeRequestBody`):
/// `{"signedPayload": "<JWS>"}`. The body itself is not signed; the token in it is what
/// `JWSVerifier.verifyRealtimeRequest` verifies. Read with the same strict reader as the signed
/// payloads; other members are skipped.
public struct RealtimeRequestBody: Sendable, Hashable {
    /// `signedPayload`: the request as a compact JWS (`DecodedRealtimeRequestBody`); nil when absent or null.
    public var signedPayload: String?

    /// Reads a request body.
    public init(body: [UInt8]) throws(JWSPayloadError) {
        try PayloadObject.read(body) { (name, reader) throws(JWSPayloadError) in
            switch name {
            case "signedPayload": signedPayload = try reader.string(name)
            default: try reader.skipValue()
            }
        }
    }
}
