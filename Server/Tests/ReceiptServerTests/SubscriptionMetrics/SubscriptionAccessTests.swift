import Foundation
import ReceiptStore
import Testing

/// Who may ask, and which windows are answered: a JWT signed by a key that is not this app's is
/// refused with 401 and an empty body; another app's own key sees none of this app's data; bad
/// windows get 400 with a JSON error body, exactly 366 days 200.
@Suite struct SubscriptionAccessTests {
    static let token = "6f1c6a0e-0000-4000-8000-000000000001"

    @Test func windowsAreCheckedBeforeAnyQuery() async throws {
        let database = try await TestDatabase.make(.sqlite)
        try await APISession.with(database) { api in
            for (query, reason) in [
                ("from=2026-03-02&to=2026-03-01", "after"), ("from=2025-01-01&to=2026-01-02", "367 days"),
                ("from=2026-02-30&to=2026-03-01", "from"), ("from=2026-01-01&to=2026-13-01", "to"), ("from=2026-1-01&to=2026-01-02", "from"),
                ("from=20260101&to=2026-01-02", "from"), ("from=2026-01-01", "to"), ("to=2026-01-01", "from"),
                ("from=2026-01-01&from=2026-01-01&to=2026-01-02", "more than once"), ("from=2026-01-01T00:00Z&to=2026-01-02", "from"),
                ("from=1969-12-31&to=1970-01-02", "from"), ("from=2025-02-29&to=2025-03-01", "from"), ("from=２０２６-01-01&to=2026-01-02", "from"),
            ] {
                for sandbox in [false, true] {
                    let reply = try await api.get("/inApps/v1/metrics?\(query)", sandbox: sandbox)
                    #expect(reply.status == 400, "\(query)")
                    #expect(reply.contentType == "application/json", "\(query)")
                    let body = try JSONAnswer.object(reply.body)
                    #expect(body["errorCode"] as? Int == 4_000_000, "\(query)")
                    #expect((body["errorMessage"] as? String)?.contains(reason) == true, "\(query): \(body)")
                }
            }
            // Exactly 366 days (a leap year), and one day, are answered.
            let year = try await api.get("/inApps/v1/metrics?from=2024-01-01&to=2024-12-31").ok()
            #expect((year["days"] as? [[String: Any]])?.count == 366)
            #expect((year["days"] as? [[String: Any]])?.last?["date"] as? String == "2024-12-31")
            let leapDay = try await api.get("/inApps/v1/metrics?from=2024-02-29&to=2024-02-29").ok()
            #expect((leapDay["days"] as? [[String: Any]])?.first?["date"] as? String == "2024-02-29")
            // A token that is not a UUID: 400; an unknown one: 200 with no entitlements.
            #expect(try await api.get("/inApps/v1/entitlements/not-a-uuid").status == 400)
            let unknown = try await api.get("/inApps/v1/entitlements/\(Self.token)").ok()
            #expect((unknown["entitlements"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: TestDatabase.backends)
    func anotherAppsKeySeesNothingOfThisApp(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let other = "com.example.other"
        let otherSigner = APIJWTSigner(keyID: "OTHERKEY01")
        try await SignedDataFixtures.with(database) { store in
            try await store.putIAPKey(otherSigner.record(apps: [other]))
            try await store.setEntitlement(
                bundleID: Synthetic.bundleID, EntitlementDefinition(name: "premium", productIDs: ["com.example.receipts.monthly"]))
            try await store.setEntitlement(bundleID: other, EntitlementDefinition(name: "premium", productIDs: ["com.example.receipts.monthly"]))
        }
        try await APISession.with(database) { api in
            let now = APISession.now
            let purchase = SignedAPIData.transaction(
                SyntheticNotifications.Transaction(
                    transactionId: "3900000001", originalTransactionId: "3900000001", purchaseDate: now - 86_400_000,
                    expiresDate: now + 86_400_000 * 29,
                    signedDate: now - 1000), ["appAccountToken": Self.token])
            _ = try await api.post("/inApps/v1/transactions", SignedAPIData.posted(purchase)).ok()
            let today = ScriptedCustomers.date(now / 86_400_000), yesterday = ScriptedCustomers.date(now / 86_400_000 - 1)
            let metrics = "/inApps/v1/metrics?from=\(yesterday)&to=\(today)"

            // This app sees its subscriber.
            let own = try await api.get(metrics).ok()
            #expect((own["days"] as? [[String: Any]])?.first?["newSubscriptions"] as? Int == 1)
            let entitled = try await api.get("/inApps/v1/entitlements/\(Self.token)").ok()
            #expect((entitled["entitlements"] as? [[String: Any]])?.first?["active"] as? Bool == true)

            // The other app's key, asking as this app: 401, empty body.
            let stolen = "Bearer " + (try otherSigner.token(now: now, bundleID: Synthetic.bundleID))
            for path in [metrics, "/inApps/v1/entitlements/\(Self.token)"] {
                for sandbox in [false, true] {
                    let reply = try await api.get(path, sandbox: sandbox, authorization: stolen)
                    #expect(reply.status == 401 && reply.body.isEmpty, "\(path)")
                }
                #expect(try await api.get(path, authorization: "Bearer x.y.z").status == 401)
                #expect(try await api.send(.get, path, sandbox: false, body: nil, authorization: "").status == 401)
            }

            // The other app asking as itself: its own answers, holding none of this app's data.
            let own2 = "Bearer " + (try otherSigner.token(now: now, bundleID: other))
            let otherMetrics = try await api.get(metrics, authorization: own2).ok()
            #expect(otherMetrics["bundleId"] as? String == other)
            #expect((otherMetrics["days"] as? [[String: Any]])?.allSatisfy { SubscriptionTruthTests.day($0).isEmpty } == true)
            let otherEntitlements = try await api.get("/inApps/v1/entitlements/\(Self.token)", authorization: own2).ok()
            #expect(otherEntitlements["bundleId"] as? String == other)
            #expect((otherEntitlements["entitlements"] as? [Any])?.isEmpty == true)
        }
    }
}
