@testable import AppStoreJWS
import Testing

/// The JSON reader: RFC 8259's grammar, no duplicate or escaped member names, bounded depth.
@Suite struct JSONReaderTests {
    static func value(_ text: String) throws -> JSONValue {
        try JSONReader.document(Array(text.utf8)) { reader in try reader.readValue() }
    }

    static func error(_ text: String) -> JSONError.Kind? {
        error(Array(text.utf8))
    }

    static func error(_ bytes: [UInt8]) -> JSONError.Kind? {
        #expect(throws: JSONError.self) { _ = try JSONReader.document(bytes) { reader in try reader.skipValue() } }?.kind
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

    @Test func canonicallyEquivalentUnknownNamesAreDuplicates() {
        // "é" precomposed and decomposed: distinct bytes, one Swift string.
        let payload = Array("{\"caf\u{E9}\":1,\"cafe\u{301}\":2}".utf8)
        let error = #expect(throws: JWSPayloadError.self) { _ = try JWSTransactionDecodedPayload(payload: payload) }
        guard case .json(let json) = error, case .duplicateMemberName = json.kind else {
            Issue.record("expected a duplicate member name, got \(String(describing: error))")
            return
        }
    }

    @Test func escapedMemberNamesAreRefused() {
        // "bundle\u0049d" spells bundleId; byte comparison would miss the duplicate.
        #expect(Self.error(#"{"bundleId":"a","bundle\u0049d":"b"}"#) == .escapedMemberName)
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: JSONReader.maxDepth) + String(repeating: "]", count: JSONReader.maxDepth)
        _ = try Self.value(deep)
        let tooDeep = "[" + deep + "]"
        #expect(Self.error(tooDeep) == .tooDeep)
        #expect(Self.error(String(repeating: "[", count: 100_000)) == .tooDeep)
    }

    @Test func memberCountIsBounded() throws {
        let members = (0 ..< JSONReader.maxMembers).map { "\"k\($0)\":0" }
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

    @Test func typedMembersReadTheirKindOnly() throws {
        let payload = Array(#"{"quantity":"1"}"#.utf8)
        #expect(throws: JWSPayloadError.invalidMember(name: "quantity", expected: "an integer")) {
            _ = try JWSTransactionDecodedPayload(payload: payload)
        }
        #expect(throws: JWSPayloadError.invalidMember(name: "quantity", expected: "an integer")) {
            _ = try JWSTransactionDecodedPayload(payload: Array(#"{"quantity":1.5}"#.utf8))
        }
        #expect(throws: JWSPayloadError.invalidMember(name: "purchaseDate", expected: "milliseconds since 1970")) {
            _ = try JWSTransactionDecodedPayload(payload: Array(#"{"purchaseDate":1e12}"#.utf8))
        }
        #expect(throws: JWSPayloadError.invalidMember(name: "data", expected: "an object")) {
            _ = try ResponseBodyV2DecodedPayload(payload: Array(#"{"data":[]}"#.utf8))
        }
        let nulls = try JWSTransactionDecodedPayload(payload: Array(#"{"bundleId":null,"quantity":null}"#.utf8))
        #expect(nulls.bundleId == nil && nulls.quantity == nil)
    }

    @Test func millisecondsRoundDown() throws {
        func date(_ text: String) throws -> Int64? {
            try JWSTransactionDecodedPayload(payload: Array("{\"purchaseDate\":\(text)}".utf8)).purchaseDate?.value
        }
        #expect(try date("1697679936049.7297") == 1_697_679_936_049)
        #expect(try date("-1.5") == -2)
        #expect(try date("-2.0") == -2)
        #expect(try date("-62135769600000") == -62_135_769_600_000)
        #expect(throws: JWSPayloadError.self) { _ = try date("9223372036854775808") }
        #expect(UnixMilliseconds(-1).seconds == -1)
        #expect(UnixMilliseconds(1999).seconds == 1)
        #expect(UnixMilliseconds(-1000).seconds == -1)
        #expect(UnixMilliseconds(-1001).seconds == -2)
        // Within a second of Int64.min: rounding down must not overflow (a signed payload may say so).
        #expect(UnixMilliseconds(.min).seconds == Int64.min / 1000 - 1)
        #expect(UnixMilliseconds(.min + 807).seconds == Int64.min / 1000 - 1)   // -9223372036854775.001 s
        #expect(UnixMilliseconds(.min + 808).seconds == Int64.min / 1000)   // exactly -9223372036854775 s
        #expect(UnixMilliseconds(.max).seconds == Int64.max / 1000)
    }

    @Test func unknownMembersAreKeptAsSigned() throws {
        let transaction = try JWSTransactionDecodedPayload(payload: Array(#"{"transactionId":"1","newField":{"n":12345678901234567890}}"#.utf8))
        #expect(transaction.additionalFields["newField"] == .object([.init(name: "n", value: .number("12345678901234567890"))]))
    }

    @Test func payloadKindsAreRecognised() {
        #expect(SignedPayloadKind(payload: Array(#"{"notificationType":"TEST"}"#.utf8)) == .notification)
        #expect(SignedPayloadKind(payload: Array(#"{"transactionId":"1"}"#.utf8)) == .transaction)
        #expect(SignedPayloadKind(payload: Array(#"{"autoRenewStatus":1}"#.utf8)) == .renewalInfo)
        #expect(SignedPayloadKind(payload: Array(#"{"receiptType":"Xcode"}"#.utf8)) == .appTransaction)
        #expect(SignedPayloadKind(payload: Array("null".utf8)) == .unknown)
        #expect(SignedPayloadKind(payload: Array("{".utf8)) == .unknown)
    }
}
