import Foundation
import HummingbirdTesting
import ReceiptStore
import Testing

/// A subscription's life told by notifications, each changing the next `verifyReceipt` answer as
/// Apple's would: `latest_receipt_info` with renewals and refunds no receipt has shown, and
/// `pending_renewal_info`. Both backends; two instances on one PostgreSQL.
@Suite struct NotificationLifecycleTests {
    typealias N = SyntheticNotifications
    static let day: Int64 = 86_400_000
    static let t0: Int64 = 1_704_103_200_000   // 2024-01-01T10:00:00Z
    static let first = "9100000001", renewal = "9100000002"
    /// The device's receipt: the first month only, created an hour after the purchase.
    static let receipt = Synthetic.receipt([Synthetic.renewal(first, original: first, purchased: t0 / 1000)], created: t0 / 1000 + 3_600)

    static func firstMonth(signed: Int64, expires: Int64 = t0 + 30 * day) -> N.Transaction {
        N.Transaction(transactionId: first, originalTransactionId: first, purchaseDate: t0, expiresDate: expires, signedDate: signed)
    }

    static func secondMonth(signed: Int64, revoked: Int64? = nil) -> N.Transaction {
        N.Transaction(
            transactionId: renewal, originalTransactionId: first, purchaseDate: t0 + 30 * day, expiresDate: t0 + 60 * day,
            signedDate: signed, revocationDate: revoked, revocationReason: revoked == nil ? nil : 1)
    }

    static func renewalInfo(signed: Int64, autoRenew: Int64 = 1, intent: Int64? = nil, retry: Bool? = nil, grace: Int64? = nil) -> N.Renewal {
        N.Renewal(
            originalTransactionId: first, autoRenewStatus: autoRenew, signedDate: signed, expirationIntent: intent,
            isInBillingRetryPeriod: retry, gracePeriodExpiresDate: grace)
    }

    /// The six notifications, in the order Apple sends them.
    static let story: [(name: String, token: String)] = {
        let subscribed = t0 + 10_000, renewed = t0 + 30 * day + 5_000, failed = t0 + 60 * day + 5_000
        let disabled = t0 + 61 * day, expired = t0 + 77 * day, refunded = t0 + 80 * day
        return [
            (
                "SUBSCRIBED",
                N.token(
                    "SUBSCRIBED", subtype: "INITIAL_BUY", signedDate: subscribed,
                    transaction: firstMonth(signed: subscribed), renewal: renewalInfo(signed: subscribed))
            ),
            (
                "DID_RENEW",
                N.token("DID_RENEW", signedDate: renewed, transaction: secondMonth(signed: renewed), renewal: renewalInfo(signed: renewed))
            ),
            (
                "DID_FAIL_TO_RENEW",
                N.token(
                    "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", signedDate: failed, transaction: secondMonth(signed: failed),
                    renewal: renewalInfo(signed: failed, intent: 2, retry: true, grace: t0 + 76 * day))
            ),
            (
                "DID_CHANGE_RENEWAL_STATUS",
                N.token(
                    "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", signedDate: disabled,
                    transaction: secondMonth(signed: disabled),
                    renewal: renewalInfo(signed: disabled, autoRenew: 0, intent: 2, retry: true, grace: t0 + 76 * day))
            ),
            (
                "EXPIRED",
                N.token(
                    "EXPIRED", subtype: "VOLUNTARY", signedDate: expired, transaction: secondMonth(signed: expired),
                    renewal: renewalInfo(signed: expired, autoRenew: 0, intent: 1, retry: false))
            ),
            (
                "REFUND",
                N.token(
                    "REFUND", signedDate: refunded, transaction: secondMonth(signed: refunded, revoked: t0 + 79 * day),
                    renewal: renewalInfo(signed: refunded, autoRenew: 0, intent: 1, retry: false))
            ),
        ]
    }()

