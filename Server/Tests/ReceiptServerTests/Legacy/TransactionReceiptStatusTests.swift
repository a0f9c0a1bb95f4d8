import Foundation
import HummingbirdTesting
import NIOCore
import ReceiptTestSupport
import Testing

/// iOS 6 style transaction receipts at `/verifyReceipt` (DESIGN §14): every status a transaction
/// receipt can earn, in Apple's order, and the answer's shape (`receipt` in the purchase-info key
/// format, `latest_receipt_info` as one object, 21006 with `latest_expired_receipt_info`).
@Suite struct TransactionReceiptStatusTests {
    /// A running subscription renewal (production, version 2).
    static let running = SyntheticLegacy.receipt("1000000046178817", purchased: 1_700_000_000_000, expires: SyntheticLegacy.future).text
    /// A renewal that expired on 2020-10-13 (production, version 2).
    static let expired = SyntheticLegacy.receipt(
        "2000000000000001", original: "2000000000000001", purchased: 1_600_000_000_000,
        expires: 1_602_592_000_000
    ).text
    /// A sandbox consumable, signed by the version 3 chain.
    static let sandboxConsumable = SyntheticLegacy.receipt(
        "3000000000000001", original: "3000000000000001",
        purchased: 1_650_000_000_000, expires: nil, sandbox: true, version: 3
    ).text

    /// A server whose registry answers the synthetic app's production transaction receipts
    /// (`trustingProductionClaims`, as `app add --accept-unproven-legacy-production`), unless told
    /// otherwise.
    func withServer(
        _ backend: TestDatabase.Backend = .sqlite, apps: [String] = [], trustingProductionClaims: Bool = true,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let database = try await TestDatabase.make(backend)
        if trustingProductionClaims { try await SyntheticLegacy.trustProductionClaims(database) }
        try await TestServer.with(TestServer.legacyConfiguration(database, apps: apps), body)
    }

    static func object(_ text: [UInt8]) throws -> [String: Any] {
        let info = try #require(try LegacyText.purchaseInfo(text))
        return Dictionary(uniqueKeysWithValues: info.map { ($0.key.replacingOccurrences(of: "-", with: "_"), $0.value as Any) })
    }

    @Test(arguments: TestDatabase.backends)
    func runningSubscriptionIsZeroWithItsRenewal(_ backend: TestDatabase.Backend) async throws {
        try await withServer(backend) { client in
            let answer = try await client.verify(SyntheticLegacy.body(Self.running))
            #expect(try JSONAnswer.status(answer) == 0)
            let receipt = try #require(answer["receipt"] as? [String: String])
            #expect(receipt as NSDictionary == (try Self.object(Self.running)) as NSDictionary)
            let latest = try #require(answer["latest_receipt_info"] as? [String: String], "one object, not an array")
            #expect(latest == receipt, "the only renewal is the receipt itself")
            #expect(answer["latest_receipt"] as? String == Data(try SyntheticLegacy.signedForm(Self.running)).base64EncodedString())
            #expect(answer["environment"] as? String == "Production" && answer["claimed_environment"] as? String == "Production")
            #expect(answer["environment_proven"] as? Bool == false)
            #expect(answer["latest_expired_receipt_info"] == nil)
        }
    }

    @Test(arguments: TestDatabase.backends)
    func expiredSubscriptionIs21006WithTheReceipt(_ backend: TestDatabase.Backend) async throws {
        try await withServer(backend) { client in
            let answer = try await client.verify(SyntheticLegacy.body(Self.expired))
            #expect(try JSONAnswer.status(answer) == 21006)
            let receipt = try #require(answer["receipt"] as? [String: String])
            #expect(receipt["transaction_id"] == "2000000000000001" && receipt["expires_date"] == "1602592000000")
            let latest = try #require(answer["latest_expired_receipt_info"] as? [String: String])
            #expect(latest == receipt)
            #expect(answer["latest_receipt_info"] == nil && answer["latest_receipt"] == nil)
        }
    }

    @Test func consumableIsZeroWithoutRenewalKeys() async throws {
        try await withServer { client in
            let answer = try await client.verify(SyntheticLegacy.body(Self.sandboxConsumable), sandbox: true)
            #expect(try JSONAnswer.status(answer) == 0)
            #expect((answer["receipt"] as? [String: String])?["transaction_id"] == "3000000000000001")
            #expect(answer["latest_receipt_info"] == nil && answer["latest_receipt"] == nil)
            #expect(answer["environment"] as? String == "Sandbox" && answer["environment_proven"] as? Bool == false)
            #expect(answer.count == 5, "status, environment, claimed_environment, environment_proven, receipt")
        }
    }

