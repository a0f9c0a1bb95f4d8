import AppReceipt
import Foundation

/// The rows of the inspector's field tables: `name` and `value`, or for a date `name`, `utc`,
/// `los_angeles` (Apple's texts) and `ms` (milliseconds since 1970, for the page's short dates).
enum InspectionFields {
    /// Rows from `receipt verify --json`'s `receipt` object: each field once, in `ReceiptJSON`'s
    /// order (its `in_app` is the purchase table's).
    static func rows(receiptObject: String) -> [[String: String]] {
        guard let object = object(Data(receiptObject.utf8)) else { return [] }
        let known = InspectionReport.receiptFieldOrder.filter { object[$0] != nil }
        let others = object.keys.filter { key in
            !known.contains(key) && key != "in_app" && !key.hasSuffix("_ms") && !key.hasSuffix("_pst")
        }.sorted()
        return (known + others).map { name in
            guard let pacific = object[name + "_pst"] as? String else { return ["name": name, "value": "\(object[name] ?? "")"] }
            var row = ["name": name, "utc": "\(object[name] ?? "")", "los_angeles": pacific]
            row["ms"] = object[name + "_ms"] as? String
            return row
        }
    }

    /// Rows from a signed payload's members, sorted by name: an object's members as rows of their
    /// own (`data.bundleId`), dates (names ending in `Date`, milliseconds) as dates, other objects
    /// and arrays as compact JSON. A member named in `decoded` is a token shown on its own.
    static func rows(payload object: [String: Any], decoded: Set<String> = []) -> [[String: String]] {
        var rows: [[String: String]] = []
        for name in object.keys.sorted() {
            guard let members = object[name] as? [String: Any], !members.isEmpty else {
                rows.append(row(name, object[name]!))
                continue
            }
            for member in members.keys.sorted() {
                let path = name + "." + member
                rows.append(decoded.contains(path) ? ["name": path, "value": "signed token, decoded below"] : row(path, members[member]!))
            }
        }
        return rows
    }

    static func row(_ name: String, _ value: Any) -> [String: String] {
        if name.hasSuffix("Date"), let milliseconds = InspectionDate.milliseconds(value) {
            let date = Date(millisecondsSince1970: milliseconds)
            return ["name": name, "utc": AppleDateFormat.gmt(date), "los_angeles": AppleDateFormat.pacific(date), "ms": String(milliseconds)]
        }
        if let number = value as? NSNumber, InspectionDate.isBoolean(number) {
            return ["name": name, "value": number.boolValue ? "true" : "false"]
        }
        if JSONSerialization.isValidJSONObject(value),
            let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        {
            return ["name": name, "value": String(decoding: data, as: UTF8.self)]
        }
        return ["name": name, "value": "\(value)"]
    }

    /// The string members one level down (`data.signedTransactionInfo`) that look like compact
    /// JWS tokens, by path.
    static func tokens(in object: [String: Any]) -> [(path: String, name: String, token: String)] {
        var tokens: [(path: String, name: String, token: String)] = []
        for name in object.keys.sorted() {
            guard let members = object[name] as? [String: Any] else { continue }
            for member in members.keys.sorted() {
                guard let token = members[member] as? String, token.hasPrefix("eyJ"), token.count(where: { $0 == "." }) == 2 else { continue }
                tokens.append((name + "." + member, member, token))
            }
        }
        return tokens
    }

    /// `data` as a JSON object, or nil.
    static func object(_ data: Data) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }
}
