/// A strict RFC 8259 reader over UTF-8 bytes that decodes as it reads, in the style of the DER
/// reader: each call consumes one value and hands nested ones to a closure, so a typed decoder
/// builds only what it keeps. Objects are visited member by member in document order.
///
/// Beyond RFC 8259 it refuses what would let two readers disagree about a signed payload:
/// duplicate member names and member names written with escapes. Nesting is bounded by
/// `maxDepth`, object size by `maxMembers`; every loop consumes input, so reading is linear.
///
/// Errors are typed: `Failure` is what the caller's visitors throw (`JSONError` itself, or a
/// decoder's error that wraps one), and the reader's own errors become `Failure(jsonError)`.
/// Generic and `@inlinable` so that each decoder gets a specialised reader (and Embedded Swift,
/// which has no `any Error`, can compile it).
@frozen
package struct JSONReader<Failure: JSONReadFailure> {
    /// Deepest nesting of objects and arrays accepted (Apple's payloads nest three levels).
    package static var maxDepth: Int { 32 }
    /// Most members in one object (Apple's payloads have fewer than 50; the bound also keeps the
    /// duplicate-name check linear in practice).
    package static var maxMembers: Int { 512 }

    package let bytes: [UInt8]
    package private(set) var position: Int
    package var depth = 0
    /// The member names of the objects being read, innermost last: one buffer for the whole
    /// document, so reading an object allocates nothing of its own.
    package var names: [Range<Int>] = []

    @inlinable
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        position = 0
    }

    /// Reads one whole document: `body` reads the top-level value, then only whitespace may follow.
    @inlinable
    package static func document<T>(_ bytes: [UInt8], _ body: (inout JSONReader) throws(Failure) -> T) throws(Failure) -> T {
        var reader = JSONReader(bytes)
        let value = try body(&reader)
        reader.skipWhitespace()
        guard reader.position == bytes.count else { throw Failure(JSONError(.trailingData, at: reader.position)) }
        return value
    }

    /// The kind of the next value, without consuming it.
    @inlinable
    package mutating func peekKind() throws(Failure) -> JSONValue.Kind {
        skipWhitespace()
        guard position < bytes.count else { throw Failure(JSONError(.unexpectedEnd, at: position)) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): return .number
        case let byte: throw Failure(JSONError(.unexpectedByte(byte), at: position))
        }
    }

    // MARK: Containers

    /// Reads an object (RFC 8259 §4), calling `member` with each name; `member` must consume the
    /// member's value through the reader it is given.
    @inlinable
    package mutating func readObject(_ member: (JSONName, inout JSONReader) throws(Failure) -> Void) throws(Failure) {
        try enter(UInt8(ascii: "{"))
        let first = names.count
        defer { names.removeSubrange(first...) }
        skipWhitespace()
        if try consumeIf(UInt8(ascii: "}")) { return leave() }
        repeat {
            skipWhitespace()
            let name = try readName()
            guard names.count - first < Self.maxMembers else { throw Failure(JSONError(.tooManyMembers, at: name.lowerBound)) }
            for earlier in names[first...] where bytes[earlier].elementsEqual(bytes[name]) {
                throw Failure(JSONError(.duplicateMemberName(String(decoding: bytes[name], as: UTF8.self)), at: name.lowerBound))
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
    @inlinable
    package mutating func readArray(_ element: (inout JSONReader) throws(Failure) -> Void) throws(Failure) {
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

    @inlinable
    package mutating func enter(_ opener: UInt8) throws(Failure) {
        skipWhitespace()
        try expect(opener)
        depth += 1
        guard depth <= Self.maxDepth else { throw Failure(JSONError(.tooDeep, at: position - 1)) }
    }

    @inlinable
    package mutating func leave() { depth -= 1 }

    /// A member name: a string without escapes (see `JSONError.Kind.escapedMemberName`).
    @inlinable
    package mutating func readName() throws(Failure) -> Range<Int> {
        let start = position
        let (range, escaped) = try scanString()
        if escaped { throw Failure(JSONError(.escapedMemberName, at: start)) }
        return range
    }

    // MARK: Scalars

    /// A string value, unescaped (RFC 8259 §7) and checked to be UTF-8 (§8.1).
    @inlinable
    package mutating func readString() throws(Failure) -> String {
        skipWhitespace()
        let (range, escaped) = try scanString()
        guard escaped else { return String(decoding: bytes[range], as: UTF8.self) }   // validated by the scan
        do throws(JSONError) {
            return try JSONStringUnescaper.unescape(bytes[range])
        } catch {
            throw Failure(error)
        }
    }

    /// `true` or `false`.
    @inlinable
    package mutating func readBool() throws(Failure) -> Bool {
        skipWhitespace()
        if try consumeLiteral("true") { return true }
        if try consumeLiteral("false") { return false }
        throw Failure(JSONError(.unexpectedByte(position < bytes.count ? bytes[position] : 0), at: position))
    }

    /// Consumes `null` when it comes next; otherwise consumes nothing.
    @inlinable
    package mutating func readNullIfPresent() throws(Failure) -> Bool {
        skipWhitespace()
        return try consumeLiteral("null")
    }

    /// The text of a number (RFC 8259 §6), as written.
    @inlinable
    package mutating func readNumberText() throws(Failure) -> Substring {
        skipWhitespace()
        let range = try scanNumber()
        return Substring(decoding: bytes[range], as: UTF8.self)
    }

    /// Any value, consumed and validated; returns its byte range.
    @inlinable @discardableResult
    package mutating func skipValue() throws(Failure) -> Range<Int> {
        let kind = try peekKind()
        let start = position
        switch kind {
        case .object: try readObject { (_, reader) throws(Failure) in try reader.skipValue() }
        case .array: try readArray { (reader) throws(Failure) in try reader.skipValue() }
        case .string: _ = try scanString()
        case .number: _ = try scanNumber()
        case .bool: _ = try readBool()
        case .null: _ = try readNullIfPresent()
        }
        return start ..< position
    }

    // MARK: Scanning

    @inlinable
    package mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1   // RFC 8259 §2: ws
            default: return
            }
        }
    }

    @inlinable
    package mutating func consumeIf(_ byte: UInt8) throws(Failure) -> Bool {
        guard position < bytes.count else { throw Failure(JSONError(.unexpectedEnd, at: position)) }
        guard bytes[position] == byte else { return false }
        position += 1
        return true
    }

    @inlinable
    package mutating func expect(_ byte: UInt8) throws(Failure) {
        guard try consumeIf(byte) else { throw Failure(JSONError(.unexpectedByte(bytes[position]), at: position)) }
    }

    @inlinable
    package mutating func consumeLiteral(_ literal: StaticString) throws(Failure) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position < bytes.count, bytes[position] == literal.utf8Start[0] else { return false }
        guard position + count <= bytes.count else { throw Failure(JSONError(.unexpectedEnd, at: bytes.count)) }
        for index in 0 ..< count where bytes[position + index] != literal.utf8Start[index] {
            throw Failure(JSONError(.unexpectedByte(bytes[position + index]), at: position + index))
        }
        position += count
        return true
    }

    /// Consumes a string; returns the range between the quotes and whether it holds escapes.
    /// Checks the escapes' shape, control characters and UTF-8 (RFC 8259 §7, §8.1; RFC 3629 §4).
    @inlinable
    package mutating func scanString() throws(Failure) -> (Range<Int>, escaped: Bool) {
        guard position < bytes.count else { throw Failure(JSONError(.unexpectedEnd, at: position)) }
        guard bytes[position] == UInt8(ascii: "\"") else { throw Failure(JSONError(.unexpectedByte(bytes[position]), at: position)) }
        position += 1
        let start = position
        var escaped = false
        while true {
            position = JSONPlainRun.end(in: bytes, from: position)
            guard position < bytes.count else { throw Failure(JSONError(.unexpectedEnd, at: position)) }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return (start ..< position - 1, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                do throws(JSONError) {
                    position = try JSONStringUnescaper.skipEscape(bytes, at: position)
                } catch {
                    throw Failure(error)
                }
            case 0x00 ..< 0x20:
                throw Failure(JSONError(.unescapedControlCharacter, at: position))
            default:   // a lead byte of a multi-byte scalar
                do throws(JSONError) {
                    position = try UTF8Scalar.skip(bytes, at: position)
                } catch {
                    throw Failure(error)
                }
            }
        }
    }

    /// Consumes a number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` (RFC 8259 §6).
    @inlinable
    package mutating func scanNumber() throws(Failure) -> Range<Int> {
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
            throw Failure(JSONError(.invalidNumber, at: start))
        }
        if next(self) == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw Failure(JSONError(.invalidNumber, at: start)) }
        }
        if next(self) == UInt8(ascii: "e") || next(self) == UInt8(ascii: "E") {
            position += 1
            if next(self) == UInt8(ascii: "+") || next(self) == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw Failure(JSONError(.invalidNumber, at: start)) }
        }
        return start ..< position
    }
}

/// A member name as it appears in the document (never escaped), matched against literals
/// without allocating: `switch name { case "bundleId": … }`.
package struct JSONName {
    package let bytes: [UInt8]
    package let range: Range<Int>

    @inlinable
    init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.range = range
    }

    /// The name as a string.
    package var string: String { String(decoding: bytes[range], as: UTF8.self) }

    @inlinable
    package static func ~= (pattern: StaticString, name: JSONName) -> Bool {
        let count = pattern.utf8CodeUnitCount
        guard name.range.count == count else { return false }
        let start = pattern.utf8Start
        for index in 0 ..< count where name.bytes[name.range.lowerBound + index] != start[index] { return false }
        return true
    }
}
