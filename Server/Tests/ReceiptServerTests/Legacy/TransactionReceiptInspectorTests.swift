import Foundation
import HummingbirdTesting
import ReceiptTestSupport
import Testing

/// The inspector page reads transaction receipts too (text or base64): their fields, their one
/// purchase, the chain through the intermediate the server holds, and the rule a refusal names.
@Suite struct TransactionReceiptInspectorTests {
    func withServer(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        var configuration = TestServer.legacyConfiguration(try await TestDatabase.make(.sqlite))
        configuration.inspector = true
        try await TestServer.with(configuration, body)
    }

    @Test func validReceiptIsReported() async throws {
        let text = TransactionReceiptStatusTests.running
        try await withServer { client in
            for input in [text, Array(Data(text).base64EncodedString().utf8)] {
                let report = try await InspectorTests.inspect(client, input)
                #expect(report["kind"] as? String == "transaction-receipt")
                #expect(report["verdict"] as? String == "valid" && report["status"] as? Int == 0, "\(report["message"] ?? "")")
                let chain = try #require(report["chain"] as? [[String: Any]])
                #expect(chain.map { $0["role"] as? String } == ["signer", "intermediate", "anchor"])
                let purchases = try #require(report["purchases"] as? [[String: Any]])
                #expect(purchases.count == 1 && purchases[0]["transaction_id"] as? String == "1000000046178817")
                #expect(report["endpoint"] as? String == "/verifyReceipt")
                // The environment line is outside the signature: the report says so.
                let fields = try #require(report["fields"] as? [[String: String]])
                #expect(fields.first == ["name": "environment", "value": "Production (claimed, not signed)"])
            }
        }
    }

    @Test func changedReceiptNamesTheRule() async throws {
        var changed = SyntheticLegacy.receipt("1000000046178817", purchased: 1_700_000_000_000, expires: SyntheticLegacy.future)
        changed.carriedPurchaseInfo = changed.purchaseInfoText.map { $0 == UInt8(ascii: "7") ? UInt8(ascii: "8") : $0 }
        let text = changed.text
        try await withServer { client in
            let report = try await InspectorTests.inspect(client, text)
            #expect(report["verdict"] as? String == "not valid" && report["status"] as? Int == 21003)
            #expect(report["rule"] as? String == "signatureInvalid")
            let malformed = try await InspectorTests.inspect(client, Array(#"{ "signature" = "AA=="; }"#.utf8))
            #expect(malformed["verdict"] as? String == "malformed" && malformed["status"] as? Int == 21002)
        }
    }
}
