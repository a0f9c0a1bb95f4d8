@testable import JSONText
import Testing

/// The JSON reader: RFC 8259's grammar, no duplicate or escaped member names, bounded depth.
@Suite struct JSONReaderTests {
    static func value(_ text: String) throws -> JSONValue {
        try JSONReader<JSONError>.document(Array(text.utf8)) { (reader) throws(JSONError) in try reader.readValue() }
    }

    static func error(_ text: String) -> JSONError.Kind? {
        error(Array(text.utf8))
    }

    static func error(_ bytes: [UInt8]) -> JSONError.Kind? {
        #expect(throws: JSONError.self) { _ = try JSONReader<JSONError>.document(bytes) { (reader) throws(JSONError) in try reader.skipValue() } }?
            .kind
    }

    @Test func valuesOfEveryKindRead() throws {
        let value = try Self.value(#" {"a": [1, -0.5e+3, true, false, null], "b": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "c": {}} "#)
        #expect(
            value
                == .object([
                    .init(name: "a", value: .array([.number("1"), .number("-0.5e+3"), .bool(true), .bool(false), .null])),
                    .init(name: "b", value: .string("x\"\\/\u{8}\u{C}\n\r\t\u{E9}\u{1F600}")),
                    .init(name: "c", value: .object([])),
                ]))
        #expect(value["b"] == .string("x\"\\/\u{8}\u{C}\n\r\t\u{E9}\u{1F600}"))
        #expect(try Self.value("[]") == .array([]))
        #expect(try Self.value("\"é\"") == .string("é"))
    }

    @Test(arguments: ["01", "-", "1.", ".5", "1e", "+1", "0x10", "1.e5", "--1", "Infinity", "NaN"])
    func numbersOutsideTheGrammarAreRefused(text: String) {
        let kind = Self.error(text)
        #expect(kind == .invalidNumber || kind == .trailingData || kind.map { if case .unexpectedByte = $0 { true } else { false } } == true)
    }

    @Test func escapesAreChecked() {
        #expect(Self.error(#""\x""#) == .invalidEscape)
        #expect(Self.error(#""\u12G4""#) == .invalidEscape)
        #expect(Self.error(#""\ud83d""#) == .invalidEscape)   // lone high surrogate
        #expect(Self.error(#""\ude00""#) == .invalidEscape)   // lone low surrogate
        #expect(Self.error(#""\ud83d\u0041""#) == .invalidEscape)   // high surrogate, then no low one
        #expect(Self.error("\"\u{1}\"") == .unescapedControlCharacter)
        #expect(Self.error("\"\n\"") == .unescapedControlCharacter)
    }

    @Test func stringsMustBeUTF8() {
        let cases: [[UInt8]] = [
            [0x22, 0xFF, 0x22],   // not a lead byte
            [0x22, 0xC0, 0xAF, 0x22],   // overlong '/'
            [0x22, 0xE0, 0x80, 0xAF, 0x22],   // overlong 3-byte
            [0x22, 0xED, 0xA0, 0x80, 0x22],   // UTF-16 surrogate D800
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],   // above U+10FFFF
            [0x22, 0xE2, 0x82, 0x22],   // truncated
            [0x22, 0xC3],   // truncated at the end
        ]
        for bytes in cases {
            #expect(Self.error(bytes) == .invalidUTF8, "\(bytes)")
        }
    }

    @Test func duplicateMemberNamesAreRefused() {
        #expect(Self.error(#"{"a":1,"b":2,"a":3}"#) == .duplicateMemberName("a"))
        #expect(Self.error(#"{"x":{"a":1,"a":1}}"#) == .duplicateMemberName("a"))
    }

    @Test func escapedMemberNamesAreRefused() {
        // "bundle\u0049d" spells bundleId; byte comparison would miss the duplicate.
        #expect(Self.error(#"{"bundleId":"a","bundle\u0049d":"b"}"#) == .escapedMemberName)
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: JSONReader<JSONError>.maxDepth) + String(repeating: "]", count: JSONReader<JSONError>.maxDepth)
        _ = try Self.value(deep)
        let tooDeep = "[" + deep + "]"
        #expect(Self.error(tooDeep) == .tooDeep)
        #expect(Self.error(String(repeating: "[", count: 100_000)) == .tooDeep)
    }

    @Test func memberCountIsBounded() throws {
        let members = (0 ..< JSONReader<JSONError>.maxMembers).map { "\"k\($0)\":0" }
        _ = try Self.value("{" + members.joined(separator: ",") + "}")
        #expect(Self.error("{" + (members + ["\"over\":0"]).joined(separator: ",") + "}") == .tooManyMembers)
    }

    @Test func malformedStructureIsRefused() {
        #expect(Self.error("") == .unexpectedEnd)
        #expect(Self.error("{") == .unexpectedEnd)
        #expect(Self.error(#"{"a" 1}"#) == .unexpectedByte(UInt8(ascii: "1")))
        #expect(Self.error(#"{"a":1,}"#) == .unexpectedByte(UInt8(ascii: "}")))
        #expect(Self.error("[1,]") == .unexpectedByte(UInt8(ascii: "]")))
        #expect(Self.error("[1 2]") == .unexpectedByte(UInt8(ascii: "2")))
        #expect(Self.error("{1:2}") == .unexpectedByte(UInt8(ascii: "1")))
        #expect(Self.error("tru") == .unexpectedEnd)
        #expect(Self.error("nul1") == .unexpectedByte(UInt8(ascii: "1")))
        #expect(Self.error("{} {}") == .trailingData)
        #expect(Self.error("\"a") == .unexpectedEnd)
    }
}
