import Foundation
import LegacyReceipt
import ReceiptTestSupport
import Testing
import TestHelpers

/// `receipt verify|decode` on iOS 6 transaction receipts, given as the dictionary text or its
/// base64: exit 0 valid/decoded, 1 not valid, 2 malformed, 64 usage; `--json` answers as
/// verifyReceipt did.
@Suite(.enabled(if: Fixtures.shouldRun))
struct LegacyCommandTests {
    static var fixture: String { Fixtures.url("ios6/iap-node-sandbox-v2.txt").path }

    static func json(_ result: RunResult) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
    }

    static func truthReceiptJSON() throws -> [String: String] {
        let data = try Data(contentsOf: Fixtures.url("ios6/iap-node-sandbox-v2.truth.json"))
        let truth = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(truth["receipt_json"] as? [String: String])
    }

    @Test func theRealReceiptVerifies() throws {
        let result = try Run.receipt(["verify", Self.fixture])
        expectRun(result, status: 0)
        #expect(result.output.contains("PurchaseReceiptCertificate"))
        #expect(result.output.contains("Apple iTunes Store Certification Authority"))
        #expect(result.output.contains("bundle id: com.mindmobapp.MindMob"))
    }

    @Test func jsonMatchesTheTruth() throws {
        let expected = try Self.truthReceiptJSON()
        for command in ["verify", "decode"] {
            let result = try Run.receipt([command, Self.fixture, "--json"])
            expectRun(result, status: 0)
            let json = try Self.json(result)
            // verify answers as verifyReceipt did; decode verified nothing and has no status.
            #expect(command == "verify" ? json["status"] as? Int == 0 : Set(json.keys) == ["receipt"], "\(command)")
            #expect(json["receipt"] as? [String: String] == expected, "\(command)")
        }
    }

    @Test func base64OnStandardInput() throws {
        let base64 = Array(Data(try Fixtures.bytes("ios6/iap-node-sandbox-v2.txt")).base64EncodedString(options: .lineLength76Characters).utf8)
        expectRun(try Run.receipt(["verify", "-"], stdin: base64), status: 0)
        let decoded = try Run.receipt(["decode", "-", "--json"], stdin: base64)
        expectRun(decoded, status: 0)
        #expect(try Self.json(decoded)["receipt"] as? [String: String] == (try Self.truthReceiptJSON()))
    }

    @Test func judgedNowTheSignerHasExpired() throws {
        expectRun(
            try Run.receipt(["verify", Self.fixture, "--at", "now"]), status: 1,
            errorContains: ["certificate expired", "--at receipt (the default)", "purchase date"])
        expectRun(try Run.receipt(["verify", Self.fixture, "--at", "2012-05-01T00:00:00Z"]), status: 0)
        expectRun(try Run.receipt(["verify", Self.fixture, "--at", "receipt"]), status: 0)
    }

    @Test func otherRootIsNotTrusted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.file("root.der", contents: TestLegacyChain(version: 2).rootCertificate)
        expectRun(try Run.receipt(["verify", Self.fixture, "--root", root.path]), status: 1, errorContains: ["not valid"])
    }

    @Test func tamperedPurchaseInfoIsNotAuthentic() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let text = String(decoding: try Fixtures.bytes("ios6/iap-node-sandbox-v2.txt"), as: UTF8.self)
        // "bvrs" = "20120427" → "20120428" inside purchase-info's base64.
        let original = try #require(text.range(of: "ewoJIm9yaWdpbmFs"))
        let receipt = try TransactionReceipt(Array(text.utf8))
        var info = String(decoding: receipt.purchaseInfoBytes, as: UTF8.self)
        info = info.replacingOccurrences(of: "20120427", with: "20120428")
        let start = original.lowerBound
        let end = try #require(text[start...].firstIndex(of: "\""))
        let forged = text.replacingCharacters(in: start ..< end, with: Data(info.utf8).base64EncodedString())
        let file = directory.file("forged.txt", text: forged)
        expectRun(try Run.receipt(["verify", file.path]), status: 1, errorContains: ["signature invalid", "PurchaseReceiptCertificate"])
        let json = try Run.receipt(["verify", file.path, "--json"])
        #expect(json.status == 1)
        #expect(try Self.json(json)["status"] as? Int == 21003)
        expectRun(try Run.receipt(["decode", file.path]), status: 0)
    }

    @Test func malformedIsStatusTwo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let text = String(decoding: try Fixtures.bytes("ios6/iap-node-sandbox-v2.txt"), as: UTF8.self)
        let file = directory.file(
            "duplicate.txt", text: text.replacingOccurrences(of: "\"pod\" = \"100\";", with: "\"pod\" = \"100\"; \"pod\" = \"1\";"))
        for command in ["verify", "decode"] {
            expectRun(try Run.receipt([command, file.path]), status: 2, errorContains: ["malformed transaction receipt", "duplicate key \"pod\""])
            let json = try Run.receipt([command, file.path, "--json"])
            #expect(json.status == 2)
            #expect(try Self.json(json)["status"] as? Int == 21002)
        }
    }

    @Test func bundleIdentifierAndUsage() throws {
        expectRun(try Run.receipt(["verify", Self.fixture, "--bundle-id", "com.mindmobapp.MindMob"]), status: 0)
        expectRun(
            try Run.receipt(["verify", Self.fixture, "--bundle-id", "com.example.other"]), status: 1,
            errorContains: ["bundle identifier com.mindmobapp.MindMob is not com.example.other"])
        expectRun(try Run.receipt(["verify", Self.fixture, "--app-version", "20120427"]), status: 0)
        expectRun(
            try Run.receipt(["verify", Self.fixture, "--app-version", "1"]), status: 1,
            errorContains: ["app version (bvrs) 20120427 is not 1"])
        // The real receipt has no unique-vendor-identifier: any device is refused.
        expectRun(
            try Run.receipt(["verify", Self.fixture, "--device-guid", "000102030405060708090a0b0c0d0e0f"]), status: 1,
            errorContains: ["unique-vendor-identifier"])
        expectRun(try Run.receipt(["verify", Self.fixture, "--policy", "xcode"]), status: 1, errorContains: ["xcode policy trusts none"])
        let json = try Run.receipt(["verify", Self.fixture, "--policy", "xcode", "--json"])
        #expect(try Self.json(json)["status"] as? Int == 21003)
        expectRun(try Run.receipt(["verify", Self.fixture, "--policy", "other"]), status: 64, errorContains: ["unknown policy"])
    }

    @Test(arguments: [UInt8(2), 3])
    func syntheticReceiptsDecode(_ version: UInt8) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let receipt = TestTransactionReceipt(version: version, expiresMilliseconds: 1_602_592_000_000)
        let file = directory.file("receipt.txt", contents: receipt.text)
        let result = try Run.receipt(["decode", file.path, "--json"])
        expectRun(result, status: 0)
        let object = try #require(try Self.json(result)["receipt"] as? [String: String])
        #expect(object["expires_date"] == "1602592000000")
        #expect(object["bid"] == "com.example.app")
        // Under Apple Root CA a synthetic receipt is not authentic.
        expectRun(try Run.receipt(["verify", file.path]), status: 1)
    }
}
