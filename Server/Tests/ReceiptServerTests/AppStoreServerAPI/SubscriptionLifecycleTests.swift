import Foundation
import Testing

/// One customer's subscriptions told by notifications and by transactions its app posted, and
/// after each step what the App Store Server API answers by Apple's rules (status at the time of
/// the request, the last transaction by `purchaseDate`, the latest renewal info, tokens byte for
/// byte), on both backends. Dates are relative to now, since the endpoint evaluates at now.
@Suite struct SubscriptionLifecycleTests {
    typealias N = SyntheticNotifications
    typealias S = SignedAPIData
    static let day = S.day
    static let monthly = "com.example.receipts.monthly", premium = "com.example.receipts.premium", news = "com.example.receipts.news"
    static let group = "21000001", newsGroup = "21000002"
    static let original = "3100000001", renewal = "3100000002", upgrade = "3100000003"
    static let news1 = "3200000001", shared = "3300000001"
    static let account = "7e3fb20b-4cdb-47cc-936d-99d65f608138"

    /// The tokens of the story, at `now` (all purchase and signing dates lie before it).
    struct Story {
        let now: Int64
        var signed: Int64

        init(now: Int64) {
            self.now = now
            signed = now - 3_600_000
        }

        /// The next signing date, one second after the previous.
        mutating func next() -> Int64 {
            signed += 1_000
            return signed
        }

        func transaction(
            _ id: String, product: String = monthly, purchased: Int64, expires: Int64, signed: Int64, _ changes: [String: Any?] = [:]
        ) -> String {
            S.transaction(
                N.Transaction(
                    transactionId: id, originalTransactionId: original, productId: product, purchaseDate: purchased, expiresDate: expires,
                    signedDate: signed),
                changes.merging(["appAccountToken": account]) { a, _ in a })
        }

        func renewalInfo(_ signed: Int64, product: String = premium, autoRenew: Int64 = 1, _ changes: [String: Any?] = [:]) -> String {
            S.renewal(
                N.Renewal(
                    originalTransactionId: original, productId: product, autoRenewProductId: product, autoRenewStatus: autoRenew, signedDate: signed),
                changes)
        }
    }

