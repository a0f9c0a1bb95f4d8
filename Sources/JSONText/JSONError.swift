/// Why bytes are not the JSON this module accepts: RFC 8259 with no duplicate member names and no
/// escapes in member names, within `JSONReader`'s depth and size bounds. `offset` is the byte
/// where reading failed, counted from the start of the decoded part.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Kinds of JSON this module refuses.
    public enum Kind: Sendable, Hashable {
        /// The input ended inside a value.
        case unexpectedEnd
        /// A byte that cannot start or continue the value being read (RFC 8259 §2).
        case unexpectedByte(UInt8)
        /// A number outside RFC 8259 §6's grammar (leading zeros, a bare `-`, `1.`, …).
        case invalidNumber
        /// A string escape other than RFC 8259 §7's, or a lone UTF-16 surrogate in `\u` escapes.
        case invalidEscape
        /// A control character (below U+0020) inside a string, which must be escaped (§7).
        case unescapedControlCharacter
        /// A string that is not well-formed UTF-8 (RFC 8259 §8.1).
        case invalidUTF8
        /// A member name with an escape: names are compared byte for byte, so an escaped spelling
        /// of a known name (`bundle\u0049d`) could otherwise slip past the duplicate check.
        case escapedMemberName
        /// The same member name twice in one object (RFC 7515 §5.2 lets a recipient reject these,
        /// and we do: two readers must never see two different values).
        case duplicateMemberName(String)
        /// Objects and arrays nested deeper than `JSONReader.maxDepth`.
        case tooDeep
        /// More members in one object than `JSONReader.maxMembers`.
        case tooManyMembers
        /// Something other than whitespace after the value.
        case trailingData
    }

    /// What was wrong.
    public let kind: Kind
    /// Offset of the byte at fault.
    public let offset: Int

    /// Makes an error of `kind` at byte `offset` of the decoded part.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String { "offset \(offset): \(kind.reason)" }
}

extension JSONError.Kind {
    /// One line saying what is wrong.
    public var reason: String {
        switch self {
        case .unexpectedEnd: "unexpected end of JSON"
        case .unexpectedByte(let byte): "unexpected byte 0x\(String(byte, radix: 16))"
        case .invalidNumber: "invalid number"
        case .invalidEscape: "invalid string escape"
        case .unescapedControlCharacter: "control character in a string"
        case .invalidUTF8: "string is not valid UTF-8"
        case .escapedMemberName: "member name with an escape"
        case .duplicateMemberName(let name): "duplicate member name \"\(name)\""
        case .tooDeep: "nested too deeply"
        case .tooManyMembers: "too many members in one object"
        case .trailingData: "data after the JSON value"
        }
    }
}
