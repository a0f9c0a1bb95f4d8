import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A configuration file (`--config`) read as JSON and checked key by key: every error names the
/// file, and a wrong value also the key and the type the key takes. String values never appear
/// in a message (an `app` value holds a shared secret, a `database` URL a password).
struct ConfigFile {
    let path: String
    let values: [String: JSONValue]

    /// Reads and parses the file; refuses a file that is not a JSON object, and any key that is
    /// not one of `ServerConfiguration.fileKeys`.
    init(path: String) throws(ConfigurationError) {
        self.path = path
        let data = try FileContents.read(path)
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .invalidFile(path, "not JSON (\(Self.syntaxError(data)))")
        }
        guard case .object(let values) = value else {
            throw .invalidFile(path, #"expected a JSON object of options, such as {"port": 8080}, not "# + value.kind)
        }
        if let unknown = values.keys.sorted().first(where: { !ServerConfiguration.fileKeys.contains($0) }) {
            throw .unknownKey(file: path, key: unknown, suggestion: Self.suggestion(for: unknown))
        }
        self.values = values
    }

    /// A string value; nil when absent or null.
    func string(_ key: String) throws(ConfigurationError) -> String? {
        switch values[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw mismatch(key, "a string", other)
        }
    }

    /// A whole number.
    func integer(_ key: String) throws(ConfigurationError) -> Int? {
        switch values[key] {
        case nil, .null?: return nil
        case .integer(let number)?: return number
        case let other?: throw mismatch(key, "an integer", other)
        }
    }

    /// A number, whole or not.
    func number(_ key: String) throws(ConfigurationError) -> Double? {
        switch values[key] {
        case nil, .null?: return nil
        case .integer(let number)?: return Double(number)
        case .number(let number)?: return number
        case let other?: throw mismatch(key, "a number", other)
        }
    }

    /// `true` or `false`.
    func bool(_ key: String) throws(ConfigurationError) -> Bool? {
        switch values[key] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        case let other?: throw mismatch(key, "true or false", other)
        }
    }

    /// A list of strings; one string is a list of one (`"root": "ca.der"`).
    func strings(_ key: String) throws(ConfigurationError) -> [String]? {
        let expected = "a list of strings (or one string)"
        switch values[key] {
        case nil, .null?: return nil
        case .string(let text)?: return [text]
        case .array(let items)?:
            var strings: [String] = []
            for item in items {
                guard case .string(let text) = item else { throw mismatch(key, expected, .array(items), item: item) }
                strings.append(text)
            }
            return strings
        case let other?: throw mismatch(key, expected, other)
        }
    }

    private func mismatch(_ key: String, _ expected: String, _ found: JSONValue, item: JSONValue? = nil) -> ConfigurationError {
        .invalidType(file: path, key: key, expected: expected, found: item.map { "a list holding \($0.kind)" } ?? found.kind)
    }

    /// The known key closest to `key` (same letters up to case, `_` for `-`, or at most two
    /// edits away), if one is.
    static func suggestion(for key: String) -> String? {
        let normalized = key.lowercased().replacingOccurrences(of: "_", with: "-")
        if ServerConfiguration.fileKeys.contains(normalized) { return normalized }
        let best = ServerConfiguration.fileKeys.map { ($0, distance(normalized, $0)) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= 2 else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var row = Array(0 ... b.count)
        for i in 1 ... a.count {
            var diagonal = row[0]
            row[0] = i
            for j in 1 ... b.count {
                let above = row[j]
                row[j] = min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }

    /// Where and why `data` is not JSON, in a few words (`unexpected end of file`, `invalid
    /// value around character 12, line 2`), as Foundation's parser says it.
    static func syntaxError(_ data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return "not one JSON value"
        } catch {
            var text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "unreadable"
            if text.hasSuffix(".") { text.removeLast() }
            text = text.prefix(1).lowercased() + text.dropFirst()
            if let range = text.range(of: "character "), let offset = Int(text[range.upperBound...].prefix { $0.isNumber }),
                offset <= data.count
            {
                text += ", line \(data.prefix(offset).count { $0 == UInt8(ascii: "\n") } + 1)"
            }
            return text
        }
    }
}
