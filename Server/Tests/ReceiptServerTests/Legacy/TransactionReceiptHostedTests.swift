import Foundation
import HummingbirdTesting
import Testing

/// The hosted-validator API shares the service: a transaction receipt is answered with
/// `verifyReceipt`'s answer for it as `receipt` (0, and 21006 for an expired subscription, whose
/// receipt is valid), and a receipt of another app is 403. Its app does not trust production
/// claims, so every transaction receipt is answered as a sandbox one, and the answer says so.
@Suite struct TransactionReceiptHostedTests {
    @Test func hostedAnswersTransactionReceipts() async throws {
        let setup = try await HostedSetup.make(.sqlite)
        try await TestServer.with(TestServer.legacyConfiguration(setup.database)) { client in
            let running = try await client.hosted(
                HostedSetup.json(
                    apiKey: setup.key, token: setup.token,
                    receipt: TransactionReceiptStatusTests.running),
                contentType: "application/json")
            #expect(running.code == 200 && running.status == 0)
            #expect(running.object["receipt"] is [String: Any])
            #expect(running.object["environment"] as? String == "Sandbox", "\(running.object)")
            #expect(running.object["claimed_environment"] as? String == "Production")
            #expect(running.object["environment_proven"] as? Bool == false)
            #expect((running.object["latest_receipt_info"] as? [String: Any])?["transaction_id"] as? String == "1000000046178817")

            let expired = try await client.hosted(
                HostedSetup.json(
                    apiKey: setup.key, token: setup.token,
                    receipt: TransactionReceiptStatusTests.expired),
                contentType: "application/json")
            // 21006 is the hosted answer's own status, with Apple's description.
            #expect(expired.code == 200 && expired.status == 21006 && expired.object["latest_expired_receipt_info"] != nil)
            #expect(expired.description == "This receipt is valid but the subscription has expired.")

            let other = try await client.hosted(
                HostedSetup.json(
                    apiKey: setup.key, token: setup.otherToken,
                    receipt: TransactionReceiptStatusTests.running),
                contentType: "application/json")
            #expect(other.code == 200 && other.status == 403, "\(other.object)")
        }
    }
}
