import Foundation
import Testing

/// Get Transaction History (v1 and v2) over more than a page: each filter, `sort`, paging by
/// `revision` and `hasMore`, the last page's revision later returning only what arrived since,
/// and the sandbox prefix answering only sandbox data. Both backends.
@Suite struct HistoryEndpointTests {
    typealias N = SyntheticNotifications
    typealias S = SignedAPIData
    static let original = "7100000001"
    static let account = "0b7a4c6e-8f8e-4b4d-9a53-0e5e8c1d2f11"
    static let consumable = "7200000001", nonConsumable = "7300000001", sandboxID = "7400000001"

    @Test(arguments: TestDatabase.backends)
    func filtersSortAndPages(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let now = APISession.now
        let start = now - 100 * S.day
        try await APISession.with(database) { api in
            // 24 months of one subscription (posted in purchase order), then two one-time purchases carrying the same
            // appAccountToken: customers of their own, since the token (the app's choice) links nothing (DESIGN §13).
            var tokens: [String] = []
            for month in 0 ..< 24 {
                let id = String(Int64(Self.original)! + Int64(month))
                let token = S.transaction(
                    N.Transaction(
                        transactionId: id, originalTransactionId: Self.original,
                        productId: month < 12 ? "com.example.monthly" : "com.example.premium",
                        purchaseDate: start + Int64(month) * S.day, expiresDate: start + Int64(month + 1) * S.day, signedDate: now - 60_000),
                    ["appAccountToken": Self.account])
                _ = try await api.post("/inApps/v1/transactions", S.posted(token)).ok()
                tokens.append(token)
                try await Task.sleep(for: .milliseconds(2))
            }
            let consumable = S.transaction(
                N.Transaction(
                    transactionId: Self.consumable, originalTransactionId: Self.consumable, productId: "com.example.coins",
                    purchaseDate: start + 30 * S.day,
                    expiresDate: 0, signedDate: now - 60_000),
                ["type": "Consumable", "expiresDate": nil, "subscriptionGroupIdentifier": nil, "appAccountToken": Self.account])
            let nonConsumable = S.transaction(
                N.Transaction(
                    transactionId: Self.nonConsumable, originalTransactionId: Self.nonConsumable, productId: "com.example.pro",
                    purchaseDate: start + 31 * S.day, expiresDate: 0, signedDate: now - 60_000, revocationDate: now - S.day, revocationReason: 1),
                ["type": "Non-Consumable", "expiresDate": nil, "subscriptionGroupIdentifier": nil, "appAccountToken": Self.account])
            for token in [consumable, nonConsumable] {
                _ = try await api.post("/inApps/v1/transactions", S.posted(token)).ok()
                try await Task.sleep(for: .milliseconds(2))
            }
            let all = tokens

            // Pages of 20: hasMore, then the rest; v1 and v2 alike; from any id of the customer.
            let first = try await api.history("7100000017")
            #expect(first["signedTransactions"] as? [String] == Array(all.prefix(20)) && first["hasMore"] as? Bool == true)
            // The one-time purchases are not the subscriber's, whatever token they carry.
            #expect(try await api.allHistory(Self.consumable).tokens == [consumable])
            #expect(try await api.allHistory(Self.nonConsumable).tokens == [nonConsumable])
            #expect(first["bundleId"] as? String == Synthetic.bundleID && first["environment"] as? String == "Production")
            let paged = try await api.allHistory(Self.original)
            #expect(paged.tokens == all)
            #expect(try await api.allHistory("7100000005", version: "v1").tokens == all)
            #expect(try await api.allHistory(Self.original, "?sort=DESCENDING").tokens == all.reversed())
            #expect(try await api.allHistory(Self.original, "?sort=ASCENDING").tokens == all)

            // Filters.
            #expect(try await api.allHistory(Self.original, "?productType=CONSUMABLE").tokens.isEmpty)
            #expect(try await api.allHistory(Self.consumable, "?productType=CONSUMABLE").tokens == [consumable])
            #expect(try await api.allHistory(Self.consumable, "?productType=NON_CONSUMABLE").tokens.isEmpty)
            #expect(try await api.allHistory(Self.nonConsumable, "?productType=NON_CONSUMABLE&productType=CONSUMABLE").tokens == [nonConsumable])
            #expect(try await api.allHistory(Self.original, "?productType=AUTO_RENEWABLE").tokens == tokens)
            #expect(try await api.allHistory(Self.original, "?productType=NON_RENEWABLE").tokens.isEmpty)
            #expect(try await api.allHistory(Self.original, "?productId=com.example.premium").tokens == Array(tokens[12...]))
            #expect(
                try await api.allHistory(Self.original, "?productId=com.example.premium&productId=com.example.monthly").tokens == tokens)
            #expect(
                try await api.allHistory(Self.original, "?productId=com.example.premium&productId=com.example.coins").tokens == Array(tokens[12...]))
            #expect(try await api.allHistory(Self.original, "?subscriptionGroupIdentifier=21000001").tokens == tokens)
            #expect(try await api.allHistory(Self.original, "?subscriptionGroupIdentifier=99&subscriptionGroupIdentifier=21000001").tokens == tokens)
            #expect(try await api.allHistory(Self.original, "?subscriptionGroupIdentifier=99").tokens.isEmpty)
            // Different filters must all match.
            #expect(try await api.allHistory(Self.original, "?productType=AUTO_RENEWABLE&productId=com.example.coins").tokens.isEmpty)
            // startDate ≤ purchaseDate < endDate.
            let window = "?startDate=\(start + 5 * S.day)&endDate=\(start + 10 * S.day)"
            #expect(try await api.allHistory(Self.original, window).tokens == Array(tokens[5 ..< 10]))
            #expect(try await api.allHistory(Self.original, "?startDate=\(start + 23 * S.day)").tokens == [tokens[23]])
            #expect(try await api.allHistory(Self.original, "?endDate=\(start + 2 * S.day)").tokens == Array(tokens[0 ..< 2]))
            #expect(try await api.allHistory(Self.original, "?revoked=true").tokens.isEmpty)
            #expect(try await api.allHistory(Self.nonConsumable, "?revoked=true").tokens == [nonConsumable])
            #expect(try await api.allHistory(Self.nonConsumable, "?revoked=false").tokens.isEmpty)
            #expect(try await api.allHistory(Self.original, "?revoked=FALSE").tokens == tokens)
            #expect(try await api.allHistory(Self.original, "?inAppOwnershipType=PURCHASED").tokens == all)
            #expect(try await api.allHistory(Self.original, "?inAppOwnershipType=FAMILY_SHARED").tokens.isEmpty)
            #expect(
                try await api.allHistory(Self.original, "?productType=AUTO_RENEWABLE&sort=DESCENDING&startDate=\(start + 20 * S.day)").tokens
                    == tokens[20...].reversed())

            // The last page's revision later returns only what arrived since: nothing, then a new renewal, then a changed one.
            let later = try await api.history(Self.original, "?revision=" + paged.revision)
            #expect((later["signedTransactions"] as? [String])?.isEmpty == true && later["hasMore"] as? Bool == false)
            #expect(later["revision"] as? String == paged.revision)
            let renewal = S.transaction(
                N.Transaction(
                    transactionId: "7100000025", originalTransactionId: Self.original, productId: "com.example.premium",
                    purchaseDate: start + 24 * S.day, expiresDate: now + S.day, signedDate: now - 50_000))
            try await api.notify(S.notification("DID_RENEW", signedDate: now - 50_000, transaction: renewal))
            let since = try await api.history(Self.original, "?revision=" + paged.revision)
            #expect(since["signedTransactions"] as? [String] == [renewal] && since["hasMore"] as? Bool == false)
            let refunded = S.transaction(
                N.Transaction(
                    transactionId: "7100000003", originalTransactionId: Self.original, productId: "com.example.monthly",
                    purchaseDate: start + 2 * S.day, expiresDate: start + 3 * S.day, signedDate: now - 40_000, revocationDate: now - 40_000,
                    revocationReason: 0), ["appAccountToken": Self.account])
            try await api.notify(S.notification("REFUND", signedDate: now - 40_000, transaction: refunded))
            let changed = try await api.history(Self.original, "?revision=" + (since["revision"] as? String ?? ""))
            #expect(changed["signedTransactions"] as? [String] == [refunded])

            // The sandbox prefix answers sandbox data only.
            var sandbox = N.Transaction(
                transactionId: Self.sandboxID, originalTransactionId: Self.sandboxID, purchaseDate: now - S.day, expiresDate: now + S.day,
                signedDate: now - 60_000)
            sandbox.environment = "Sandbox"
            let sandboxToken = S.transaction(sandbox, ["appAccountToken": Self.account])
            try await api.notify(
                S.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signedDate: now - 60_000, transaction: sandboxToken, environment: "Sandbox"),
                sandbox: true)
            let sandboxHistory = try await api.history(Self.sandboxID, sandbox: true)
            #expect(sandboxHistory["signedTransactions"] as? [String] == [sandboxToken] && sandboxHistory["environment"] as? String == "Sandbox")
            #expect(try await api.get("/inApps/v2/history/\(Self.sandboxID)").status == 404)
            #expect(try await api.get("/inApps/v2/history/\(Self.original)", sandbox: true).status == 404)
            #expect(try await api.transactionInfo(Self.sandboxID, sandbox: true) == sandboxToken)
            #expect(try await api.statuses(Self.sandboxID, sandbox: true).json["environment"] as? String == "Sandbox")
            #expect(!(try await api.allHistory(Self.original).tokens.contains(sandboxToken)))
        }
    }
}
