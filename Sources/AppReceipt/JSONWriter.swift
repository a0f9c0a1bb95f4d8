/// A minimal JSON writer that keeps keys in the order given (Apple's order), escapes strings per
/// RFC 8259 §7, and writes integers exactly.
struct JSONWriter {
    private(set) var text = ""
    private var needsComma = [false]

    mutating func beginObject(_ key: String? = nil) { open(key, "{") }
    mutating func endObject() { close("}") }
    mutating func beginArray(_ key: String? = nil) { open(key, "[") }
    mutating func endArray() { close("]") }

    mutating func string(_ key: String?, _ value: String) {
        separator(key)
        Self.appendQuoted(value, to: &text)
    }

    mutating func integer(_ key: String?, _ value: Int64) {
        separator(key)
        text += String(value)
    }

    private mutating func open(_ key: String?, _ bracket: String) {
        separator(key)
        text += bracket
        needsComma.append(false)
    }

    private mutating func close(_ bracket: String) {
        needsComma.removeLast()
        text += bracket
    }

    private mutating func separator(_ key: String?) {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
        if let key {
            Self.appendQuoted(key, to: &text)
            text += ":"
        }
    }

    static func appendQuoted(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{0}" ..< "\u{20}":
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
