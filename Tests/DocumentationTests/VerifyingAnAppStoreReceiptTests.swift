import AppReceipt
import Foundation
import ReceiptTestSupport
import Testing
import X509Certificates

/// Runs the code of "Verifying an App Store receipt" on the synthetic sample receipt
/// (`Examples/sample-receipt.der`: a subscription renewed twice, active until 2024-03-31, a
/// refunded lifetime purchase and a consumable), signed by a throwaway chain.
@Suite struct VerifyingAnAppStoreReceiptTests {
    static let chain = TestChain()
    static let receiptData = Data(chain.receipt(ExampleSamples.receipt))
    static let device = TestReceipt().deviceIdentifier

    static func date(_ text: String) -> Date { Date(rfc3339: text)! }

    @Test func entitlementsFollowTheReceipt() throws {
        let policy = try appStoreRules(trusting: Self.chain.rootCertificate)
        let march = try entitlements(
            receiptData: Self.receiptData, deviceIdentifier: Self.device, policy: policy, now: Self.date("2024-03-15T00:00:00Z"))
        #expect(march == ["pro"])   // the lifetime purchase was refunded
        let april = try entitlements(
            receiptData: Self.receiptData, deviceIdentifier: Self.device, policy: policy, now: Self.date("2024-04-15T00:00:00Z"))
        #expect(april.isEmpty)
        #expect(throws: ReceiptValidationError.deviceHashMismatch) {
            _ = try entitlements(receiptData: Self.receiptData, deviceIdentifier: Array(repeating: 0xAB, count: 16), policy: policy)
        }
    }

    @Test func theDefaultPolicyTrustsOnlyApple() {
        #expect(throws: ReceiptValidationError.self) {
            _ = try entitlements(receiptData: Self.receiptData, deviceIdentifier: Self.device)
        }
        guard case .notValid(.untrusted(.notTrusted)) = check(Self.receiptData) else {
            Issue.record("a receipt signed by a test chain must not be trusted by the App Store policy")
            return
        }
    }

    @Test func checkTellsMalformedFromNotValid() throws {
        guard case .malformed = check(Data("not a receipt".utf8)) else {
            Issue.record("text is malformed")
            return
        }
        guard case .valid(let receipt) = check(Self.receiptData, policy: try appStoreRules(trusting: Self.chain.rootCertificate)) else {
            Issue.record("the sample verifies under its own root")
            return
        }
        #expect(receipt.inAppPurchases.count == 5)
    }

    static func status(_ answer: String) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
        return try #require(object?["status"] as? Int)
    }

    @Test func theServerAnswersAsVerifyReceipt() throws {
        let base64 = Self.receiptData.base64EncodedString()
        let answer = verifyReceiptAnswer(receiptData: base64, policy: try appStoreRules(trusting: Self.chain.rootCertificate))
        #expect(try Self.status(answer) == 0)
        #expect(answer.contains("\"bundle_id\":\"com.example.receipts\""))
        #expect(linkCache.count == 2)   // leaf ← intermediate and intermediate ← root, kept for the next receipt
        #expect(try Self.status(verifyReceiptAnswer(receiptData: base64)) == 21003)
        #expect(try Self.status(verifyReceiptAnswer(receiptData: "bm90IGEgcmVjZWlwdA==")) == 21002)
    }

    @Test func validityIsJudgedAtTheCreationDate() throws {
        // The signing certificate expires on 2024-06-01, three months after the receipt was made.
        var chain = TestChain()
        chain.leaf.notAfter = 1_717_200_000
        let receipt = try AppReceipt(chain.receipt(ExampleSamples.receipt))
        let policy = try appStoreRules(trusting: chain.rootCertificate)
        #expect(verifies(receipt, policy: policy, at: .receiptCreation))
        #expect(verifies(receipt, policy: policy, at: .date(Self.date("2024-05-31T00:00:00Z"))))
        #expect(!verifies(receipt, policy: policy, at: .now))
        #expect(throws: ReceiptValidationError.self) { try receipt.validate(policy: policy, at: .now) }
    }
}