    /// `pending_renewal_info` before anything failed.
    static let renewing = [
        "auto_renew_product_id": "com.example.receipts.monthly", "auto_renew_status": "1",
        "original_transaction_id": first, "product_id": "com.example.receipts.monthly",
    ]
    /// The grace period's end, 2024-03-17T10:00:00Z: daylight saving time in Los Angeles.
    static let grace = [
        "grace_period_expires_date": "2024-03-17 10:00:00 Etc/GMT", "grace_period_expires_date_ms": "1710669600000",
        "grace_period_expires_date_pst": "2024-03-17 03:00:00 America/Los_Angeles",
    ]
    /// The renewal as `latest_receipt_info` lists it (a notification-only transaction).
    static let renewalEntry = [
        "quantity": "1", "product_id": "com.example.receipts.monthly", "transaction_id": renewal, "original_transaction_id": first,
        "purchase_date": "2024-01-31 10:00:00 Etc/GMT", "purchase_date_ms": "1706695200000",
        "purchase_date_pst": "2024-01-31 02:00:00 America/Los_Angeles",
        "original_purchase_date": "2024-01-01 10:00:00 Etc/GMT", "original_purchase_date_ms": "1704103200000",
        "original_purchase_date_pst": "2024-01-01 02:00:00 America/Los_Angeles",
        "expires_date": "2024-03-01 10:00:00 Etc/GMT", "expires_date_ms": "1709287200000",
        "expires_date_pst": "2024-03-01 02:00:00 America/Los_Angeles",
        "web_order_line_item_id": "5" + renewal, "is_trial_period": "false", "is_in_intro_offer_period": "false",
        "in_app_ownership_type": "PURCHASED", "subscription_group_identifier": "21000001",
    ]

