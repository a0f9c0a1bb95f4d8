/// A JSON value as it was signed: what this module keeps of members it has no typed field for,
/// and of header parameters other than `alg` and `x5c`. Numbers keep their text, so no precision
/// is lost (milliseconds, 64-bit ids).
public indirect enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number exactly as written (RFC 8259 §6 grammar).
    case number(String)
    /// A string, its escapes decoded.
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// Members in document order (names are unique: the reader refuses duplicates).
    case object([Member])

    /// One object member.
    public struct Member: Sendable, Hashable {
        /// The member's name.
        public var name: String
        /// The member's value.
        public var value: JSONValue

        /// Makes a member.
        public init(name: String, value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    /// The six JSON value kinds (RFC 8259 §3).
    public enum Kind: Sendable, Hashable {
        /// Object, array, string, number, `true`/`false`, `null`.
        case object, array, string, number, bool, null
    }

    /// This value's kind.
    public var kind: Kind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// The value of member `name`, when this is an object that has it.
    public subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }
}

extension JSONReader {
    /// Any value, built as a `JSONValue`.
    @inlinable
    package mutating func readValue() throws(Failure) -> JSONValue {
        switch try peekKind() {
        case .object:
            var members: [JSONValue.Member] = []
            try readObject { (name, reader) throws(Failure) in members.append(.init(name: name.string, value: try reader.readValue())) }
            return .object(members)
        case .array:
            var elements: [JSONValue] = []
            try readArray { (reader) throws(Failure) in elements.append(try reader.readValue()) }
            return .array(elements)
        case .string: return .string(try readString())
        case .number: return .number(String(try readNumberText()))
        case .bool: return .bool(try readBool())
        case .null:
            _ = try readNullIfPresent()
            return .null
        }
    }
}
