import Foundation
import LegacyReceipt
import ReceiptTestSupport
import Testing

func parse(_ text: String) throws(StringDictionaryError) -> StringDictionary {
    try StringDictionary(parsing: Array(text.utf8))
}

func parseError(_ text: String) -> StringDictionaryError? {
    parseError(Array(text.utf8))
}

func parseError(_ bytes: [UInt8]) -> StringDictionaryError? {
    do {
        _ = try StringDictionary(parsing: bytes)
        return nil
    } catch {
        return error
    }
}

/// The dictionary syntax: what it accepts, and one error (with its offset) per refusal.
@Suite struct StringDictionaryTests {
    @Test func acceptsTheReceiptsSyntax() throws {
        let dictionary = try parse("{\n\t\"a\" = \"1\";\r\n  \"b-c\"=\"x \\\"y\\\" \\\\ z\";\"\"=\"\";}\n")
        #expect(dictionary.keys == ["a", "b-c", ""])
        #expect(dictionary["b-c"] == "x \"y\" \\ z")
        #expect(dictionary[""] == "")
        #expect(try parse(" {} ").entries.isEmpty)
        #expect(try parse("{\"é\" = \"ü\";}")["é"] == "ü")
        #expect(try parse(dictionary.text) == StringDictionary(entries: try parse(dictionary.text).entries))
        #expect(try parse(dictionary.text).keys == dictionary.keys)
    }

    @Test func duplicateKey() {
        #expect(parseError("{\"a\" = \"1\"; \"a\" = \"2\";}") == .duplicateKey("a", offset: 12))
    }

    @Test func unescapedQuote() {
        #expect(parseError("{\"a\" = \"x\"y\";}") == .unescapedQuote(offset: 9))
    }

    @Test func nestedDictionary() {
        #expect(parseError("{\"a\" = {\"b\" = \"c\";};}") == .nestedDictionary(offset: 7))
        #expect(parseError("{\"a\" = (\"b\");}") == .nestedDictionary(offset: 7))
    }

    @Test func nonASCIIInAnUnquotedPlace() {
        #expect(parseError("{\"a\" = é;}") == .nonASCII(offset: 7))
        #expect(parseError("\u{FEFF}{}") == .nonASCII(offset: 0))
    }

    @Test func unterminatedString() {
        #expect(parseError("{\"a\" = \"abc;}") == .unterminatedString(offset: 7))
        #expect(parseError("{\"a\" = \"abc\\") == .unterminatedString(offset: 7))
    }

    @Test func trailingText() {
        #expect(parseError("{\"a\" = \"1\";} x") == .trailingText(offset: 13))
        #expect(parseError("{}{}") == .trailingText(offset: 2))
    }

    @Test func otherRefusals() {
        #expect(parseError("{\"a\" = \"\\n\";}") == .invalidEscape(offset: 8))
        #expect(parseError("{\"a\" = \"1\"}") == .unexpectedCharacter(offset: 10, expected: "';'"))
        #expect(parseError("{a = \"1\";}") == .unexpectedCharacter(offset: 1, expected: "a quoted string"))
        #expect(parseError("{\"a\" \"1\";}") == .unexpectedCharacter(offset: 5, expected: "'='"))
        #expect(parseError("{\"a\" = \"1\";") == .unexpectedEnd(offset: 11))
        #expect(parseError("") == .expectedDictionary(offset: 0))
        #expect(parseError("x") == .unexpectedCharacter(offset: 0, expected: "'{'"))
        #expect(parseError([0x7B, 0x22, 0xFF, 0x22, 0x3D, 0x22, 0x22, 0x3B, 0x7D]) == .invalidUTF8(offset: 1))
    }

    @Test func limits() {
        let big = [UInt8](repeating: 0x20, count: StringDictionary.maxTextSize + 1)
        #expect(throws: StringDictionaryError.tooLarge(count: big.count)) { try StringDictionary(parsing: big) }
        let many = "{" + (0 ... StringDictionary.maxKeys).map { "\"k\($0)\"=\"\";" }.joined() + "}"
        guard case .tooManyKeys? = parseError(many) else { Issue.record("expected tooManyKeys"); return }
        let atLimit = "{" + (0 ..< StringDictionary.maxKeys).map { "\"k\($0)\"=\"\";" }.joined() + "}"
        #expect(parseError(atLimit) == nil)
    }

    /// The refusals reach `TransactionReceipt` as errors of the outer text or of purchase-info.
    @Test func refusalsInsideAReceipt() throws {
        var receipt = TestTransactionReceipt(version: 2)
        let text = String(decoding: receipt.text, as: UTF8.self)
        #expect(
            {
                if case .dictionary(.duplicateKey("pod", _))? = decodingError(Array((text.dropLast() + "\t\"pod\" = \"7\";\n}").utf8)) {
                    true
                } else {
                    false
                }
            }())
        receipt.carriedPurchaseInfo = Array("{\"bid\" = {};}".utf8)
        #expect(decodingError(receipt.text) == .purchaseInfo(.nestedDictionary(offset: 9)))
        receipt.carriedPurchaseInfo = nil
        receipt.outer = [("environment", "Sandbox")]
        let withoutSignature = Array(
            String(decoding: receipt.text, as: UTF8.self)
                .replacingOccurrences(of: "\"signature\"", with: "\"signatur\"").utf8)
        #expect(decodingError(withoutSignature) == .missingKey("signature"))
        receipt.purchaseInfo.removeAll { $0.0 == "bid" }
        #expect(decodingError(receipt.text) == .missingField("bid"))
    }
}