    /// What the receipt's answer must show after each notification of `story`.
    static func expectAfter(_ step: String, _ answer: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let entries = try #require(answer["latest_receipt_info"] as? [[String: String]], sourceLocation: sourceLocation)
        let pending = answer["pending_renewal_info"] as? [[String: String]]
        switch step {
        case "SUBSCRIBED":
            // The receipt (created after the notification) wins for its month, keeping what only the notification knows.
            #expect(entries.map { $0["transaction_id"] } == [first], sourceLocation: sourceLocation)
            #expect(
                entries[0]["in_app_ownership_type"] == "PURCHASED" && entries[0]["subscription_group_identifier"] == "21000001",
                sourceLocation: sourceLocation)
            #expect(entries[0]["expires_date_ms"] == String(t0 + 30 * day), sourceLocation: sourceLocation)
            #expect(pending == [renewing], sourceLocation: sourceLocation)
        case "DID_RENEW":
            #expect(entries.map { $0["transaction_id"] } == [renewal, first], sourceLocation: sourceLocation)
            #expect(entries[0] == renewalEntry, sourceLocation: sourceLocation)
            #expect(pending == [renewing], sourceLocation: sourceLocation)
        case "DID_FAIL_TO_RENEW":
            #expect(entries.map { $0["transaction_id"] } == [renewal, first], sourceLocation: sourceLocation)
            #expect(
                pending == [renewing.merging(grace) { $1 }.merging(["expiration_intent": "2", "is_in_billing_retry_period": "1"]) { $1 }],
                sourceLocation: sourceLocation)
        case "DID_CHANGE_RENEWAL_STATUS":
            #expect(
                pending == [
                    renewing.merging(grace) { $1 }.merging([
                        "auto_renew_status": "0", "expiration_intent": "2",
                        "is_in_billing_retry_period": "1",
                    ]) { $1 }
                ],
                sourceLocation: sourceLocation)
        case "EXPIRED":
            #expect(
                pending == [renewing.merging(["auto_renew_status": "0", "expiration_intent": "1", "is_in_billing_retry_period": "0"]) { $1 }],
                sourceLocation: sourceLocation)
            #expect(entries[0] == renewalEntry, sourceLocation: sourceLocation)
        case "REFUND":
            #expect(entries.map { $0["transaction_id"] } == [renewal, first], sourceLocation: sourceLocation)
            #expect(
                entries[0]
                    == renewalEntry.merging([
                        "cancellation_date": "2024-03-20 10:00:00 Etc/GMT", "cancellation_date_ms": "1710928800000",
                        "cancellation_date_pst": "2024-03-20 03:00:00 America/Los_Angeles", "cancellation_reason": "1",
                    ]) { $1 }, sourceLocation: sourceLocation)
        default:
            Issue.record("unknown step \(step)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: TestDatabase.backends)
    func eachNotificationChangesTheNextAnswer(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await TestServer.with(N.configuration(database)) { client in
            let before = try await client.verify(Synthetic.body(Self.receipt))
            #expect(JSONAnswer.latestTransactionIDs(before) == [Self.first])
            #expect(before["pending_renewal_info"] == nil)
            #expect((before["latest_receipt_info"] as? [[String: String]])?.first?["in_app_ownership_type"] == nil)
            var previous = before
            for (name, token) in Self.story {
                #expect(try await client.notify(token: token) == 200, "\(name)")
                let answer = try await client.verify(Synthetic.body(Self.receipt))
                #expect(try JSONAnswer.status(answer) == 0)
                try Self.expectAfter(name, answer)
                #expect(
                    !NSDictionary(dictionary: Self.withoutRequestDates(answer)).isEqual(to: Self.withoutRequestDates(previous)),
                    "\(name) changed nothing")
                previous = answer
            }
            // exclude-old-transactions keeps the refunded renewal, and the renewal info.
            let newest = try await client.verify(Synthetic.body(Self.receipt, excludeOld: true))
            #expect(JSONAnswer.latestTransactionIDs(newest) == [Self.renewal])
            #expect((newest["pending_renewal_info"] as? [Any])?.count == 1)
            #expect(newest["latest_receipt"] as? String == Data(Self.receipt).base64EncodedString())
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 1, transactions: 2, notifications: 6))
    }

    /// Notifications arriving before any receipt, and in any order (the latest `signedDate` wins):
    /// the same answer as in order.
    @Test(arguments: TestDatabase.backends)
    func orderOfArrivalDoesNotMatter(_ backend: TestDatabase.Backend) async throws {
        let inOrder = try await TestDatabase.make(backend)
        let reversed = try await TestDatabase.make(backend)
        let expected = try await Self.finalAnswer(inOrder, Self.story.map(\.token))
        let shuffled = try await Self.finalAnswer(reversed, Self.story.map(\.token).reversed() + Self.story.map(\.token).shuffled())
        #expect(NSDictionary(dictionary: shuffled).isEqual(to: expected))
        try Self.expectAfter("REFUND", shuffled)
    }

    /// Two notifications whose transaction and renewal info carry the same `signedDate` but say
    /// different things: whichever arrives first, both databases keep the same one.
    @Test(arguments: TestDatabase.backends)
    func equalSignedDatesResolveAlike(_ backend: TestDatabase.Backend) async throws {
        let signed = Self.t0 + 30 * Self.day + 5_000
        var longer = Self.secondMonth(signed: signed)
        longer.expiresDate += Self.day
        let a = N.token("DID_RENEW", signedDate: signed, transaction: Self.secondMonth(signed: signed), renewal: Self.renewalInfo(signed: signed))
        let b = N.token(
            "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", signedDate: signed, transaction: longer,
            renewal: Self.renewalInfo(signed: signed, autoRenew: 0))
        let ab = try await Self.finalAnswer(try await TestDatabase.make(backend), [a, b])
        let ba = try await Self.finalAnswer(try await TestDatabase.make(backend), [b, a])
        #expect(NSDictionary(dictionary: ab).isEqual(to: ba))
        #expect((ab["pending_renewal_info"] as? [[String: String]])?.count == 1)
        #expect(JSONAnswer.latestTransactionIDs(ab) == [Self.renewal, Self.first])
    }

    /// Posts `tokens`, then the receipt; its answer without the request dates.
    static func finalAnswer(_ database: TestDatabase, _ tokens: [String]) async throws -> [String: Any] {
        let text = try await TestServer.with(N.configuration(database)) { client in
            for token in tokens { #expect(try await client.notify(token: token) == 200) }
            return try await client.verifyText(Synthetic.body(receipt))
        }
        return withoutRequestDates(try JSONAnswer.object(text))
    }

    /// A renewal told only by a notification, before any receipt of the subscription reached the
    /// server, is kept and shows up with the receipt.
    @Test(arguments: TestDatabase.backends)
    func notificationBeforeAnyReceipt(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        try await TestServer.with(N.configuration(database)) { client in
            for (_, token) in Self.story.prefix(2) {
                let status = try await client.notify(token: token)
                #expect(status == 200)
            }
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 0, transactions: 2, notifications: 2))
        try await TestServer.with(N.configuration(database)) { client in
            let answer = try await client.verify(Synthetic.body(Self.receipt))
            try Self.expectAfter("DID_RENEW", answer)
            // Another app's or environment's receipt of the same ids sees none of it.
            let sandbox = Synthetic.receipt(
                [Synthetic.renewal(Self.first, original: Self.first, purchased: Self.t0 / 1000)],
                created: Self.t0 / 1000 + 3_600, environment: "Sandbox")
            let other = try await client.verify(Synthetic.body(sandbox), sandbox: true)
            #expect(JSONAnswer.latestTransactionIDs(other) == [Self.first])
            #expect(other["pending_renewal_info"] == nil)
        }
    }

    /// The later source wins between a receipt and a notification: a receipt created after a
    /// notification replaces its facts but keeps what only notifications know; a later
    /// notification replaces the receipt's.
    @Test(arguments: TestDatabase.backends)
    func laterSourceWinsBetweenReceiptAndNotification(_ backend: TestDatabase.Backend) async throws {
        let database = try await TestDatabase.make(backend)
        let early = Self.firstMonth(signed: Self.t0 + 10_000, expires: Self.t0 + 29 * Self.day)
        let extended = Self.firstMonth(signed: Self.t0 + 7_200_000, expires: Self.t0 + 31 * Self.day)
        let later = Synthetic.receipt(
            [Synthetic.renewal(Self.first, original: Self.first, purchased: Self.t0 / 1000)], created: Self.t0 / 1000 + 10_800)
        try await TestServer.with(N.configuration(database)) { client in
            #expect(try await client.notify(token: N.token("SUBSCRIBED", signedDate: Self.t0 + 10_000, transaction: early)) == 200)
            let receiptWins = try await client.verify(Synthetic.body(Self.receipt))   // created t0 + 1 h
            #expect(Self.expires(receiptWins) == String(Self.t0 + 30 * Self.day))
            #expect((receiptWins["latest_receipt_info"] as? [[String: String]])?.first?["in_app_ownership_type"] == "PURCHASED")
            #expect(try await client.notify(token: N.token("RENEWAL_EXTENDED", signedDate: Self.t0 + 7_200_000, transaction: extended)) == 200)
            #expect(Self.expires(try await client.verify(Synthetic.body(Self.receipt))) == String(Self.t0 + 31 * Self.day))
            // A receipt created later still (t0 + 3 h) is the latest source again, and the latest receipt.
            let newer = try await client.verify(Synthetic.body(later))
            #expect(Self.expires(newer) == String(Self.t0 + 30 * Self.day))
            #expect(newer["latest_receipt"] as? String == Data(later).base64EncodedString())
        }
        #expect(try await Inspect.counts(database) == StoreCounts(receipts: 2, transactions: 1, notifications: 2))
    }

    /// Two instances on one PostgreSQL: a notification posted to one changes the other's answer.
    @Test(.enabled(if: TestDatabase.postgresAvailable))
    func notificationAcrossInstances() async throws {
        let database = try await TestDatabase.make(.postgres)
        try await TestServer.with(N.configuration(database)) { a in
            try await TestServer.with(N.configuration(database)) { b in
                let before = try await b.verify(Synthetic.body(Self.receipt))
                #expect(JSONAnswer.latestTransactionIDs(before) == [Self.first])
                for (_, token) in Self.story.prefix(3) { #expect(try await a.notify(token: token) == 200) }
                try Self.expectAfter("DID_FAIL_TO_RENEW", try await b.verify(Synthetic.body(Self.receipt)))
            }
        }
    }

    /// The newest entry's `expires_date_ms`.
    static func expires(_ answer: [String: Any]) -> String? {
        (answer["latest_receipt_info"] as? [[String: String]])?.first?["expires_date_ms"]
    }

    static func withoutRequestDates(_ answer: [String: Any]) -> [String: Any] {
        var answer = answer
        if var receipt = answer["receipt"] as? [String: Any] {
            for key in ["request_date", "request_date_ms", "request_date_pst"] { receipt[key] = nil }
            answer["receipt"] = receipt
        }
        return answer
    }
}
