import JSONText

/// Why an authentic payload is not the typed value asked for.
public enum JWSPayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The payload is JSON but not an object (Apple has signed the literal `null`).
    case notAnObject(JSONValue.Kind)
    /// A documented member holds a value of another type (e.g. `quantity` not an integer).
    case invalidMember(name: String, expected: String)
    /// The payload is not JSON (only when decoding bytes that were not verified first).
    case json(JSONError)

    public var description: String {
        switch self {
        case .notAnObject(let kind): "payload is a JSON \(kind), not an object"
        case .invalidMember(let name, let expected): "member \"\(name)\" is not \(expected)"
        case .json(let error): "not JSON: \(error)"
        }
    }
}
