import JSONText

/// `verifyReceipt`'s response shape: `{"status": 0, "environment": …, "receipt": {…}}` with
/// Apple's key names and value types (numbers for the app identifiers, strings elsewhere, each
/// date three times, absent values left out).
public enum ReceiptJSON: Sendable {
    /// `verifyReceipt` status codes.
    public enum Status: Int64, Sendable {
        /// The receipt is valid.
        case valid = 0
        /// The receipt data was malformed.
        case malformed = 21002
        /// The receipt could not be authenticated.
        case notAuthenticated = 21003
    }

    /// The full response for a decoded (and, for status 0 from `verify`, validated) receipt.
    public static func response(_ receipt: AppReceipt) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.integer("status", Status.valid.rawValue)
        json.string("environment", receipt.environment.verifyReceiptName)
        writeReceipt(receipt, &json)
        json.endObject()
        return json.text
    }

    /// The response for a failure: only the status.
    public static func failure(_ status: Status) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.integer("status", status.rawValue)
        json.endObject()
        return json.text
    }

    /// The `receipt` object alone, as `response` nests it (for servers that add keys around it),
    /// with at most `maxPurchases` of its `in_app` objects (the first ones; all by default).
    public static func receiptObject(_ receipt: AppReceipt, maxPurchases: Int = .max) -> String {
        var json = JSONWriter()
        writeReceipt(receipt, key: nil, maxPurchases: maxPurchases, &json)
        return json.text
    }

    /// One `in_app` object, as `response` lists it (for `latest_receipt_info`).
    public static func purchaseObject(_ purchase: InAppPurchase) -> String {
        var json = JSONWriter()
        writePurchase(purchase, &json)
        return json.text
    }

    /// `value` as a JSON string literal, quotes included, escaped as every string of these
    /// answers is (RFC 8259 §7): for servers that add members of their own beside them.
    public static func quoted(_ value: String) -> String {
        var text = ""
        JSONWriter.appendQuoted(value, to: &text)
        return text
    }

    static func writeReceipt(_ r: AppReceipt, key: String? = "receipt", maxPurchases: Int = .max, _ json: inout JSONWriter) {
        json.beginObject(key)
        json.string("receipt_type", r.environment.rawValue)
        if let id = r.appItemIdentifier {
            json.integer("adam_id", id)
            json.integer("app_item_id", id)
        }
        json.string("bundle_id", r.bundleIdentifier)
        json.string("application_version", r.appVersion)
        if let id = r.downloadIdentifier { json.integer("download_id", id) }
        if let id = r.versionExternalIdentifier { json.integer("version_external_identifier", id) }
        date("receipt_creation_date", r.creationDateMilliseconds, &json)
        date("original_purchase_date", r.originalPurchaseDateMilliseconds, &json)
        if let version = r.originalAppVersion { json.string("original_application_version", version) }
        date("expiration_date", r.expirationDateMilliseconds, &json)
        json.beginArray("in_app")
        for purchase in r.inAppPurchases.prefix(maxPurchases) { writePurchase(purchase, &json) }
        json.endArray()
        json.endObject()
    }

    static func writePurchase(_ p: InAppPurchase, _ json: inout JSONWriter) {
        json.beginObject()
        if let quantity = p.quantity { json.string("quantity", String(quantity)) }
        json.string("product_id", p.productIdentifier)
        json.string("transaction_id", p.transactionIdentifier)
        if let id = p.originalTransactionIdentifier { json.string("original_transaction_id", id) }
        date("purchase_date", p.purchaseDateMilliseconds, &json)
        date("original_purchase_date", p.originalPurchaseDateMilliseconds, &json)
        date("expires_date", p.subscriptionExpirationDateMilliseconds, &json)
        date("cancellation_date", p.cancellationDateMilliseconds, &json)
        if let id = p.webOrderLineItemIdentifier { json.string("web_order_line_item_id", String(id)) }
        if let flag = p.isTrialPeriod { json.string("is_trial_period", flag ? "true" : "false") }
        if let flag = p.isInIntroOfferPeriod { json.string("is_in_intro_offer_period", flag ? "true" : "false") }
        if let id = p.promotionalOfferIdentifier { json.string("promotional_offer_id", id) }
        json.endObject()
    }

    /// `X`, `X_ms`, `X_pst`; nothing when the date is absent.
    static func date(_ key: String, _ milliseconds: Int64?, _ json: inout JSONWriter) {
        guard let milliseconds else { return }
        json.string(key, AppleDateFormat.gmt(millisecondsSince1970: milliseconds))
        json.string(key + "_ms", String(milliseconds))
        json.string(key + "_pst", AppleDateFormat.pacific(millisecondsSince1970: milliseconds))
    }
}
