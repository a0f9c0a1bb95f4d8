import Foundation
import ReceiptService
import ReceiptStore
import Testing

/// `receipt-server subscriptions ID --at T` prints exactly what Get All Subscription Statuses
/// answers at T: compared with the service evaluated at the same time, across the status rule's
/// boundaries (active, grace period, billing retry, revoked), and at `now` with the endpoint.
@Suite struct SubscriptionsCommandTests {
    typealias N = SyntheticNotifications
    typealias S = SignedAPIData
    static let original = "9300000001", renewal = "9300000002"
    static let t0: Int64 = 1_704_103_200_000   // 2024-01-01T10:00:00Z
    static let day = S.day

    @Test(arguments: TestDatabase.backends)
    func commandPrintsTheEndpointsBodyAtATime(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await LiveServer.createDatabase(database)
        _ = try await CommandLineRegistry.run(database, ["app", "add", Synthetic.bundleID])
        let (t0, day) = (Self.t0, Self.day)
        // A month, its renewal; the renewal fails (grace period to day 76), then is refunded on day 80.
        let first = S.transaction(
            N.Transaction(
                transactionId: Self.original, originalTransactionId: Self.original, purchaseDate: t0, expiresDate: t0 + 30 * day,
                signedDate: t0 + 1_000))
        let second = N.Transaction(
            transactionId: Self.renewal, originalTransactionId: Self.original, purchaseDate: t0 + 30 * day, expiresDate: t0 + 60 * day,
            signedDate: t0 + 60 * day + 5_000)
        let failing = S.renewal(
            N.Renewal(
                originalTransactionId: Self.original, signedDate: t0 + 60 * day + 5_000, expirationIntent: 2, isInBillingRetryPeriod: true,
                gracePeriodExpiresDate: t0 + 76 * day))
        var revoked = second
        revoked.signedDate = t0 + 80 * day
        revoked.revocationDate = t0 + 80 * day
        revoked.revocationReason = 1
        let (secondToken, refunded) = (S.transaction(second), S.transaction(revoked))
        let now = try await APISession.with(database) { api in
            try await api.notify(S.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signedDate: t0 + 1_000, transaction: first))
            try await api.notify(
                S.notification(
                    "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", signedDate: t0 + 60 * day + 5_000, transaction: secondToken, renewal: failing))
            try await api.notify(S.notification("REFUND", signedDate: t0 + 80 * day, transaction: refunded))
            // At now the endpoint and the command agree byte for byte (the server still running: the command only reads).
            let endpoint = try await api.get("/inApps/v1/subscriptions/\(Self.renewal)")
            let printed = try await LiveServer.run(["subscriptions", Self.renewal, "--database", database.url])
            #expect(printed.status == 0 && printed.output == endpoint.text + "\n", "\(printed.status) \(printed.output)")
            return APISession.now
        }
        #expect(now > t0 + 80 * day)

        // At chosen times: the command (milliseconds or RFC 3339) and the service with its clock at that time.
        let times: [(Int64, String, Int)] = [
            (t0 + day, "2024-01-02T10:00:00Z", 1), (t0 + 59 * day, "2024-02-29T10:00:00Z", 1), (t0 + 61 * day, "2024-03-02T10:00:00Z", 4),
            (t0 + 76 * day, "2024-03-17T10:00:00.000Z", 3), (t0 + 80 * day - 1, "2024-03-21T09:59:59.999Z", 3),
            (t0 + 80 * day, "2024-03-21T10:00:00Z", 5),
        ]
        for (time, rfc3339, status) in times {
            let answer = try await SignedDataFixtures.with(database) { store in
                let service = AppStoreAPIService(
                    store: store, registry: AppRegistry(try await store.apps()), anchors: nil, allowXcode: false, logger: TestServer.logger,
                    clock: { time })
                return await service.subscriptionStatuses(
                    transactionID: Self.original, query: [], bundleID: Synthetic.bundleID, environment: "Production")
            }
            #expect(answer.httpStatus == 200)
            let body = try StatusBody(try JSONAnswer.object(Data(answer.body.utf8)))
            #expect(body.items.map(\.status) == [status], "at \(rfc3339)")
            for at in [String(time), rfc3339] {
                let printed = try await LiveServer.run([
                    "subscriptions", Self.original, "--database", database.url, "--at", at, "--app", Synthetic.bundleID,
                ])
                #expect(printed.status == 0 && printed.output == answer.body + "\n", "--at \(at): \(printed.output)")
            }
        }

        // Not found: Apple's error body, exit status 1; sandbox holds nothing of it.
        let missing = try await LiveServer.run(["subscriptions", "9399999999", "--database", database.url])
        #expect(missing.status == 1 && missing.output == #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"# + "\n")
        let sandbox = try await LiveServer.run(["subscriptions", Self.original, "--database", database.url, "--environment", "Sandbox"])
        #expect(sandbox.status == 1 && sandbox.output.contains("4040010"))
        let invalid = try await LiveServer.run(["subscriptions", "12ab", "--database", database.url])
        #expect(invalid.status == 1 && invalid.output == #"{"errorCode":4000006,"errorMessage":"Invalid transaction id."}"# + "\n")
    }
}
