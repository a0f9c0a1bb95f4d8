import JSONText

/// A time as App Store signed data writes it: milliseconds since 1970, UTC.
public struct UnixMilliseconds: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let value: Int64

    /// Wraps milliseconds since 1970-01-01T00:00:00Z.
    public init(_ value: Int64) { self.value = value }

    /// Whole seconds since 1970, rounded down (what certificate validity is compared with).
    /// Floor division written so that no step overflows: `(value - 999) / 1000` would trap for
    /// times within a second of `Int64.min`, which a signed payload may hold.
    public var seconds: Int64 { value >= 0 ? value / 1000 : (value + 1) / 1000 - 1 }

    public static func < (a: UnixMilliseconds, b: UnixMilliseconds) -> Bool { a.value < b.value }

    public var description: String { String(value) }
}

/// The reader of payload decoders: its syntax errors and the decoders' own are `JWSPayloadError`.
typealias PayloadReader = JSONReader<JWSPayloadError>

extension JWSPayloadError: JSONReadFailure {
    /// A syntax or bounds error of the payload's JSON.
    package init(_ error: JSONError) { self = .json(error) }
}

/// Typed reads of object members for the payload decoders. `null` reads as absent; a value of
/// another type is `JWSPayloadError.invalidMember`, naming the member.
extension JSONReader<JWSPayloadError> {
    /// A string member.
    mutating func string(_ name: JSONName) throws(JWSPayloadError) -> String? {
        if try readNullIfPresent() { return nil }
        guard try peekKind() == .string else { throw JWSPayloadError.invalidMember(name: name.string, expected: "a string") }
        return try readString()
    }

    /// A Boolean member.
    mutating func bool(_ name: JSONName) throws(JWSPayloadError) -> Bool? {
        if try readNullIfPresent() { return nil }
        guard try peekKind() == .bool else { throw JWSPayloadError.invalidMember(name: name.string, expected: "a Boolean") }
        return try readBool()
    }

    /// An integer member: an integer literal in Int64's range (no fraction, no exponent).
    mutating func int64(_ name: JSONName) throws(JWSPayloadError) -> Int64? {
        if try readNullIfPresent() { return nil }
        guard try peekKind() == .number, let value = Int64(try readNumberText()) else {
            throw JWSPayloadError.invalidMember(name: name.string, expected: "an integer")
        }
        return value
    }

    /// A time in milliseconds since 1970. Apple writes integers; Xcode's StoreKit testing writes
    /// fractions (`1697679936049.7297`), which are rounded down to the millisecond. Exponents and
    /// values outside Int64 are refused.
    mutating func milliseconds(_ name: JSONName) throws(JWSPayloadError) -> UnixMilliseconds? {
        if try readNullIfPresent() { return nil }
        let invalid = JWSPayloadError.invalidMember(name: name.string, expected: "milliseconds since 1970")
        guard try peekKind() == .number else { throw invalid }
        let text = try readNumberText()
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = Int64(parts[0]) else { throw invalid }
        guard parts.count == 2 else { return UnixMilliseconds(whole) }
        guard parts[1].allSatisfy({ $0.isNumber }) else { throw invalid }
        // Round toward −∞: a negative time with a non-zero fraction lies below its whole part.
        let hasFraction = parts[1].contains { $0 != "0" }
        guard !(hasFraction && text.hasPrefix("-")) else {
            guard whole > .min else { throw invalid }
            return UnixMilliseconds(whole - 1)
        }
        return UnixMilliseconds(whole)
    }

    /// An array of strings.
    mutating func strings(_ name: JSONName) throws(JWSPayloadError) -> [String]? {
        if try readNullIfPresent() { return nil }
        let invalid = JWSPayloadError.invalidMember(name: name.string, expected: "an array of strings")
        guard try peekKind() == .array else { throw invalid }
        var values: [String] = []
        try readArray { (reader) throws(JWSPayloadError) in
            guard try reader.peekKind() == .string else { throw invalid }
            values.append(try reader.readString())
        }
        return values
    }

    /// An array of objects, each read by `make`; an element that is not an object (`null`
    /// included) is `invalidMember`.
    mutating func objects<T>(_ name: JSONName, _ make: (inout PayloadReader) throws(JWSPayloadError) -> T) throws(JWSPayloadError) -> [T]? {
        if try readNullIfPresent() { return nil }
        let invalid = JWSPayloadError.invalidMember(name: name.string, expected: "an array of objects")
        guard try peekKind() == .array else { throw invalid }
        var values: [T] = []
        try readArray { (reader) throws(JWSPayloadError) in
            guard try reader.peekKind() == .object else { throw invalid }
            values.append(try make(&reader))
        }
        return values
    }
}

extension JSONReader {
    /// A member no typed field covers, kept as signed. The reader has refused names that repeat
    /// byte for byte; Swift strings compare by canonical equivalence, so two spellings of one
    /// Unicode name (`é` as U+00E9 and as e + U+0301) would share one key and one value would be
    /// lost: such a pair is a duplicate too.
    mutating func keep(_ name: JSONName, in fields: inout [String: JSONValue]) throws(Failure) {
        let key = name.string
        guard fields[key] == nil else { throw Failure(JSONError(.duplicateMemberName(key), at: name.range.lowerBound)) }
        fields[key] = try readValue()
    }
}

/// Reading a whole payload as one object.
enum PayloadObject {
    /// Visits the members of the JSON object `payload`. A payload that is JSON but not an object
    /// is `notAnObject`; JSON errors become `JWSPayloadError.json`.
    static func read(_ payload: [UInt8], _ member: (JSONName, inout PayloadReader) throws(JWSPayloadError) -> Void) throws(JWSPayloadError) {
        try PayloadReader.document(payload) { (reader) throws(JWSPayloadError) in
            let kind = try reader.peekKind()
            guard kind == .object else { throw JWSPayloadError.notAnObject(kind) }
            try reader.readObject(member)
        }
    }
}