    /// 21007/21008 by the outer dictionary's `environment`, for an app whose operator trusts
    /// production claims.
    @Test(arguments: TestDatabase.backends)
    func environmentDecidesTheEndpoint(_ backend: TestDatabase.Backend) async throws {
        try await withServer(backend) { client in
            try await client.expectStatus(21007, SyntheticLegacy.body(Self.sandboxConsumable))
            try await client.expectStatus(21008, SyntheticLegacy.body(Self.running), sandbox: true)
        }
    }

    /// 21002 for text that is not a transaction receipt, 21003 for one whose purchase-info was
    /// changed after signing or that another chain signed.
    @Test func malformedAndForgedReceipts() async throws {
        var changed = SyntheticLegacy.receipt("1000000046178817", purchased: 1_700_000_000_000, expires: SyntheticLegacy.future)
        changed.carriedPurchaseInfo = changed.purchaseInfoText.map { $0 == UInt8(ascii: "7") ? UInt8(ascii: "8") : $0 }
        let tampered = changed.text
        // The same names, but the signer certified by another key than the intermediate the
        // server holds.
        var impostor = SyntheticLegacy.version2
        impostor.intermediate.key = TestKeys.rsa2048[7]
        var foreign = SyntheticLegacy.receipt("1000000046178817", purchased: 1_700_000_000_000, expires: SyntheticLegacy.future)
        foreign.chain = impostor
        let unknownChain = foreign.text
        let truncated = Array(Self.running.prefix(Self.running.count / 2))
        try await withServer { client in
            try await client.expectStatus(21003, SyntheticLegacy.body(tampered))
            try await client.expectStatus(21003, SyntheticLegacy.body(unknownChain))
            try await client.expectStatus(21002, SyntheticLegacy.body(truncated))
            try await client.expectStatus(21002, SyntheticLegacy.body(Array(#"{ "signature" = "AA=="; }"#.utf8)))
        }
    }

    /// 21010 by `bid`; 21004 for a subscription of an app with a shared secret and another
    /// password, none for a consumable.
    @Test(arguments: TestDatabase.backends)
    func appAndSharedSecret(_ backend: TestDatabase.Backend) async throws {
        let secret = "0123456789abcdef0123456789abcdef"
        try await withServer(backend, apps: ["com.example.other"], trustingProductionClaims: false) { client in
            try await client.expectStatus(21010, SyntheticLegacy.body(Self.sandboxConsumable), sandbox: true)
        }
        try await withServer(backend, apps: ["\(Synthetic.bundleID)=\(secret)"]) { client in
            try await client.expectStatus(21004, SyntheticLegacy.body(Self.running))
            try await client.expectStatus(21004, SyntheticLegacy.body(Self.running, password: "wrong"))
            try await client.expectStatus(0, SyntheticLegacy.body(Self.running, password: secret))
            try await client.expectStatus(0, SyntheticLegacy.body(Self.sandboxConsumable), sandbox: true)
        }
    }

    /// The real receipt of the shared fixtures, under Apple's roots and the embedded
    /// intermediates: 0 at the sandbox endpoint with the truth's `receipt_json`, 21007 at production.
    @Test func sharedFixtureAnswersAsTheTruth() async throws {
        guard Fixtures.shouldRun else { return }
        let text = try Fixtures.bytes("ios6/iap-node-sandbox-v2.txt")
        let truth = try JSONAnswer.object(Data(try Fixtures.bytes("ios6/iap-node-sandbox-v2.truth.json")))
        let expected = try #require(truth["receipt_json"] as? [String: String])
        let database = try await TestDatabase.make(.sqlite)
        try await TestServer.with(TestServer.configuration(database, roots: [])) { client in
            let answer = try await client.verify(Synthetic.body(text), sandbox: true)
            #expect(try JSONAnswer.status(answer) == 0)
            #expect(answer["receipt"] as? [String: String] == expected)
            try await client.expectStatus(21007, Synthetic.body(text))
        }
    }
}

/// Reads a synthetic receipt's purchase-info back (for expected values built independently of
/// the server's JSON writer).
enum LegacyText {
    static func purchaseInfo(_ text: [UInt8]) throws -> [String: String]? {
        guard let outer = try PropertyListSerialization.propertyList(from: Data(text), format: nil) as? [String: String],
            let base64 = outer["purchase-info"], let info = Data(base64Encoded: base64)
        else { return nil }
        return try PropertyListSerialization.propertyList(from: info, format: nil) as? [String: String]
    }
}
