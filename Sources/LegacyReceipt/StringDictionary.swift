import DER

/// A dictionary of strings in the NeXTSTEP ("old-style") property-list syntax that iOS 6
/// transaction receipts use: `{ "key" = "value"; … }`. Keys keep the order they had in the text.
///
/// The grammar accepted is deliberately the receipts' own and nothing more: a `{`, then any number
/// of `"key" = "value";` entries, then `}`, with spaces, tabs, carriage returns and line feeds
/// between tokens. Strings are double-quoted and hold valid UTF-8; the only escapes are `\"` and
/// `\\`. Unquoted words, nested dictionaries or arrays, comments, other escapes, duplicate keys and
/// text after the closing brace are refused, each with its own `StringDictionaryError` and the
/// byte offset where it was found.
public struct StringDictionary: Sendable, Hashable {
    /// The entries in the order of the text.
    public let entries: [Entry]

    /// One `"key" = "value";` entry.
    public struct Entry: Sendable, Hashable {
        /// The key, unescaped.
        public let key: String
        /// The value, unescaped.
        public let value: String
        /// Offset of the key's opening quote in the parsed text.
        public let offset: Int

        /// An entry as a writer or test makes it.
        public init(key: String, value: String, offset: Int) {
            self.key = key
            self.value = value
            self.offset = offset
        }
    }

    /// Texts longer than this are refused before parsing. The largest real transaction receipt
    /// text is under 6 KB (a version 3 signature with its 1.5 KB certificate is about 2.7 KB of
    /// base64, a subscription's purchase-info about 2.5 KB), so 64 KiB leaves ten times that and
    /// bounds the work and memory any input can cost.
    public static let maxTextSize = 64 * 1024

    /// Dictionaries with more entries than this are refused. Receipts hold 5 outer keys and up to
    /// about 25 purchase-info keys; 256 leaves room for keys Apple might add while keeping the
    /// duplicate-key check (a set of the keys seen) small.
    public static let maxKeys = 256

    /// The value of `key`, if present.
    public subscript(key: String) -> String? {
        entries.first { $0.key == key }?.value
    }

    /// The keys in text order.
    public var keys: [String] { entries.map { $0.key } }

    /// Builds a dictionary from entries (for writers and tests); keys must be distinct.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Parses `text` (UTF-8 bytes) under the grammar above.
    public init(parsing text: [UInt8]) throws(StringDictionaryError) {
        guard text.count <= Self.maxTextSize else { throw .tooLarge(count: text.count) }
        var parser = Parser(text: text)
        entries = try parser.dictionary()
    }

    /// The text of this dictionary in the same syntax, one tab-indented entry per line, as iOS
    /// wrote it (`"` and `\` escaped in keys and values).
    public var text: String {
        var result = "{\n"
        for entry in entries {
            result += "\t" + Self.quoted(entry.key) + " = " + Self.quoted(entry.value) + ";\n"
        }
        return result + "}"
    }

    /// `value` between double quotes with `"` and `\` escaped.
    public static func quoted(_ value: String) -> String {
        var result = "\""
        for character in value {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }
}

/// Why a text is not a dictionary of strings in the receipts' syntax. `offset` is the byte offset
/// in the text.
public enum StringDictionaryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is longer than `StringDictionary.maxTextSize`.
    case tooLarge(count: Int)
    /// More entries than `StringDictionary.maxKeys`.
    case tooManyKeys(offset: Int)
    /// The text does not start (after whitespace) with `{`.
    case expectedDictionary(offset: Int)
    /// A `{` or `(` where a string belongs: nested dictionaries and arrays are not part of the syntax.
    case nestedDictionary(offset: Int)
    /// A string whose closing quote never comes.
    case unterminatedString(offset: Int)
    /// A backslash followed by anything other than `"` or `\`.
    case invalidEscape(offset: Int)
    /// A string that is not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// A quote followed directly by more text: a `"` inside a string that was not escaped.
    case unescapedQuote(offset: Int)
    /// A byte of 0x80 or above outside a quoted string (unquoted words are not part of the syntax).
    case nonASCII(offset: Int)
    /// Any other byte where the grammar wants something else (`expected` names it).
    case unexpectedCharacter(offset: Int, expected: String)
    /// The text ends before the closing `}`.
    case unexpectedEnd(offset: Int)
    /// A key appears twice.
    case duplicateKey(String, offset: Int)
    /// Text other than whitespace after the closing `}`.
    case trailingText(offset: Int)

    /// The byte offset the error names (for `tooLarge`, the limit).
    public var offset: Int {
        switch self {
        case .tooLarge: return StringDictionary.maxTextSize
        case .tooManyKeys(let offset), .expectedDictionary(let offset), .nestedDictionary(let offset),
            .unterminatedString(let offset), .invalidEscape(let offset), .invalidUTF8(let offset),
            .unescapedQuote(let offset), .nonASCII(let offset), .unexpectedCharacter(let offset, _),
            .unexpectedEnd(let offset), .duplicateKey(_, let offset), .trailingText(let offset):
            return offset
        }
    }

