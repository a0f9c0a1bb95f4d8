import AppReceipt
import JSONText

/// The two key formats one transaction has in `verifyReceipt` answers: an app receipt's `in_app`
/// entry (`expires_date` formatted, `expires_date_ms`) and a transaction receipt's purchase-info
/// (`expires_date` in milliseconds, `expires_date_formatted`). A server that keeps both kinds of
/// receipt for one subscription stores one format and answers each kind in its own.
extension TransactionReceiptJSON {
    /// The transaction as an app receipt's `in_app` entry, in `ReceiptJSON`'s key order; every
    /// date as the triple `X`, `X_ms`, `X_pst` computed from the milliseconds.
    public static func inAppObject(_ receipt: TransactionReceipt) -> String {
        var json = JSONWriter()
        json.beginObject()
        if let quantity = receipt.quantity { json.string("quantity", String(quantity)) }
        json.string("product_id", receipt.productIdentifier)
        json.string("transaction_id", receipt.transactionIdentifier)
        json.string("original_transaction_id", receipt.originalTransactionIdentifier ?? receipt.transactionIdentifier)
        date("purchase_date", receipt.purchaseDate, &json)
        if let original = receipt.originalPurchaseDate { date("original_purchase_date", original, &json) }
        if let expires = receipt.expiresDate { date("expires_date", expires, &json) }
        if let id = receipt.webOrderLineItemIdentifier { json.string("web_order_line_item_id", id) }
        if let flag = receipt.isTrialPeriod { json.string("is_trial_period", flag ? "true" : "false") }
        if let flag = receipt.isInIntroOfferPeriod { json.string("is_in_intro_offer_period", flag ? "true" : "false") }
        json.endObject()
        return json.text
    }

    /// An `in_app`-format object's text (string members) in the purchase-info key format, `bid`
    /// first: the renamed members (`expires_date_ms` → `expires_date`, `expires_date` →
    /// `expires_date_formatted`, `expires_date_pst` → `expires_date_formatted_pst`) and every
    /// other string member as it is. Nil when `inApp` is not a JSON object.
    public static func purchaseInfoObject(inApp: String, bundleIdentifier: String) -> String? {
        let value = try? JSONReader<JSONError>.document(Array(inApp.utf8)) { (reader) throws(JSONError) in try reader.readValue() }
        guard case .object(let members)? = value else { return nil }
        var strings: [String: String] = [:]
        for member in members { if case .string(let value) = member.value { strings[member.name] = value } }
        var json = JSONWriter()
        json.beginObject()
        json.string("bid", bundleIdentifier)
        var written: Set<String> = ["bid"]
        for key in inAppKeyOrder + members.map({ $0.name }).sorted() where written.insert(key).inserted {
            guard let value = strings[key] else { continue }
            json.string(purchaseInfoNames[key] ?? key, value)
        }
        json.endObject()
        return json.text
    }

    /// `in_app` keys whose purchase-info name differs.
    static let purchaseInfoNames = [
        "expires_date_ms": "expires_date", "expires_date": "expires_date_formatted", "expires_date_pst": "expires_date_formatted_pst",
    ]

    /// The order `purchaseInfoObject` writes known keys in; others follow sorted.
    static let inAppKeyOrder = [
        "quantity", "product_id", "transaction_id", "original_transaction_id", "purchase_date", "purchase_date_ms",
        "purchase_date_pst", "original_purchase_date", "original_purchase_date_ms", "original_purchase_date_pst",
        "expires_date_ms", "expires_date", "expires_date_pst", "cancellation_date", "cancellation_date_ms",
        "cancellation_date_pst", "web_order_line_item_id", "is_trial_period", "is_in_intro_offer_period",
    ]

    /// `X`, `X_ms`, `X_pst` for a purchase-info date.
    static func date(_ key: String, _ value: TransactionDate, _ json: inout JSONWriter) {
        json.string(key, AppleDateFormat.gmt(millisecondsSince1970: value.milliseconds))
        json.string(key + "_ms", String(value.milliseconds))
        json.string(key + "_pst", AppleDateFormat.pacific(millisecondsSince1970: value.milliseconds))
    }
}
