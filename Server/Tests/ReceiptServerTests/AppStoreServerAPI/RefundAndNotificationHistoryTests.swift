import Foundation
import Testing

/// Get Refund History (revocation-date order, pages of 20, the last revision later returning only
/// new refunds) and Get Notification History (the window, type and transaction filters,
/// `paginationToken` paging, one successful send attempt dated when stored). Both backends.
@Suite struct RefundAndNotificationHistoryTests {
    typealias N = SyntheticNotifications
    typealias S = SignedAPIData
    static let original = "8100000001", other = "8200000001"

    @Test(arguments: TestDatabase.backends)
    func refundsByRevocationDateInPages(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let now = APISession.now
        try await APISession.with(database) { api in
            // 23 refunded months, revoked in the reverse order of their ids, and one month not refunded.
            var refunded: [(revoked: Int64, token: String)] = []
            for month in 0 ..< 24 {
                let id = String(Int64(Self.original)! + Int64(month))
                let revoked: Int64? = month == 23 ? nil : now - 10 * S.day + Int64(23 - month) * 60_000
                let token = S.transaction(
                    N.Transaction(
                        transactionId: id, originalTransactionId: Self.original, purchaseDate: now - 200 * S.day + Int64(month) * S.day,
                        expiresDate: now - 199 * S.day + Int64(month) * S.day, signedDate: now - 60_000, revocationDate: revoked,
                        revocationReason: revoked == nil ? nil : 1))
                _ = try await api.post("/inApps/v1/transactions", S.posted(token)).ok()
                if let revoked { refunded.append((revoked, token)) }
            }
            let expected = refunded.sorted { $0.revoked < $1.revoked }.map(\.token)
            let first = try await api.get("/inApps/v2/refund/lookup/\(Self.original)").ok()
            #expect(first["signedTransactions"] as? [String] == Array(expected.prefix(20)) && first["hasMore"] as? Bool == true)
            let revision = try #require(first["revision"] as? String)
            let second = try await api.get("/inApps/v2/refund/lookup/8100000024?revision=\(revision)").ok()
            #expect(second["signedTransactions"] as? [String] == Array(expected[20...]) && second["hasMore"] as? Bool == false)
            let last = try #require(second["revision"] as? String)
            let empty = try await api.get("/inApps/v2/refund/lookup/\(Self.original)?revision=\(last)").ok()
            #expect((empty["signedTransactions"] as? [String])?.isEmpty == true && empty["hasMore"] as? Bool == false)
            // The month not refunded is refunded now: only it comes after the last revision.
            let late = S.transaction(
                N.Transaction(
                    transactionId: "8100000024", originalTransactionId: Self.original, purchaseDate: now - 177 * S.day,
                    expiresDate: now - 176 * S.day, signedDate: now - 30_000, revocationDate: now - 30_000, revocationReason: 0))
            try await api.notify(S.notification("REFUND", signedDate: now - 30_000, transaction: late))
            let since = try await api.get("/inApps/v2/refund/lookup/\(Self.original)?revision=\(last)").ok()
            #expect(since["signedTransactions"] as? [String] == [late])
            // A customer with no refund.
            let none = try await api.get("/inApps/v2/refund/lookup/\(Self.original)?revision=\(try #require(since["revision"] as? String))").ok()
            #expect((none["signedTransactions"] as? [String])?.isEmpty == true)
        }
    }

