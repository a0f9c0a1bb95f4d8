import AppStoreJWS
import Testing

/// The payload decoders' typed member reads over JSONText's reader: each member's kind, the
/// millisecond rounding, unknown members kept as signed, duplicate names in any spelling refused.
@Suite struct PayloadMemberTests {
    @Test func canonicallyEquivalentUnknownNamesAreDuplicates() {
        // "é" precomposed and decomposed: distinct bytes, one Swift string.
        let payload = Array("{\"caf\u{E9}\":1,\"cafe\u{301}\":2}".utf8)
        let error = #expect(throws: JWSPayloadError.self) { _ = try JWSTransactionDecodedPayload(payload: payload) }
        guard case .json(let json) = error, case .duplicateMemberName = json.kind else {
            Issue.record("expected a duplicate member name, got \(String(describing: error))")
            return
        }
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