    public var description: String {
        switch self {
        case .tooLarge(let count): return "dictionary text of \(count) bytes exceeds \(StringDictionary.maxTextSize)"
        case .tooManyKeys(let offset): return "offset \(offset): more than \(StringDictionary.maxKeys) keys"
        case .expectedDictionary(let offset): return "offset \(offset): expected '{'"
        case .nestedDictionary(let offset): return "offset \(offset): nested dictionaries and arrays are not allowed"
        case .unterminatedString(let offset): return "offset \(offset): unterminated string"
        case .invalidEscape(let offset): return "offset \(offset): only \\\" and \\\\ escapes are allowed"
        case .invalidUTF8(let offset): return "offset \(offset): string is not valid UTF-8"
        case .unescapedQuote(let offset): return "offset \(offset): unescaped quote inside a string"
        case .nonASCII(let offset): return "offset \(offset): non-ASCII byte outside a quoted string"
        case .unexpectedCharacter(let offset, let expected): return "offset \(offset): expected \(expected)"
        case .unexpectedEnd(let offset): return "offset \(offset): text ends before the closing '}'"
        case .duplicateKey(let key, let offset): return "offset \(offset): duplicate key \"\(key)\""
        case .trailingText(let offset): return "offset \(offset): text after the closing '}'"
        }
    }
}

/// The recursive-descent reader: one pass, no backtracking, linear in the text.
private struct Parser {
    let text: [UInt8]
    var position = 0

    init(text: [UInt8]) {
        self.text = text
    }

    mutating func dictionary() throws(StringDictionaryError) -> [StringDictionary.Entry] {
        skipWhitespace()
        guard position < text.count else { throw .expectedDictionary(offset: position) }
        guard text[position] == UInt8(ascii: "{") else { throw unexpected(expected: "'{'", dictionary: false) }
        position += 1
        var entries: [StringDictionary.Entry] = []
        var seen: Set<String> = []
        while true {
            skipWhitespace()
            guard position < text.count else { throw .unexpectedEnd(offset: position) }
            if text[position] == UInt8(ascii: "}") {
                position += 1
                break
            }
            let keyOffset = position
            guard entries.count < StringDictionary.maxKeys else { throw .tooManyKeys(offset: keyOffset) }
            let key = try string()
            try expect(UInt8(ascii: "="), "'='")
            let value = try string()
            try expect(UInt8(ascii: ";"), "';'")
            guard seen.insert(key).inserted else { throw .duplicateKey(key, offset: keyOffset) }
            entries.append(StringDictionary.Entry(key: key, value: value, offset: keyOffset))
        }
        skipWhitespace()
        guard position == text.count else { throw .trailingText(offset: position) }
        return entries
    }

    /// A quoted string, after optional whitespace.
    mutating func string() throws(StringDictionaryError) -> String {
        skipWhitespace()
        guard position < text.count else { throw .unexpectedEnd(offset: position) }
        guard text[position] == UInt8(ascii: "\"") else { throw unexpected(expected: "a quoted string", dictionary: true) }
        let start = position
        position += 1
        var bytes: [UInt8] = []
        while true {
            guard position < text.count else { throw .unterminatedString(offset: start) }
            let byte = text[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                guard position + 1 < text.count else { throw .unterminatedString(offset: start) }
                let escaped = text[position + 1]
                guard escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") else { throw .invalidEscape(offset: position) }
                bytes.append(escaped)
                position += 2
                continue
            }
            bytes.append(byte)
            position += 1
        }
        let closing = position
        position += 1
        // A closing quote must be followed by a separator; anything else means the string went on
        // past a quote its writer did not escape.
        if position < text.count, !Self.isWhitespace(text[position]),
            ![UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: "}")].contains(text[position])
        {
            throw .unescapedQuote(offset: closing)
        }
        guard let value = UTF8Validation.string(bytes) else { throw .invalidUTF8(offset: start) }
        return value
    }

    mutating func expect(_ byte: UInt8, _ name: String) throws(StringDictionaryError) {
        skipWhitespace()
        guard position < text.count else { throw .unexpectedEnd(offset: position) }
        guard text[position] == byte else { throw unexpected(expected: name, dictionary: false) }
        position += 1
    }

    /// The error for the byte at `position`, which is not what the grammar wants.
    func unexpected(expected: String, dictionary: Bool) -> StringDictionaryError {
        let byte = text[position]
        if byte >= 0x80 { return .nonASCII(offset: position) }
        if dictionary, byte == UInt8(ascii: "{") || byte == UInt8(ascii: "(") { return .nestedDictionary(offset: position) }
        return .unexpectedCharacter(offset: position, expected: expected)
    }

    mutating func skipWhitespace() {
        while position < text.count, Self.isWhitespace(text[position]) { position += 1 }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
