import Testing

@testable import JSONText

/// The writer's bytes, spelled out by hand from RFC 8259: keys in the order given, commas only
/// between members, strings escaped per §7, integers exactly.
@Suite struct JSONWriterTests {
    @Test func membersKeepTheirOrderAndNest() {
        var json = JSONWriter()
        json.beginObject()
        json.integer("status", 0)
        json.string("zeta", "z")
        json.beginArray("in_app")
        json.beginObject()
        json.string("a", "1")
        json.endObject()
        json.beginObject()
        json.endObject()
        json.string(nil, "x")
        json.integer(nil, -7)
        json.endArray()
        json.beginObject("empty")
        json.endObject()
        json.endObject()
        #expect(json.text == #"{"status":0,"zeta":"z","in_app":[{"a":"1"},{},"x",-7],"empty":{}}"#)
    }

    @Test func integersAreExact() {
        var json = JSONWriter()
        json.beginArray()
        for value: Int64 in [.min, -1, 0, 1_700_000_000_123, .max] { json.integer(nil, value) }
        json.endArray()
        #expect(json.text == "[-9223372036854775808,-1,0,1700000000123,9223372036854775807]")
    }

    @Test func stringsAreEscapedAsRFC8259Says() {
        // §7: quote, backslash and U+0000–U+001F must be escaped; the short forms for \n \r \t,
        // \u00XX (lowercase hex) for the rest; everything else, "/" and multi-byte UTF-8
        // included, is copied as it is.
        var text = ""
        JSONWriter.appendQuoted("a\"b\\c\nd\re\tf\u{0}\u{1F}\u{7F}/é😀\u{8}\u{C}", to: &text)
        #expect(text == #""a\"b\\c\nd\re\tf\u0000\u001f"# + "\u{7F}/é😀" + #"\u0008\u000c""#)
        var json = JSONWriter()
        json.beginObject()
        json.string("k\"ey", "")
        json.endObject()
        #expect(json.text == #"{"k\"ey":""}"#)
    }

    @Test func whatItWritesReadsBack() throws {
        // The writer and the reader of one module agree: every control character round-trips.
        let value = String(decoding: (0 ..< 0x80).map { UInt8($0) }, as: UTF8.self) + "é😀"
        var json = JSONWriter()
        json.beginObject()
        json.string("v", value)
        json.endObject()
        let read = try JSONReader<JSONError>.document(Array(json.text.utf8)) { (reader) throws(JSONError) in try reader.readValue() }
        #expect(read == .object([.init(name: "v", value: .string(value))]))
    }
}
