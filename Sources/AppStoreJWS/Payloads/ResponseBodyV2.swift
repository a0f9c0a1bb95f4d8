import JSONText
/// The body the App Store posts to a notification URL (`responseBodyV2`):
/// `{"signedPayload": "<JWS>"}`. The body itself is not signed; the token in it is what
/// `JWSVerifier.verifyNotification` verifies. Read with the same strict reader as the signed
/// payloads (RFC 8259, UTF-8, no duplicate or escaped member names, bounded nesting); other
/// members are skipped.
public struct ResponseBodyV2: Sendable, Hashable {
    /// `signedPayload`: the notification as a compact JWS (`ResponseBodyV2DecodedPayload`); nil
    /// when absent or null.
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
