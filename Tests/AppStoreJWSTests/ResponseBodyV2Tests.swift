import AppStoreJWS
import Testing

/// The notification request body: its token, and the bodies that are not one.
@Suite struct ResponseBodyV2Tests {
    static func body(_ text: String) throws(JWSPayloadError) -> ResponseBodyV2 {
        try ResponseBodyV2(body: Array(text.utf8))
    }

    @Test func theTokenIsReadAndOtherMembersAreSkipped() throws {
        #expect(try Self.body(#"{"signedPayload":"eyJ.a.b"}"#).signedPayload == "eyJ.a.b")
        #expect(try Self.body(#" {"other": [1, {"x": null}], "signedPayload": "eyJ.a.b"} "#).signedPayload == "eyJ.a.b")
        #expect(try Self.body(#"{"signedPayload":null}"#).signedPayload == nil)
        #expect(try Self.body(#"{}"#).signedPayload == nil)
    }

    @Test func bodiesThatAreNotOneObjectAreRefused() {
        #expect(throws: JWSPayloadError.self) { try Self.body(#"["eyJ.a.b"]"#) }
        #expect(throws: JWSPayloadError.self) { try Self.body(#"{"signedPayload":42}"#) }
        #expect(throws: JWSPayloadError.self) { try Self.body(#"{"signedPayload":"a","signedPayload":"b"}"#) }   // duplicate
        #expect(throws: JWSPayloadError.self) { try Self.body(#"{"signed\u0050ayload":"a"}"#) }   // escaped name
        #expect(throws: JWSPayloadError.self) { try Self.body(#"{"signedPayload":"a"} {}"#) }   // trailing data
        #expect(throws: JWSPayloadError.self) { try ResponseBodyV2(body: [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]) }   // not UTF-8
        #expect(throws: JWSPayloadError.self) { try Self.body(#"{"x":"# + String(repeating: "[", count: 5_000) + "}") }   // too deep
    }
}
