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
    /// own (`data.bundleId`, `commitmentInfo.commitmentExpiresDate`), and so an array's objects
    /// (`advancedCommerceInfo.items[0].refunds[0].refundDate`), up to `maxDepth` levels down;
    /// dates (names ending in `Date`, milliseconds) as dates, other values (arrays of strings,
    /// deeper objects) as compact JSON. A member named in `decoded` is a token shown on its own.
    static func rows(payload object: [String: Any], decoded: Set<String> = []) -> [[String: String]] {
        var rows: [[String: String]] = []
        append(object, under: "", depth: 1, decoded: decoded, to: &rows)
        return rows
    }

    /// Levels of objects the rows open: Apple's deepest members so far are four down
    /// (`advancedCommerceInfo.items[0].refunds[0].refundDate`).
    static let maxDepth = 6

    /// `object`'s members as rows named `prefix` + name, in name order.
    private static func append(
        _ object: [String: Any], under prefix: String, depth: Int, decoded: Set<String>, to rows: inout [[String: String]]
    ) {
        for name in object.keys.sorted() {
            let path = prefix + name
            let value = object[name]!
            if decoded.contains(path) {
                rows.append(["name": path, "value": "signed token, decoded below"])
            } else if depth < maxDepth, let members = value as? [String: Any], !members.isEmpty {
                append(members, under: path + ".", depth: depth + 1, decoded: decoded, to: &rows)
            } else if depth < maxDepth, let elements = objects(value) {
                for (index, members) in elements.enumerated() {
                    append(members, under: path + "[\(index)].", depth: depth + 1, decoded: decoded, to: &rows)
                }
            } else {
                rows.append(row(path, value))
            }
        }
    }

    /// `value`'s elements when it is an array of objects, none empty; nil for anything else.
    private static func objects(_ value: Any) -> [[String: Any]]? {
        guard let elements = value as? [Any], !elements.isEmpty else { return nil }
        let objects = elements.compactMap { $0 as? [String: Any] }
        return objects.count == elements.count && objects.allSatisfy { !$0.isEmpty } ? objects : nil
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
