import Crypto
import ReceiptStore

/// The event sent to webhook endpoints (issue 38) for a stored notification or a posted
/// transaction: one JSON object, members in a fixed order, `null` where absent, Apple's
/// `signedPayload` (or the posted `signedTransactionInfo`) copied byte for byte.
///
/// `id` is derived from the cause (SHA-256 of the notification's UUID, or of the posted
/// transaction's app, environment and id), so the same cause always makes the same event:
/// a receiver deduplicates by `webhook-id`, which every delivery and redelivery keeps.
public enum WebhookEvent {
    /// The `type` of an event for a transaction an app's backend posted.
    public static let postedTransactionType = "POSTED_TRANSACTION"

    /// The event of a verified notification.
    public static func make(notification n: NotificationRecord) -> WebhookEventRecord {
        let id = eventID("notification\u{0}" + n.uuid)
        let body = self.body(
            id: id, type: n.type, subtype: n.subtype, environment: n.environment, bundleID: n.bundleID, notificationUUID: n.uuid,
            signedDate: n.signedMilliseconds, transaction: n.transaction, renewal: n.renewalInfo?.signed, signedPayload: n.signedPayload)
        return WebhookEventRecord(id: id, type: n.type, body: body)
    }

    /// The event of a verified posted transaction: its `signedPayload` is the posted
    /// `signedTransactionInfo`.
    public static func make(posted p: PostedTransaction) -> WebhookEventRecord? {
        guard let jws = p.transaction.signed?.jws else { return nil }
        let id = eventID("posted\u{0}" + p.bundleID + "\u{0}" + p.environment + "\u{0}" + p.transaction.transactionID)
        let body = self.body(
            id: id, type: postedTransactionType, subtype: nil, environment: p.environment, bundleID: p.bundleID, notificationUUID: nil,
            signedDate: p.transaction.signedMilliseconds, transaction: p.transaction, renewal: p.renewalInfo?.signed, signedPayload: jws)
        return WebhookEventRecord(id: id, type: postedTransactionType, body: body)
    }

    /// `notification` with its event, to be stored with it.
    public static func attached(to notification: NotificationRecord) -> NotificationRecord {
        var notification = notification
        notification.webhookEvent = make(notification: notification)
        return notification
    }

    /// `posted` with its event, to be stored with it.
    public static func attached(to posted: PostedTransaction) -> PostedTransaction {
        var posted = posted
        posted.webhookEvent = make(posted: posted)
        return posted
    }

    /// `evt_` and the first 16 bytes of SHA-256(`cause`) in hex.
    static func eventID(_ cause: String) -> String {
        "evt_"
            + SHA256.hash(data: Array(cause.utf8)).prefix(16).map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined()
    }

    /// Apple's status (1–5) of an auto-renewable subscription after the event, at its signed
    /// date (`SubscriptionStatus`); nil for anything else.
    static func status(_ transaction: NotificationTransaction?, renewal: SignedRenewalFacts?, at time: Int64) -> Int? {
        guard let facts = transaction?.signed, facts.type == "Auto-Renewable Subscription" else { return nil }
        return SubscriptionStatus(last: facts, renewal: renewal, at: time).rawValue
    }

    static func body(
        id: String, type: String, subtype: String?, environment: String, bundleID: String, notificationUUID: String?, signedDate: Int64,
        transaction t: NotificationTransaction?, renewal: SignedRenewalFacts?, signedPayload: String
    ) -> String {
        let text: (String?) -> String = { $0.map(APIJSON.quoted) ?? "null" }
        let number: (Int64?) -> String = { $0.map { String($0) } ?? "null" }
        let members: [(String, String)] = [
            ("id", text(id)), ("type", text(type)), ("subtype", text(subtype)), ("environment", text(environment)),
            ("bundleId", text(bundleID)), ("notificationUUID", text(notificationUUID)), ("signedDate", number(signedDate)),
            ("originalTransactionId", text(t?.originalTransactionID)), ("transactionId", text(t?.transactionID)),
            ("productId", text(t?.productID)), ("appAccountToken", text(t?.signed?.appAccountToken)),
            ("status", number(status(t, renewal: renewal, at: signedDate).map(Int64.init))),
            ("expiresDate", number(t?.signed?.expiresMilliseconds)), ("signedPayload", text(signedPayload)),
        ]
        return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
