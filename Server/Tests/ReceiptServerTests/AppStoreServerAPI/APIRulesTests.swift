import Foundation
import ReceiptStore
import Testing

@testable import ReceiptService

/// The App Store Server API's rules that need no storage: the status of a subscription at a
/// time, the resume tokens, and the checks of history and notification-history requests.
@Suite struct APIRulesTests {
    static func facts(expires: Int64? = nil, revoked: Int64? = nil) -> SignedTransactionFacts {
        SignedTransactionFacts(
            jws: "t", type: "Auto-Renewable Subscription", subscriptionGroupIdentifier: "g", expiresMilliseconds: expires,
            revocationMilliseconds: revoked, inAppOwnershipType: "PURCHASED", appAccountToken: nil)
    }

    static func renewal(retry: Bool, grace: Int64? = nil) -> SignedRenewalFacts {
        SignedRenewalFacts(jws: "r", isInBillingRetryPeriod: retry, gracePeriodExpiresMilliseconds: grace)
    }

    @Test func statusFollowsApplesOrder() {
        // Revoked wins over an expiry still ahead; at the revocation instant it is revoked.
        #expect(SubscriptionStatus(last: Self.facts(expires: 200, revoked: 100), renewal: nil, at: 100) == .revoked)
        #expect(SubscriptionStatus(last: Self.facts(expires: 200, revoked: 100), renewal: nil, at: 99) == .active)
        // Active strictly before expiry.
        #expect(SubscriptionStatus(last: Self.facts(expires: 200), renewal: Self.renewal(retry: true, grace: 300), at: 199) == .active)
        #expect(SubscriptionStatus(last: Self.facts(expires: 200), renewal: nil, at: 200) == .expired)
        // Grace period, then billing retry once it has passed; no retry flag: expired.
        #expect(SubscriptionStatus(last: Self.facts(expires: 200), renewal: Self.renewal(retry: true, grace: 300), at: 299) == .billingGracePeriod)
        #expect(SubscriptionStatus(last: Self.facts(expires: 200), renewal: Self.renewal(retry: true, grace: 300), at: 300) == .billingRetry)
        #expect(SubscriptionStatus(last: Self.facts(expires: 200), renewal: Self.renewal(retry: true), at: 250) == .billingRetry)
        #expect(SubscriptionStatus(last: Self.facts(expires: 200), renewal: Self.renewal(retry: false, grace: 300), at: 250) == .expired)
    }

    @Test func lastTransactionIsTheLatestPurchase() {
        func row(_ id: String, purchased: Int64) -> StoredSignedTransaction {
            StoredSignedTransaction(
                transactionID: id, originalTransactionID: "1", productID: "p", purchaseMilliseconds: purchased, signedMilliseconds: 0,
                changedMilliseconds: 0, facts: Self.facts())
        }
        // "10" after "9" on equal dates (ids compare as numbers), whatever the order given.
        let rows = [row("10", purchased: 5), row("9", purchased: 5), row("3", purchased: 4)]
        #expect(SubscriptionStatus.last(of: rows)?.transactionID == "10")
        #expect(SubscriptionStatus.last(of: rows.reversed())?.transactionID == "10")
        #expect(SubscriptionStatus.last(of: [row("3", purchased: 6), row("10", purchased: 5)])?.transactionID == "3")
    }

    @Test func pageTokensRoundTripAndRefuseOtherText() throws {
        let token = PageToken(milliseconds: 1_704_103_200_000, id: "2000000000000001")
        let text = token.encoded(.history)
        #expect(PageToken(text, .history) == token)
        #expect(PageToken(text, .refunds) == nil)   // a history revision is not a refund revision
        #expect(PageToken(PageToken.start.encoded(.notifications), .notifications) == .start)
        for bad in ["", "!!", "bm90IGEgdG9rZW4", String(repeating: "A", count: 513), "aDp4OjE"] {
            #expect(PageToken(bad, .history) == nil, "\(bad)")
        }
    }

