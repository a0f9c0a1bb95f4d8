import Foundation
import ReceiptStore
import Testing

/// Issue 39's "done when": 300 scripted customers stored through the real endpoints (signed
/// tokens posted by the app's back end, signed notifications); every member of every day of a
/// 90-day window from `GET /inApps/v1/metrics`, and every customer's entitlements from `GET
/// /inApps/v1/entitlements/{appAccountToken}`, equal to what a day-by-day walk over the script
/// gives; another app's key sees none of it; on both backends.
@Suite struct SubscriptionTruthTests {
    static let script = ScriptedCustomers(now: APISession.now)
    /// Signed once, on a thread of its own: a thousand signatures in a `static let` held one of
    /// the two cooperative threads for seconds and the other case's thread waiting for it, so
    /// other suites' tasks (a PostgreSQL pool starting) missed their 10 s storage deadlines.
    static let tokens = Task { try await offPool { ScriptedTokens(script) } }

    @Test(arguments: TestDatabase.backends)
    func everyDayAndEveryCustomerAgree(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let script = Self.script
        try await SignedDataFixtures.with(database) { store in
            for (name, products) in [
                ("premium", [ScriptedCustomers.monthly, ScriptedCustomers.yearly]), ("lifetime", [ScriptedCustomers.lifetime]),
                ("any", [ScriptedCustomers.yearly, ScriptedCustomers.lifetime]),
            ] {
                try await store.setEntitlement(bundleID: Synthetic.bundleID, EntitlementDefinition(name: name, productIDs: products))
            }
        }
        try await APISession.with(
            database,
            configure: {
                $0.keyRate = 1_000_000; $0.keyBurst = 1_000_000
            }
        ) { api in
            try await Self.deliver(try await Self.tokens.value, api)

            let from = ScriptedCustomers.date(script.firstDay), to = ScriptedCustomers.date(script.lastDay)
            let reply = try await api.get("/inApps/v1/metrics?from=\(from)&to=\(to)")
            let body = try reply.ok()
            // `receipt-server report` prints the same figures, by the same code.
            let report = try await LiveServer.run(["report", Synthetic.bundleID, "--from", from, "--to", to, "--json", "--database", database.url])
            #expect(report.status == 0)
            #expect(report.output.trimmingCharacters(in: .newlines) == reply.text)
            let table = try await LiveServer.run(["report", Synthetic.bundleID, "--from", from, "--to", to, "--database", database.url])
            #expect(table.output.split(separator: "\n").count == 91 && table.output.hasPrefix("date "))
            #expect(body["bundleId"] as? String == Synthetic.bundleID)
            #expect(body["environment"] as? String == "Production")
            let days = try #require(body["days"] as? [[String: Any]])
            let expected = script.expectedDays()
            #expect(days.count == 90)
            for (answer, truth) in zip(days.map(Self.day), expected) {
                #expect(answer == truth)
            }
            // The script is not trivial: every member is exercised somewhere in the window.
            #expect(expected.contains { $0.refunds > 0 } && expected.contains { $0.conversions > 0 })
            #expect(expected.contains { $0.expirations > 0 } && expected.contains { $0.trialStarts > 0 })
            #expect(expected.contains { $0.mrr.count == 2 } && expected.contains { $0.revenue.count == 2 })

            for customer in script.customers {
                let answer = try await api.get("/inApps/v1/entitlements/\(customer.token)").ok()
                #expect(answer["appAccountToken"] as? String == customer.token)
                let entries = try #require(answer["entitlements"] as? [[String: Any]]).map(Self.entry)
                #expect(entries == script.expectedEntitlements(customer), "customer \(customer.index)")
            }
            // Grace periods, billing retry, refunds and lapses are all among the answers.
            let statuses = Set(script.customers.flatMap { script.expectedEntitlements($0).compactMap(\.status) })
            #expect(statuses == [1, 2, 3, 4, 5])

            // The sandbox holds none of it.
            let sandbox = try await api.get("/inApps/v1/metrics?from=\(from)&to=\(to)", sandbox: true).ok()
            #expect((sandbox["days"] as? [[String: Any]])?.allSatisfy { Self.day($0).isEmpty } == true)
        }
    }

    /// Posts the tokens and sends the notifications, a few at a time.
    static func deliver(_ tokens: ScriptedTokens, _ api: APISession) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, token) in tokens.posted.enumerated() {
                if index >= 8 { try await group.next() }
                group.addTask { _ = try await api.post("/inApps/v1/transactions", SignedAPIData.posted(token)).ok() }
            }
            try await group.waitForAll()
        }
        for notification in tokens.notifications {
            let status = try await api.client.notify(token: notification)
            guard status == 200 else { throw UnexpectedAnswer(description: "notification answered HTTP \(status)") }
        }
    }

    static func day(_ json: [String: Any]) -> ScriptedCustomers.Day {
        func n(_ key: String) -> Int { json[key] as? Int ?? -1 }
        func amounts(_ key: String) -> [String: Int64] { (json[key] as? [String: Any] ?? [:]).mapValues { ($0 as? Int).map(Int64.init) ?? -1 } }
        return ScriptedCustomers.Day(
            date: json["date"] as? String ?? "", active: n("activeSubscriptions"), new: n("newSubscriptions"), renewals: n("renewals"),
            expirations: n("expirations"), refunds: n("refunds"), trialStarts: n("trialStarts"), conversions: n("trialConversions"),
            revenue: amounts("revenue"), mrr: amounts("mrr"))
    }

    static func entry(_ json: [String: Any]) -> ScriptedCustomers.Entry {
        ScriptedCustomers.Entry(
            name: json["name"] as? String ?? "", active: json["active"] as? Bool ?? false, product: json["productId"] as? String ?? "",
            original: json["originalTransactionId"] as? String ?? "", expires: (json["expiresDate"] as? Int).map(Int64.init),
            status: json["status"] as? Int, willAutoRenew: json["willAutoRenew"] as? Bool)
    }
}

extension ScriptedCustomers.Day {
    /// Nothing happened and nobody was active.
    var isEmpty: Bool {
        active == 0 && new == 0 && renewals == 0 && expirations == 0 && refunds == 0 && trialStarts == 0 && conversions == 0
            && revenue.isEmpty && mrr.isEmpty
    }
}
