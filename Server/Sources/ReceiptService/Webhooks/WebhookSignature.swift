import Crypto
import Foundation

/// The Standard Webhooks signature (standardwebhooks.com, "Signature scheme"): HMAC-SHA256 keyed
/// with the secret's bytes over `msg_id.timestamp.payload` (the `webhook-id`, the
/// `webhook-timestamp` in whole seconds since 1970, and the body exactly as sent), sent as
/// `webhook-signature: v1,<standard base64 of the MAC>`.
public enum WebhookSignature {
    /// The three headers of one attempt, signed at `timestamp` (seconds since 1970). A
    /// redelivery keeps `id` and signs anew with its own timestamp (receivers refuse timestamps
    /// more than five minutes old).
    public static func headers(id: String, timestamp: Int64, body: String, secret: [UInt8]) -> [(name: String, value: String)] {
        [
            ("webhook-id", id), ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", signature(id: id, timestamp: timestamp, body: body, secret: secret)),
        ]
    }

    /// `v1,` and the base64 MAC of `id.timestamp.body`.
    public static func signature(id: String, timestamp: Int64, body: String, secret: [UInt8]) -> String {
        let signed = Array("\(id).\(timestamp).\(body)".utf8)
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: secret))
        return "v1," + Data(mac).base64EncodedString()
    }
}
