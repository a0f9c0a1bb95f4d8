import Yams

/// The OpenAPI document of receipt-server (`Server/openapi.yaml`, compiled into the executable
/// by SwiftPM's `embedInCode`: `Sources/ReceiptServer/OpenAPI/openapi.yaml` is a link to it, so
/// the file in the repository is the one source). The YAML is served as it is; the JSON is the
/// same document converted once, with the YAML's key order kept.
enum OpenAPIDocument {
    /// The YAML text, byte for byte the file's.
    static let yaml: [UInt8] = PackageResources.openapi_yaml

    /// The YAML as text (the file is UTF-8, so its bytes are served unchanged).
    static let yamlText = String(decoding: yaml, as: UTF8.self)

    /// The same document as JSON (nil only if the YAML does not parse: `OpenAPIDocumentTests` fails then).
    static let json: String? = {
        guard let node = try? Yams.compose(yaml: String(decoding: yaml, as: UTF8.self)) else { return nil }
        var text = ""
        write(node, into: &text)
        return text
    }()

    /// Writes `node` as JSON: mappings in their order, scalars by their resolved YAML tag.
    static func write(_ node: Node, into text: inout String) {
        switch node {
        case .mapping(let mapping):
            text += "{"
            for (index, pair) in mapping.enumerated() {
                if index > 0 { text += "," }
                quote(pair.key.string ?? "", into: &text)
                text += ":"
                write(pair.value, into: &text)
            }
            text += "}"
        case .sequence(let sequence):
            text += "["
            for (index, element) in sequence.enumerated() {
                if index > 0 { text += "," }
                write(element, into: &text)
            }
            text += "]"
        case .scalar(let scalar):
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case .null: text += "null"
            case .bool: text += node.bool.map { $0 ? "true" : "false" } ?? "null"
            case .int: text += node.int.map(String.init) ?? scalar.string
            case .float: text += node.float.map { "\($0)" } ?? scalar.string
            default: quote(scalar.string, into: &text)
            }
        case .alias:
            text += "null"
        }
    }

    /// A JSON string literal.
    static func quote(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