    @Test(arguments: TestDatabase.backends)
    func notificationHistoryWindowFiltersAndPages(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let now = APISession.now
        try await APISession.with(database) { api in
            let before = APISession.now
            // 22 renewals of one customer, then two refunds of another; uuids in order so that equal milliseconds sort alike.
            var payloads: [String] = []
            for index in 0 ..< 24 {
                let customer = index < 22 ? Self.original : Self.other
                let id = String(Int64(customer)! + Int64(index < 22 ? index : index - 22))
                let transaction = S.transaction(
                    N.Transaction(
                        transactionId: id, originalTransactionId: customer, purchaseDate: now - 100 * S.day + Int64(index) * S.day,
                        expiresDate: now - 99 * S.day + Int64(index) * S.day, signedDate: now - 60_000 + Int64(index),
                        revocationDate: index < 22 ? nil : now - 1_000, revocationReason: index < 22 ? nil : 1))
                let uuid = String(format: "00000000-0000-4000-8000-%012d", index)
                let payload = S.notification(
                    index < 22 ? "DID_RENEW" : "REFUND", uuid: uuid, signedDate: now - 60_000 + Int64(index), transaction: transaction)
                try await api.notify(payload)
                payloads.append(payload)
            }
            let after = APISession.now + 1
            func page(_ body: [String: Any], token: String? = nil) async throws -> (payloads: [String], dates: [Int64], hasMore: Bool, token: String)
            {
                let path = "/inApps/v1/notifications/history" + (token.map { "?paginationToken=" + $0 } ?? "")
                let json = try await api.post(path, json: body).ok()
                let items = try #require(json["notificationHistory"] as? [[String: Any]])
                var dates: [Int64] = []
                for item in items {
                    let attempts = try #require(item["sendAttempts"] as? [[String: Any]])
                    #expect(attempts.count == 1 && attempts[0]["sendAttemptResult"] as? String == "SUCCESS")
                    dates.append(try #require((attempts[0]["attemptDate"] as? NSNumber)?.int64Value))
                }
                return (
                    items.compactMap { $0["signedPayload"] as? String }, dates, json["hasMore"] as? Bool ?? false,
                    json["paginationToken"] as? String ?? ""
                )
            }
            let window: [String: Any] = ["startDate": before, "endDate": after]
            let first = try await page(window)
            #expect(first.payloads == Array(payloads.prefix(20)) && first.hasMore)
            #expect(first.dates.allSatisfy { (before ..< after).contains($0) } && first.dates == first.dates.sorted())
            let second = try await page(window, token: first.token)
            #expect(second.payloads == Array(payloads[20...]) && !second.hasMore)
            // The last page's token: nothing more until another notification arrives.
            #expect(try await page(window, token: second.token).payloads.isEmpty)

            // The window is [startDate, endDate) of the time stored.
            let cut = first.dates[10]
            let early = try await page(["startDate": before, "endDate": cut])
            #expect(
                early.payloads == Array(payloads.prefix(while: { _ in true }).prefix(early.payloads.count)) && early.dates.allSatisfy { $0 < cut })
            let late = try await page(["startDate": cut, "endDate": after])
            #expect(early.payloads.count + late.payloads.count == 24 && late.dates.allSatisfy { $0 >= cut })
            #expect(try await page(["startDate": before - 100_000, "endDate": before]).payloads.isEmpty)

            // By type, by type and subtype, and by any transaction id of a customer.
            #expect(try await page(window.merging(["notificationType": "REFUND"]) { $1 }).payloads == Array(payloads[22...]))
            #expect(try await page(window.merging(["notificationType": "REFUND", "notificationSubtype": "VOLUNTARY"]) { $1 }).payloads.isEmpty)
            #expect(try await page(window.merging(["transactionId": "8200000002"]) { $1 }).payloads == Array(payloads[22...]))
            let customer = try await page(window.merging(["transactionId": "8100000005"]) { $1 })
            #expect(customer.payloads == Array(payloads.prefix(20)) && customer.hasMore)
            #expect(
                try await page(window.merging(["transactionId": "8100000005"]) { $1 }, token: customer.token).payloads == Array(payloads[20 ..< 22]))
            #expect(
                try await api.post("/inApps/v1/notifications/history", json: window.merging(["transactionId": "8999999999"]) { $1 }).status == 404)
            // Every notification here was delivered: no failures.
            #expect(try await page(window.merging(["onlyFailures": true]) { $1 }).payloads.isEmpty)
            // The sandbox prefix holds none of them.
            let sandbox = try await api.post("/inApps/v1/notifications/history", json: window, sandbox: true).ok()
            #expect((sandbox["notificationHistory"] as? [Any])?.isEmpty == true)
        }
    }
}
