/// A strict RFC 8259 reader over UTF-8 bytes that decodes as it reads, in the style of the DER
/// reader: each call consumes one value and hands nested ones to a closure, so a typed decoder
/// builds only what it keeps. Objects are visited member by member in document order.
///
/// Beyond RFC 8259 it refuses what would let two readers disagree about a signed payload:
/// duplicate member names and member names written with escapes. Nesting is bounded by
/// `maxDepth`, object size by `maxMembers`; every loop consumes input, so reading is linear.
struct JSONReader {
    /// Deepest nesting of objects and arrays accepted (Apple's payloads nest three levels).
    static let maxDepth = 32
    /// Most members in one object (Apple's payloads have fewer than 50; the bound also keeps the
    /// duplicate-name check linear in practice).
    static let maxMembers = 512

    let bytes: [UInt8]
    private(set) var position: Int
    private var depth = 0
    /// The member names of the objects being read, innermost last: one buffer for the whole
    /// document, so reading an object allocates nothing of its own.
    private var names: [Range<Int>] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        position = 0
    }

    /// Reads one whole document: `body` reads the top-level value, then only whitespace may follow.
    static func document<T>(_ bytes: [UInt8], _ body: (inout JSONReader) throws -> T) throws -> T {
        var reader = JSONReader(bytes)
        let value = try body(&reader)
        reader.skipWhitespace()
        guard reader.position == bytes.count else { throw JSONError(.trailingData, at: reader.position) }
        return value
    }

    /// The kind of the next value, without consuming it.
    mutating func peekKind() throws -> JSONValue.Kind {
        skipWhitespace()
        guard position < bytes.count else { throw JSONError(.unexpectedEnd, at: position) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): return .number
        case let byte: throw JSONError(.unexpectedByte(byte), at: position)
        }
    }

    // MARK: Containers

    /// Reads an object (RFC 8259 §4), calling `member` with each name; `member` must consume the
    /// member's value through the reader it is given.
    mutating func readObject(_ member: (JSONName, inout JSONReader) throws -> Void) throws {
        try enter(UInt8(ascii: "{"))
        let first = names.count
        defer { names.removeSubrange(first...) }
        skipWhitespace()
        if try consumeIf(UInt8(ascii: "}")) { return leave() }
        repeat {
            skipWhitespace()
            let name = try readName()
            guard names.count - first < Self.maxMembers else { throw JSONError(.tooManyMembers, at: name.lowerBound) }
            for earlier in names[first...] where bytes[earlier].elementsEqual(bytes[name]) {
                throw JSONError(.duplicateMemberName(String(decoding: bytes[name], as: UTF8.self)), at: name.lowerBound)
            }
            names.append(name)
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            let valueStart = position
            try member(JSONName(bytes: bytes, range: name), &self)
            precondition(position > valueStart, "a member visitor must consume the value")
            skipWhitespace()
        } while try consumeIf(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
        leave()
    }

    /// Reads an array (RFC 8259 §5), calling `element` once per element; `element` must consume it.
    mutating func readArray(_ element: (inout JSONReader) throws -> Void) throws {
        try enter(UInt8(ascii: "["))
        skipWhitespace()
        if try consumeIf(UInt8(ascii: "]")) { return leave() }
        repeat {
            let start = position
            try element(&self)
            precondition(position > start, "an element visitor must consume the element")
            skipWhitespace()
        } while try consumeIf(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
        leave()
    }

    private mutating func enter(_ opener: UInt8) throws {
        skipWhitespace()
        try expect(opener)
        depth += 1
        guard depth <= Self.maxDepth else { throw JSONError(.tooDeep, at: position - 1) }
    }

    private mutating func leave() { depth -= 1 }

    /// A member name: a string without escapes (see `JSONError.Kind.escapedMemberName`).
    private mutating func readName() throws -> Range<Int> {
        let start = position
        let (range, escaped) = try scanString()
        if escaped { throw JSONError(.escapedMemberName, at: start) }
        return range
    }

    // MARK: Scalars

    /// A string value, unescaped (RFC 8259 §7) and checked to be UTF-8 (§8.1).
    mutating func readString() throws -> String {
        skipWhitespace()
        let (range, escaped) = try scanString()
        guard escaped else { return String(decoding: bytes[range], as: UTF8.self) }   // validated by the scan
        return try JSONStringUnescaper.unescape(bytes[range])
    }

    /// `true` or `false`.
    mutating func readBool() throws -> Bool {
        skipWhitespace()
        if try consumeLiteral("true") { return true }
        if try consumeLiteral("false") { return false }
        throw JSONError(.unexpectedByte(position < bytes.count ? bytes[position] : 0), at: position)
    }

    /// Consumes `null` when it comes next; otherwise consumes nothing.
    mutating func readNullIfPresent() throws -> Bool {
        skipWhitespace()
        return try consumeLiteral("null")
    }

    /// The text of a number (RFC 8259 §6), as written.
    mutating func readNumberText() throws -> Substring {
        skipWhitespace()
        let range = try scanNumber()
        return Substring(decoding: bytes[range], as: UTF8.self)
    }

    /// Any value, consumed and validated; returns its byte range.
    @discardableResult
    mutating func skipValue() throws -> Range<Int> {
        let kind = try peekKind()
        let start = position
        switch kind {
        case .object: try readObject { _, reader in try reader.skipValue() }
        case .array: try readArray { reader in try reader.skipValue() }
        case .string: _ = try scanString()
        case .number: _ = try scanNumber()
        case .bool: _ = try readBool()
        case .null: _ = try readNullIfPresent()
        }
        return start ..< position
    }

    // MARK: Scanning

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1   // RFC 8259 §2: ws
            default: return
            }
        }
    }

    private mutating func consumeIf(_ byte: UInt8) throws -> Bool {
        guard position < bytes.count else { throw JSONError(.unexpectedEnd, at: position) }
        guard bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard try consumeIf(byte) else { throw JSONError(.unexpectedByte(bytes[position]), at: position) }
    }

    private mutating func consumeLiteral(_ literal: StaticString) throws -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position < bytes.count, bytes[position] == literal.utf8Start[0] else { return false }
        guard position + count <= bytes.count else { throw JSONError(.unexpectedEnd, at: bytes.count) }
        for index in 0 ..< count where bytes[position + index] != literal.utf8Start[index] {
            throw JSONError(.unexpectedByte(bytes[position + index]), at: position + index)
        }
        position += count
        return true
    }

    /// Consumes a string; returns the range between the quotes and whether it holds escapes.
    /// Checks the escapes' shape, control characters and UTF-8 (RFC 8259 §7, §8.1; RFC 3629 §4).
    private mutating func scanString() throws -> (Range<Int>, escaped: Bool) {
        guard position < bytes.count else { throw JSONError(.unexpectedEnd, at: position) }
        guard bytes[position] == UInt8(ascii: "\"") else { throw JSONError(.unexpectedByte(bytes[position]), at: position) }
        position += 1
        let start = position
        var escaped = false
        while true {
            position = JSONPlainRun.end(in: bytes, from: position)
            guard position < bytes.count else { throw JSONError(.unexpectedEnd, at: position) }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return (start ..< position - 1, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                position = try JSONStringUnescaper.skipEscape(bytes, at: position)
            case 0x00 ..< 0x20:
                throw JSONError(.unescapedControlCharacter, at: position)
            default:   // a lead byte of a multi-byte scalar
                position = try UTF8Scalar.skip(bytes, at: position)
            }
        }
    }

    /// Consumes a number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` (RFC 8259 §6).
    private mutating func scanNumber() throws -> Range<Int> {
        let start = position
        func digits(_ reader: inout JSONReader) -> Int {
            let first = reader.position
            while reader.position < reader.bytes.count, (0x30 ... 0x39).contains(reader.bytes[reader.position]) { reader.position += 1 }
            return reader.position - first
        }
        func next(_ reader: JSONReader) -> UInt8? { reader.position < reader.bytes.count ? reader.bytes[reader.position] : nil }
        if next(self) == UInt8(ascii: "-") { position += 1 }
        if next(self) == UInt8(ascii: "0") {
            position += 1
        } else if digits(&self) == 0 {
            throw JSONError(.invalidNumber, at: start)
        }
        if next(self) == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw JSONError(.invalidNumber, at: start) }
        }
        if next(self) == UInt8(ascii: "e") || next(self) == UInt8(ascii: "E") {
            position += 1
            if next(self) == UInt8(ascii: "+") || next(self) == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw JSONError(.invalidNumber, at: start) }
        }
        return start ..< position
    }
}

/// A member name as it appears in the document (never escaped), matched against literals
/// without allocating: `switch name { case "bundleId": … }`.
struct JSONName {
    let bytes: [UInt8]
    let range: Range<Int>

    /// The name as a string.
    var string: String { String(decoding: bytes[range], as: UTF8.self) }

    static func ~= (pattern: StaticString, name: JSONName) -> Bool {
        let count = pattern.utf8CodeUnitCount
        guard name.range.count == count else { return false }
        let start = pattern.utf8Start
        for index in 0 ..< count where name.bytes[name.range.lowerBound + index] != start[index] { return false }
        return true
    }
}
