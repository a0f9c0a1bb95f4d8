/// A JSON value as the configuration file holds it.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .integer(number)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// What the value is, for a message: its type, and the value itself for numbers and booleans
    /// (never a string's text).
    var kind: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return "\(flag)"
        case .integer(let number): return "a number (\(number))"
        case .number(let number): return "a number (\(number))"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}
