import Foundation

/// The fields of a hosted-validator request: `apikey`, `token`, `receipt` (base64), sent as a
/// form (`application/x-www-form-urlencoded`, as the reference's sample code does) or as a JSON
/// object. A field of another JSON type than string counts as absent.
struct HostedRequest: Sendable, Equatable {
    var apiKey: String?
    var token: String?
    var receipt: String?

    /// Parses `body` by its content type: JSON for `application/json` (and for a body starting
    /// with `{` when no type is given), a form otherwise. Nil when it is neither a form nor a JSON
    /// object (21000).
    init?(body: Data, contentType: String?) {
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        let looksLikeJSON = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
        if type == "application/json" || (type == nil && looksLikeJSON) {
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
            apiKey = object["apikey"] as? String
            token = object["token"] as? String
            receipt = object["receipt"] as? String
        } else {
            guard let fields = Self.form(body) else { return nil }
            apiKey = fields["apikey"]
            token = fields["token"]
            receipt = fields["receipt"]
        }
    }

    /// `name=value&…` with percent-escapes (WHATWG URL §5.1), except that `+` stays `+`: the
    /// reference's sample code posts base64 without escaping it, and base64's `+` must survive
    /// (none of the three fields ever holds a space). The first occurrence of a name wins. Nil
    /// when the body is not UTF-8 or an escape is broken.
    static func form(_ body: Data) -> [String: String]? {
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts[0].removingPercentEncoding,
                let value = parts.count == 2 ? parts[1].removingPercentEncoding : ""
            else { return nil }
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }
}