    @Test func pagesResumeStrictlyAfterTheToken() {
        let items = (1 ... 45).map { PageToken(milliseconds: Int64($0), id: "\($0)") }
        let first = Page(items, after: nil, size: 20) { $0 }
        #expect(first.items.count == 20 && first.hasMore && first.next == items[19])
        let third = Page(items, after: Page(items, after: first.next, size: 20) { $0 }.next, size: 20) { $0 }
        #expect(third.items == Array(items[40...]) && !third.hasMore && third.next == items[44])
        // An empty page keeps the token it was asked with.
        #expect(Page(items, after: third.next, size: 20) { $0 }.next == third.next)
        let descending = Array(items.reversed())
        let down = Page(descending, after: items[10], descending: true, size: 3) { $0 }
        #expect(down.items == [items[9], items[8], items[7]])
    }

    @Test func historyQueryIsCheckedAsApplesIs() throws {
        func error(_ query: [(String, String)]) -> Int64? {
            do {
                _ = try HistoryRequest(query: query.map { (name: $0.0, value: $0.1) })
                return nil
            } catch { return error.code }
        }
        #expect(error([("revision", "nope!")]) == 4_000_005)
        #expect(error([("startDate", "12a")]) == 4_000_015)
        #expect(error([("endDate", "-1")]) == 4_000_016)
        #expect(error([("startDate", "5"), ("endDate", "5")]) == 4_000_013)
        #expect(error([("productType", "SUBSCRIPTION")]) == 4_000_022)
        #expect(error([("inAppOwnershipType", "purchased")]) == 4_000_026)
        #expect(error([("sort", "ascending")]) == 4_000_021)
        #expect(error([("revoked", "yes")]) == 4_000_030)
        #expect(error([("revoked", "True"), ("revoked", "x"), ("sort", "DESCENDING"), ("unknown", "ignored")]) == nil)
        let request = try HistoryRequest(query: [
            (name: "revoked", value: "FALSE"), (name: "productType", value: "CONSUMABLE"), (name: "productType", value: "AUTO_RENEWABLE"),
        ])
        #expect(request.revoked == false)
        #expect(request.types == ["Consumable", "Auto-Renewable Subscription"])
    }

    @Test func historyFiltersAllMustMatchAndAnyValueOfOne() throws {
        func row(_ id: String, purchased: Int64, product: String, type: String, group: String?, revoked: Int64? = nil) -> StoredSignedTransaction {
            StoredSignedTransaction(
                transactionID: id, originalTransactionID: "1", productID: product, purchaseMilliseconds: purchased, signedMilliseconds: 0,
                changedMilliseconds: Int64(id)!,
                facts: SignedTransactionFacts(
                    jws: id, type: type, subscriptionGroupIdentifier: group, expiresMilliseconds: nil, revocationMilliseconds: revoked,
                    inAppOwnershipType: "PURCHASED", appAccountToken: nil))
        }
        let rows = [
            row("1", purchased: 100, product: "a", type: "Auto-Renewable Subscription", group: "g1"),
            row("2", purchased: 200, product: "b", type: "Auto-Renewable Subscription", group: "g2", revoked: 250),
            row("3", purchased: 300, product: "c", type: "Consumable", group: nil),
        ]
        func ids(_ query: [(String, String)]) throws -> [String] {
            try HistoryRequest(query: query.map { (name: $0.0, value: $0.1) }).page(rows, size: 20).items.map(\.transactionID)
        }
        #expect(try ids([]) == ["1", "2", "3"])
        #expect(try ids([("startDate", "200"), ("endDate", "300")]) == ["2"])   // start inclusive, end exclusive
        #expect(try ids([("subscriptionGroupIdentifier", "g1"), ("subscriptionGroupIdentifier", "g2")]) == ["1", "2"])
        #expect(try ids([("subscriptionGroupIdentifier", "g2"), ("productId", "a")]) == [])
        #expect(try ids([("revoked", "True")]) == ["2"])
        #expect(try ids([("revoked", "false"), ("productType", "AUTO_RENEWABLE")]) == ["1"])
        #expect(try ids([("sort", "DESCENDING")]) == ["3", "2", "1"])
        #expect(try ids([("inAppOwnershipType", "FAMILY_SHARED")]) == [])
    }

