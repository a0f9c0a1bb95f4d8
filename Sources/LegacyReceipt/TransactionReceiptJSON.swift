import AppReceipt
import JSONText

/// `verifyReceipt`'s answer for a transaction receipt: `{"status": 0, "receipt": {…}}`, where
/// `receipt` holds the purchase-info keys in their order with `-` turned into `_`, and the same
/// string values.
public enum TransactionReceiptJSON: Sendable {
    /// The full response for a decoded (and, for `verify`, verified) receipt. Failures use
    /// `ReceiptJSON.failure` (21002 malformed, 21003 not authenticated).
    public static func response(_ receipt: TransactionReceipt) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.integer("status", ReceiptJSON.Status.valid.rawValue)
        write(receipt, key: "receipt", &json)
        json.endObject()
        return json.text
    }

    /// The `receipt` object alone (for servers that add `latest_receipt_info` and others beside it).
    public static func receiptObject(_ receipt: TransactionReceipt) -> String {
        var json = JSONWriter()
        write(receipt, key: nil, &json)
        return json.text
    }

    /// A purchase-info key as verifyReceipt named it: `purchase-date-ms` → `purchase_date_ms`.
    public static func jsonKey(_ key: String) -> String {
        String(key.map { $0 == "-" ? "_" : $0 })
    }

    static func write(_ receipt: TransactionReceipt, key: String?, _ json: inout JSONWriter) {
        json.beginObject(key)
        for entry in receipt.purchaseInfo.entries { json.string(jsonKey(entry.key), entry.value) }
        json.endObject()
    }
}