    @Test(arguments: TestDatabase.backends)
    func oneCustomerThroughEveryStep(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await APISession.with(database) { api in
            var story = Story(now: APISession.now)
            let now = story.now
            let (original, renewal, shared, account, day) = (Self.original, Self.renewal, Self.shared, Self.account, Self.day)
            typealias Item = StatusBody.Item

            // 1. Purchase: active, the purchase is the last transaction.
            var s = story.next()
            let first = story.transaction(original, purchased: now - 40 * day, expires: now + 5 * day, signed: s)
            var renewalInfo = story.renewalInfo(s, product: Self.monthly)
            try await api.notify(S.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signedDate: s, transaction: first, renewal: renewalInfo))
            try await Self.expect(api, original, [Item(group: Self.group, original: original, status: 1, transaction: first, renewal: renewalInfo)])
            #expect(try await api.transactionInfo(original) == first)

            // 2. Renewal: the renewal is the last transaction (asked by either id).
            s = story.next()
            let second = story.transaction(renewal, purchased: now - 10 * day, expires: now + 20 * day, signed: s)
            renewalInfo = story.renewalInfo(s, product: Self.monthly)
            try await api.notify(S.notification("DID_RENEW", signedDate: s, transaction: second, renewal: renewalInfo))
            try await Self.expect(api, renewal, [Item(group: Self.group, original: original, status: 1, transaction: second, renewal: renewalInfo)])
            try await Self.expectHistory(api, original, [first, second])

            // 3. Upgrade: a new product in the same group supersedes the renewal, which the app then posts with isUpgraded.
            s = story.next()
            let upgraded = story.transaction(Self.upgrade, product: Self.premium, purchased: now - day, expires: now + 29 * day, signed: s)
            renewalInfo = story.renewalInfo(s)
            try await api.notify(
                S.notification("DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE", signedDate: s, transaction: upgraded, renewal: renewalInfo))
            try await Task.sleep(for: .milliseconds(3))
            let secondUpgraded = story.transaction(
                renewal, purchased: now - 10 * day, expires: now + 20 * day, signed: story.next(), ["isUpgraded": true])
            let posted = try StatusBody(try await api.post("/inApps/v1/transactions", S.posted(secondUpgraded)).ok())
            let afterUpgrade = [Item(group: Self.group, original: original, status: 1, transaction: upgraded, renewal: renewalInfo)]
            #expect(posted.items == afterUpgrade)
            try await Self.expect(api, original, afterUpgrade)
            #expect(try await api.transactionInfo(renewal) == secondUpgraded)
            #expect(S.payload(try #require(try await api.transactionInfo(renewal)))["isUpgraded"] as? Bool == true)
            try await Self.expectHistory(api, original, [first, upgraded, secondUpgraded])

            // 4. Downgrade at the next renewal: a new renewal info only.
            s = story.next()
            renewalInfo = story.renewalInfo(s, ["autoRenewProductId": Self.monthly])
            try await api.notify(
                S.notification("DID_CHANGE_RENEWAL_PREF", subtype: "DOWNGRADE", signedDate: s, transaction: upgraded, renewal: renewalInfo))
            try await Self.expect(
                api, original, [Item(group: Self.group, original: original, status: 1, transaction: upgraded, renewal: renewalInfo)])

            // 5. Auto-renew off: still active until it expires.
            s = story.next()
            renewalInfo = story.renewalInfo(s, autoRenew: 0, ["autoRenewProductId": Self.monthly])
            try await api.notify(
                S.notification(
                    "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", signedDate: s, transaction: upgraded, renewal: renewalInfo))
            let active = Item(group: Self.group, original: original, status: 1, transaction: upgraded, renewal: renewalInfo)
            try await Self.expect(api, original, [active])

            // 6–8. A second subscription carrying the same appAccountToken, whose period has ended: grace period (4),
            // billing retry (3), expired (2). The token is the app's choice and links nothing: a customer of its own.
            let news = N.Transaction(
                transactionId: Self.news1, originalTransactionId: Self.news1, productId: Self.news, purchaseDate: now - 40 * day,
                expiresDate: now - 10 * day, signedDate: story.next())
            let newsToken = S.transaction(news, ["subscriptionGroupIdentifier": Self.newsGroup, "appAccountToken": account])
            func newsRenewal(_ signed: Int64, _ changes: [String: Any?]) -> String {
                S.renewal(
                    N.Renewal(originalTransactionId: Self.news1, productId: Self.news, autoRenewProductId: Self.news, signedDate: signed), changes)
            }
            s = story.next()
            var newsInfo = newsRenewal(s, ["isInBillingRetryPeriod": true, "expirationIntent": 2, "gracePeriodExpiresDate": now + 5 * day])
            try await api.notify(
                S.notification("DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", signedDate: s, transaction: newsToken, renewal: newsInfo))
            var newsItem = Item(group: Self.newsGroup, original: Self.news1, status: 4, transaction: newsToken, renewal: newsInfo)
            try await Self.expect(api, original, [active])
            try await Self.expect(api, Self.news1, [newsItem])

            s = story.next()
            newsInfo = newsRenewal(s, ["isInBillingRetryPeriod": true, "expirationIntent": 2, "gracePeriodExpiresDate": now - 60_000])
            try await api.notify(S.notification("GRACE_PERIOD_EXPIRED", signedDate: s, transaction: newsToken, renewal: newsInfo))
            newsItem = Item(group: Self.newsGroup, original: Self.news1, status: 3, transaction: newsToken, renewal: newsInfo)
            try await Self.expect(api, Self.news1, [newsItem])

            s = story.next()
            newsInfo = newsRenewal(s, ["autoRenewStatus": 0, "isInBillingRetryPeriod": false, "expirationIntent": 2])
            try await api.notify(S.notification("EXPIRED", subtype: "BILLING_RETRY", signedDate: s, transaction: newsToken, renewal: newsInfo))
            newsItem = Item(group: Self.newsGroup, original: Self.news1, status: 2, transaction: newsToken, renewal: newsInfo)
            try await Self.expect(api, Self.news1, [newsItem])
            try await Self.expect(api, original, [active])
            // `status` filters lastTransactions (repeatable; a group left empty is left out).
            #expect(try await api.statuses(original, query: "?status=1").items == [active])
            #expect(try await api.statuses(original, query: "?status=2").items.isEmpty)
            #expect(try await api.statuses(Self.news1, query: "?status=2").items == [newsItem])
            #expect(try await api.statuses(Self.news1, query: "?status=2&status=1").items == [newsItem])
            #expect(try await api.statuses(original, query: "?status=2&status=1").items == [active])
            let none = try await api.statuses(original, query: "?status=5")
            #expect(none.items.isEmpty && (none.json["data"] as? [Any])?.isEmpty == true)

            // 9. Refund of an older transaction: the status is unchanged.
            s = story.next()
            let firstRefunded = story.transaction(
                original, purchased: now - 40 * day, expires: now + 5 * day, signed: s, ["revocationDate": now - 3_000_000, "revocationReason": 1])
            try await api.notify(S.notification("REFUND", signedDate: s, transaction: firstRefunded, renewal: renewalInfo))
            try await Self.expect(api, original, [active])
            #expect(try await api.transactionInfo(original) == firstRefunded)
            #expect(S.ids(try await api.allHistory(original, "?revoked=true").tokens) == [original])
            #expect(Set(S.ids(try await api.allHistory(original, "?revoked=False").tokens)) == [renewal, Self.upgrade])

            // 10. Refund of the last transaction: revoked (5).
            s = story.next()
            let upgradeRefunded = story.transaction(
                Self.upgrade, product: Self.premium, purchased: now - day, expires: now + 29 * day, signed: s,
                ["revocationDate": now - 2_000_000, "revocationReason": 0])
            try await api.notify(S.notification("REFUND", signedDate: s, transaction: upgradeRefunded, renewal: renewalInfo))
            let revoked = Item(group: Self.group, original: original, status: 5, transaction: upgradeRefunded, renewal: renewalInfo)
            try await Self.expect(api, original, [revoked])
            let refunds = try await api.get("/inApps/v2/refund/lookup/\(renewal)").ok()
            #expect(refunds["signedTransactions"] as? [String] == [firstRefunded, upgradeRefunded] && refunds["hasMore"] as? Bool == false)
            let newsRefunds = try await api.get("/inApps/v2/refund/lookup/\(Self.news1)").ok()
            #expect((newsRefunds["signedTransactions"] as? [String])?.isEmpty == true, "another customer's refunds")

            // 11. Out of order: older tokens of the last transaction and of the renewal info arrive late; nothing changes.
            let stale = story.transaction(Self.upgrade, product: Self.premium, purchased: now - day, expires: now + 29 * day, signed: now - 3_599_500)
            let staleInfo = story.renewalInfo(now - 3_599_500)
            try await api.notify(S.notification("DID_RENEW", signedDate: story.next(), transaction: stale, renewal: staleInfo))
            #expect(try await api.post("/inApps/v1/transactions", S.posted(stale)).status == 200)
            try await Self.expect(api, original, [revoked])
            #expect(try await api.transactionInfo(Self.upgrade) == upgradeRefunded)

            // 12. Family sharing: a family member's own transaction, PURCHASED by someone else; then sharing revoked.
            let family = N.Transaction(
                transactionId: shared, originalTransactionId: shared, purchaseDate: now - 5 * day, expiresDate: now + 25 * day,
                signedDate: story.next())
            let familyToken = S.transaction(family, ["inAppOwnershipType": "FAMILY_SHARED"])
            try await api.notify(S.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signedDate: family.signedDate, transaction: familyToken))
            try await Self.expect(api, shared, [Item(group: Self.group, original: shared, status: 1, transaction: familyToken, renewal: nil)])
            #expect(try await api.allHistory(shared, "?inAppOwnershipType=FAMILY_SHARED").tokens == [familyToken])
            #expect(try await api.allHistory(shared, "?inAppOwnershipType=PURCHASED").tokens.isEmpty)
            #expect(try await api.allHistory(original, "?inAppOwnershipType=FAMILY_SHARED").tokens.isEmpty)
            s = story.next()
            let familyRevoked = S.transaction(
                N.Transaction(
                    transactionId: shared, originalTransactionId: shared, purchaseDate: now - 5 * day, expiresDate: now + 25 * day, signedDate: s,
                    revocationDate: now - 60_000, revocationReason: 0), ["inAppOwnershipType": "FAMILY_SHARED"])
            try await api.notify(S.notification("REVOKE", signedDate: s, transaction: familyRevoked))
            try await Self.expect(api, shared, [Item(group: Self.group, original: shared, status: 5, transaction: familyRevoked, renewal: nil)])
            // The family member is not this customer.
            #expect(!S.ids(try await api.allHistory(original).tokens).contains(shared))
        }
    }

    /// Get All Subscription Statuses of `id` is exactly `items` (in group, then original id order),
    /// and each last transaction is what Get Transaction Info answers for its id.
    static func expect(
        _ api: APISession, _ id: String, _ items: [StatusBody.Item], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let body = try await api.statuses(id)
        #expect(body.items == items, sourceLocation: sourceLocation)
        #expect(
            body.json["environment"] as? String == "Production" && body.json["bundleId"] as? String == Synthetic.bundleID,
            sourceLocation: sourceLocation)
        for item in items {
            let id = try #require(S.payload(item.transaction)["transactionId"] as? String, sourceLocation: sourceLocation)
            #expect(try await api.transactionInfo(id) == item.transaction, sourceLocation: sourceLocation)
        }
    }

    /// History v1 and v2 of `id` are `tokens`, in the order the server stored them.
    static func expectHistory(_ api: APISession, _ id: String, _ tokens: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await api.allHistory(id).tokens == tokens, sourceLocation: sourceLocation)
        #expect(try await api.allHistory(id, version: "v1").tokens == tokens, sourceLocation: sourceLocation)
        #expect(try await api.allHistory(id, "?sort=DESCENDING").tokens == tokens.reversed(), sourceLocation: sourceLocation)
    }
}
