import AppStoreJWS
import Foundation

/// A signed token inside a notification's `data` (`signedTransactionInfo`, `signedRenewalInfo`),
/// decoded for the page: the kind and fields of its payload, and for a transaction its badges.
/// Its own signature is not checked: the notification's signature covers the token's text, and
/// the report's verdict is the notification's.
struct InspectionNestedToken {
    /// Where the token is, `data.signedTransactionInfo`.
    let path: String
    /// Its member name, `signedTransactionInfo`.
    let name: String
    let payloadKind: SignedPayloadKind
    let rows: [[String: String]]
    /// The transaction, when the token carries one.
    let purchase: InspectionPurchase?

    /// Nil when `token` is not a compact JWS whose payload is a JSON object.
    init?(path: String, name: String, token: String) {
        guard let jws = try? CompactJWS(token), let object = InspectionFields.object(Data(jws.payload)) else { return nil }
        self.path = path
        self.name = name
        payloadKind = SignedPayloadKind(payload: jws.payload)
        rows = InspectionFields.rows(payload: object)
        purchase = InspectionPurchase(transaction: object)
    }

    /// One member of the report's `nested`: `name`, `path`, `payload_kind`, `verified` (false:
    /// decoded only), `fields`, and for a transaction `badges` at `now`.
    func object(now: Int64) -> [String: Any] {
        var object: [String: Any] = ["name": name, "path": path, "payload_kind": payloadKind.rawValue, "verified": false, "fields": rows]
        object["badges"] = purchase.map { InspectionSummary.badges($0, upgraded: $0.upgraded, now: now) }
        return object
    }
}
