import Foundation
import LegacyReceipt
import Testing
import TestHelpers

/// `TransactionReceipt.signedForm`: what the signer vouches for, one text per environment admitted
/// to, whatever the sender wrote around it; and it is itself a receipt that verifies.
@Suite(.enabled(if: Fixtures.shouldRun))
struct SignedFormTests {
    static func fixture() throws -> String {
        String(decoding: try Fixtures.bytes("ios6/iap-node-sandbox-v2.txt"), as: UTF8.self)
    }

    @Test func isTheTwoSignedValuesAndTheAdmittedEnvironment() throws {
        let receipt = try TransactionReceipt(Array(try Self.fixture().utf8))
        let sandbox = try TransactionReceipt(receipt.signedForm(sandbox: true))
        #expect(sandbox.dictionary.keys == ["signature", "purchase-info", "environment"])
        #expect(sandbox.isSandbox && sandbox.signatureBytes == receipt.signatureBytes)
        #expect(sandbox.purchaseInfoBytes == receipt.purchaseInfoBytes)
        try sandbox.verify()
        let production = try TransactionReceipt(receipt.signedForm(sandbox: false))
        #expect(production.dictionary.keys == ["signature", "purchase-info"] && !production.isSandbox)
        try production.verify()
    }

    /// Another `pod`, a junk key, no `environment` line, keys in another order, the whole text as
    /// base64: one signed form per environment.
    @Test func variantsHaveOneSignedForm() throws {
        let text = try Self.fixture()
        let lines = text.split(separator: "\n").dropFirst().dropLast()
        let variants = [
            text,
            text.replacingOccurrences(of: "\"pod\" = \"100\";", with: "\"pod\" = \"7\";"),
            text.replacingOccurrences(of: "}", with: "\t\"junk\" = \"\(String(repeating: "x", count: 4096))\";\n}"),
            text.replacingOccurrences(of: "\t\"environment\" = \"Sandbox\";\n", with: ""),
            "{\n" + lines.reversed().joined(separator: "\n") + "\n}",
            Data(text.utf8).base64EncodedString(),
        ]
        let forms = try variants.map { try TransactionReceipt(Array($0.utf8)) }
        #expect(Set(forms.map { $0.signedForm(sandbox: true) }).count == 1)
        #expect(Set(forms.map { $0.signedForm(sandbox: false) }).count == 1)
        #expect(forms[0].signedForm(sandbox: true) != forms[0].signedForm(sandbox: false))
    }
}
