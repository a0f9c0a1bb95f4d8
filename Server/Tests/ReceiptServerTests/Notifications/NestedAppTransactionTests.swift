import Foundation
import HummingbirdTesting
import ReceiptStore
import ReceiptTestSupport
import Testing

/// `RESCIND_CONSENT` (2025-12) carries `appData.signedAppTransactionInfo` at the top level of the
/// payload (no `data`). It is verified like the outer token (issue 40): a genuine notification
/// carrying an app transaction signed under another root is 401 and stores nothing; with a
/// genuine one the notification is stored. Both backends.
@Suite struct NestedAppTransactionTests {
    static let signed: Int64 = 1_709_251_200_000

    static func appTransaction(_ chain: TestJWSChain, x5c: [[UInt8]]) -> String {
        chain.token(
            payload: """
                {"bundleId":"\(Synthetic.bundleID)","receiptType":"Production","appTransactionId":"704000000000000001",\
                "originalApplicationVersion":"1.0","receiptCreationDate":\(signed),"originalPurchaseDate":1700000000000,\
                "signedDate":\(signed)}
                """, x5c: x5c)
    }

    static func rescind(_ inner: String) -> String {
        SyntheticNotifications.sign([
            "notificationType": "RESCIND_CONSENT", "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0",
            "signedDate": signed,
            "appData": ["bundleId": Synthetic.bundleID, "environment": "Production", "signedAppTransactionInfo": inner],
        ])
    }

    @Test(arguments: TestDatabase.backends)
    func aForeignNestedAppTransactionIsRefusedWhole(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let stranger = TestJWSChain(rootName: "Not The Configured Root")
        let forged = Self.rescind(Self.appTransaction(stranger, x5c: stranger.certificates))
        let genuine = Self.rescind(Self.appTransaction(SyntheticNotifications.chain, x5c: SyntheticNotifications.x5c))
        try await TestServer.with(SyntheticNotifications.configuration(database)) { client in
            let refused = try await client.notify(SyntheticNotifications.body(forged))
            #expect(refused.status == 401)
            #expect((refused.json["error"] as? String)?.contains("appData.signedAppTransactionInfo") == true, "\(refused.json)")
            #expect(try await Inspect.counts(database).notifications == 0)
            let stored = try await client.notify(SyntheticNotifications.body(genuine))
            #expect(stored.status == 200, "\(stored.json)")
        }
        #expect(try await Inspect.counts(database).notifications == 1)
    }
}