    @Test func notificationHistoryBodyIsCheckedAsApplesIs() throws {
        func error(_ json: String, token: String? = nil) -> Int64? {
            do {
                _ = try NotificationHistoryRequest(body: Data(json.utf8), paginationToken: token)
                return nil
            } catch { return error.code }
        }
        #expect(error(#"{"startDate": 1, "endDate": 2}"#) == nil)
        #expect(error(#"{"startDate": 1, "endDate": 2, "notificationType": null, "transactionId": null}"#) == nil)
        #expect(error(#"{"endDate": 2}"#) == 4_000_015)
        #expect(error(#"{"startDate": "1", "endDate": 2}"#) == 4_000_015)
        #expect(error(#"{"startDate": 1.5, "endDate": 2}"#) == 4_000_015)
        #expect(error(#"{"startDate": true, "endDate": 2}"#) == 4_000_015)
        #expect(error(#"{"startDate": 1, "endDate": 2.5}"#) == 4_000_016)
        #expect(error(#"{"startDate": 1, "endDate": "2"}"#) == 4_000_016)
        #expect(error(#"{"startDate": 2, "endDate": 2}"#) == 4_000_013)
        #expect(error(#"{"startDate": 1, "endDate": 2, "notificationType": "NOPE"}"#) == 4_000_018)
        #expect(error(#"{"startDate": 1, "endDate": 2, "notificationSubtype": "NOPE"}"#) == 4_000_018)
        #expect(error(#"{"startDate": 1, "endDate": 2, "transactionId": "12x"}"#) == 4_000_006)
        #expect(error(#"{"startDate": 1, "endDate": 2, "transactionId": "12", "notificationType": "DID_RENEW"}"#) == 4_000_019)
        #expect(error(#"{"startDate": 1, "endDate": 2}"#, token: "garbage!") == 4_000_014)
        #expect(error(#"[1]"#) == 4_000_000)
    }

    /// `POST /inApps/v1/transactions`: exactly one of the two members, a string; `null` counts as
    /// absent; anything else is 4000000 with a reason.
    @Test func postedBodyHoldsOneToken() {
        func token(_ json: String) -> PostedToken? { try? PostedToken(body: Data(json.utf8)) }
        func reason(_ json: String) -> String? {
            do {
                _ = try PostedToken(body: Data(json.utf8))
                return nil
            } catch { return error.code == 4_000_000 ? error.message : "code \(error.code)" }
        }
        #expect(token(#"{"signedTransactionInfo": "a.b.c"}"#) == .transaction("a.b.c"))
        #expect(token(#"{"signedAppTransaction": "a.b.c"}"#) == .appTransaction("a.b.c"))
        #expect(token(#"{"signedTransactionInfo": "a.b.c", "signedAppTransaction": null, "other": 1}"#) == .transaction("a.b.c"))
        let oneOfTwo = #"Bad request. The body must hold one of "signedTransactionInfo" and "signedAppTransaction", a string."#
        #expect(reason(#"{"signedTransactionInfo": "a", "signedAppTransaction": "b"}"#) == oneOfTwo)
        #expect(reason(#"{}"#) == oneOfTwo)
        #expect(reason(#"{"signedTransactionInfo": null}"#) == oneOfTwo)
        #expect(reason(#"{"signedTransactionInfo": 1}"#) == oneOfTwo)
        #expect(reason(#"{"signedAppTransaction": ["a"]}"#) == oneOfTwo)
        #expect(reason(#"["a.b.c"]"#) == "Bad request. The body is not a JSON object.")
        #expect(reason(#""a.b.c""#) == "Bad request. The body is not a JSON object.")
        #expect(reason("signedTransactionInfo=a") == "Bad request. The body is not a JSON object.")
    }

    @Test func errorBodiesAreApples() {
        #expect(AppStoreAPIError.transactionNotFound.json == #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)
        #expect(AppStoreAPIError.transactionNotFound.httpStatus == 404)
        #expect(AppStoreAPIError.unknown.httpStatus == 500 && AppStoreAPIError.unknown.code == 5_000_001)
    }
}
