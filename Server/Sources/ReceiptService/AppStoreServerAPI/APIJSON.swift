import AppReceipt

/// The App Store Server API's bodies written by hand: they are mostly long JWS strings passed
/// through, so a builder that appends is faster than an encoder and keeps member order.
enum APIJSON {
    /// A JSON string (`ReceiptJSON`'s escaping). A JWS (base64url and dots) needs none: it is
    /// copied whole.
    static func quoted(_ value: String) -> String {
        var text = ""
        append(quoted: value, to: &text)
        return text
    }

    /// Appends `value` as a JSON string to `text`.
    static func append(quoted value: String, to text: inout String) {
        var value = value
        let plain = value.withUTF8 { utf8 in
            utf8.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
        if plain {
            text += "\""
            text += value
            text += "\""
        } else {
            text += ReceiptJSON.quoted(value)
        }
    }

    /// `[a,b,…]` of already-encoded values.
    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// `{"k":v,…}` of already-encoded values; members whose value is nil are left out.
    static func object(_ members: KeyValuePairs<String, String?>) -> String {
        var text = "{"
        var first = true
        for (key, value) in members {
            guard let value else { continue }
            if !first { text += "," }
            first = false
            text += quoted(key) + ":" + value
        }
        return text + "}"
    }

    /// `true` / `false`.
    static func bool(_ value: Bool) -> String { value ? "true" : "false" }
}
