import AppReceipt
import Foundation
import HummingbirdTesting
import ReceiptTestSupport
import Testing

/// What the inspector page shows at a glance, through the router: the summary line and counts,
/// the badges per purchase and the subscriptions' periods and gaps, judged at the time of the
/// request; a notification's nested tokens decoded; fractional (Xcode) dates read as dates.
@Suite struct InspectorGlanceTests {
    static let day: Int64 = 86_400

    /// `2024-03-01 12:00Z`, as the report writes short dates.
    static func short(seconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm'Z'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The sample, judged now (its subscription ran out in March 2024): one line of counts, a
    /// refund, the trial, one subscription of three periods without gaps, dates with milliseconds.
    @Test func sampleReceipt() async throws {
        let bytes = try Fixtures.repositoryFile("Examples/sample-receipt.der")
        let receipt = try AppReceipt(bytes)
        try await InspectorTests().withServer { client in
            let report = try await InspectorTests.inspect(client, bytes)
            let summary = try #require(report["summary"] as? [String: Any])
            #expect(summary["text"] as? String == "5 purchases, 1 subscription, none active, 1 refunded")
            #expect(summary["purchases"] as? Int == 5 && summary["subscriptions"] as? Int == 1 && summary["active"] as? Int == 0)
            #expect(summary["refunded"] as? Int == 1 && summary["upgraded"] as? Int == 0 && summary["active_until"] == nil)
            let badges = try #require(report["purchase_badges"] as? [[String]])
            let byTransaction = Dictionary(uniqueKeysWithValues: zip(receipt.inAppPurchases.map(\.transactionIdentifier), badges))
            #expect(
                byTransaction == [
                    "100000000000005": [], "100000000000004": ["refunded"], "100000000000001": ["expired", "trial"],
                    "100000000000002": ["expired"], "100000000000003": ["expired"],
                ])
            let subscriptions = try #require(report["subscriptions"] as? [[String: Any]])
            #expect(subscriptions.count == 1 && subscriptions[0]["original_transaction_id"] as? String == "100000000000001")
            #expect(subscriptions[0]["active"] as? Bool == false && (subscriptions[0]["gaps"] as? [Any])?.isEmpty == true)
            let periods = try #require(subscriptions[0]["periods"] as? [[String: Any]])
            #expect(periods.map { $0["transaction_id"] as? String } == ["100000000000001", "100000000000002", "100000000000003"])
            #expect(periods.map { $0["start_ms"] as? Int } == [1_704_103_200_000, 1_706_695_200_000, 1_709_200_800_000])
            #expect(periods.map { $0["end_ms"] as? Int } == [1_706_695_200_000, 1_709_200_800_000, 1_711_879_200_000])
            let fields = try #require(report["fields"] as? [[String: String]])
            #expect(fields.first { $0["name"] == "receipt_creation_date" }?["ms"] == "1709294400000")
            let chain = try #require(report["chain"] as? [[String: Any]])
            #expect(chain.allSatisfy { ($0["not_before_ms"] as? Int).map { $0 % 1000 == 0 } == true && $0["not_after_ms"] is Int })
        }
    }

    /// A receipt built around the time of the request: a renewed subscription with a gap and a
    /// trial, an upgrade (the cancelled period of one product, the other product from that
    /// moment), and a refunded consumable.
    @Test func activeUpgradedRefundedAndGaps() async throws {
        let now = Int64(Date().timeIntervalSince1970)
        func purchase(
            _ transaction: String, _ original: String, _ product: String, from: Int64, to: Int64?, cancelled: Int64? = nil,
            trial: Bool? = nil
        ) -> TestReceipt.Purchase {
            TestReceipt.Purchase(
                productIdentifier: product, transactionIdentifier: transaction, purchaseDate: SyntheticReceipts.rfc3339(now + from * Self.day),
                originalTransactionIdentifier: original, expirationDate: to.map { SyntheticReceipts.rfc3339(now + $0 * Self.day) },
                cancellationDate: cancelled.map { SyntheticReceipts.rfc3339(now + $0 * Self.day) }, isTrialPeriod: trial)
        }
        let receipt = Synthetic.receipt([
            purchase("1", "1", "monthly", from: -70, to: -40, trial: true),
            purchase("2", "1", "monthly", from: -10, to: 20),
            purchase("3", "3", "basic", from: -20, to: 10, cancelled: -5),
            purchase("4", "3", "premium", from: -5, to: 25),
            purchase("5", "5", "coins", from: -3, to: nil, cancelled: -2),
        ])
        try await InspectorTests().withServer(roots: nil) { client in
            let report = try await InspectorTests.inspect(client, receipt)
            #expect(report["verdict"] as? String == "valid")
            let summary = try #require(report["summary"] as? [String: Any])
            let until = Self.short(seconds: now + 25 * Self.day)
            #expect(summary["text"] as? String == "5 purchases, 2 subscriptions, 2 active, the last until \(until), 1 refunded, 1 upgraded")
            #expect(summary["active"] as? Int == 2 && summary["active_until"] as? String == until)
            let listed = (report["purchases"] as? [[String: Any]] ?? []).map { $0["transaction_id"] as? String ?? "" }
            let badges = Dictionary(uniqueKeysWithValues: zip(listed, report["purchase_badges"] as? [[String]] ?? []))
            #expect(badges == ["1": ["expired", "trial"], "2": ["active"], "3": ["upgraded"], "4": ["active"], "5": ["refunded"]])
            let subscriptions = try #require(report["subscriptions"] as? [[String: Any]])
            #expect(subscriptions.map { $0["original_transaction_id"] as? String } == ["3", "1"], "the latest expiry first")
            #expect(subscriptions[0]["product_ids"] as? [String] == ["basic", "premium"] && (subscriptions[0]["gaps"] as? [Any])?.isEmpty == true)
            let gaps = try #require(subscriptions[1]["gaps"] as? [[String: Int]])
            #expect(gaps == [["start_ms": Int(now - 40 * Self.day) * 1000, "end_ms": Int(now - 10 * Self.day) * 1000]])
            let upgraded = (subscriptions[0]["periods"] as? [[String: Any]])?.first
            #expect(upgraded?["cancelled_ms"] as? Int == Int(now - 5 * Self.day) * 1000 && upgraded?["badges"] as? [String] == ["upgraded"])
        }
    }

    /// A notification's `signedTransactionInfo` and `signedRenewalInfo` are decoded into sections of
    /// their own (not verified on their own), its `data` members are rows, and its transaction is
    /// summarised; a transaction token with Xcode's fractional milliseconds has dates and badges.
    @Test func nestedTokensAndFractionalDates() async throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let expires = now + 29 * Self.day * 1000
        let transaction = SyntheticNotifications.Transaction(
            transactionId: "22", originalTransactionId: "21", purchaseDate: now - Self.day * 1000,
            expiresDate: expires, signedDate: now, offerDiscountType: "FREE_TRIAL")
        let notification = SyntheticNotifications.token(
            "DID_RENEW", signedDate: now, transaction: transaction,
            renewal: SyntheticNotifications.Renewal(originalTransactionId: "21", signedDate: now))
        var xcodeLike = transaction.payload
        xcodeLike["purchaseDate"] = 1_697_679_936_049.7297
        xcodeLike["expiresDate"] = 1_700_358_336_049.7297
        xcodeLike["isUpgraded"] = false
        let token = SyntheticNotifications.sign(xcodeLike)
        try await InspectorTests().withServer { client in
            let report = try await InspectorTests.inspect(client, Array(notification.utf8))
            #expect(report["payload_kind"] as? String == "notification" && report["badges"] == nil)
            let fields = try #require(report["fields"] as? [[String: String]])
            #expect(fields.contains(["name": "data.bundleId", "value": Synthetic.bundleID]))
            #expect(fields.contains(["name": "data.signedTransactionInfo", "value": "signed token, decoded below"]))
            #expect(!fields.contains { $0["name"] == "data" })
            let nested = try #require(report["nested"] as? [[String: Any]])
            #expect(nested.map { $0["name"] as? String } == ["signedRenewalInfo", "signedTransactionInfo"])
            #expect(nested.map { $0["payload_kind"] as? String } == ["renewalInfo", "transaction"])
            #expect(nested.allSatisfy { $0["verified"] as? Bool == false })
            #expect(nested[0]["badges"] == nil && nested[1]["badges"] as? [String] == ["active", "trial"])
            let decoded = try #require(nested[1]["fields"] as? [[String: String]])
            #expect(decoded.contains(["name": "transactionId", "value": "22"]))
            let expiry = try #require(decoded.first { $0["name"] == "expiresDate" })
            #expect(
                expiry["ms"] == String(expires) && expiry["utc"]?.hasSuffix("Etc/GMT") == true
                    && expiry["los_angeles"]?.hasSuffix("America/Los_Angeles") == true)
            let renewal = try #require(nested[0]["fields"] as? [[String: String]])
            #expect(renewal.contains(["name": "autoRenewProductId", "value": "com.example.receipts.monthly"]))
            let summary = try #require(report["summary"] as? [String: Any])
            #expect(summary["text"] as? String == "1 purchase, 1 subscription, 1 active until \(Self.short(seconds: expires / 1000))")

            let xcode = try await InspectorTests.inspect(client, Array(token.utf8))
            #expect(xcode["payload_kind"] as? String == "transaction" && xcode["badges"] as? [String] == ["expired", "trial"])
            let dates = try #require(xcode["fields"] as? [[String: String]])
            #expect(
                dates.contains([
                    "name": "expiresDate", "utc": "2023-11-19 01:45:36 Etc/GMT",
                    "los_angeles": "2023-11-18 17:45:36 America/Los_Angeles", "ms": "1700358336049",
                ]))
            #expect(
                dates.contains([
                    "name": "purchaseDate", "utc": "2023-10-19 01:45:36 Etc/GMT",
                    "los_angeles": "2023-10-18 18:45:36 America/Los_Angeles", "ms": "1697679936049",
                ]))
            #expect(dates.contains(["name": "isUpgraded", "value": "false"]))
            #expect((xcode["summary"] as? [String: Any])?["text"] as? String == "1 purchase, 1 subscription, none active")
        }
    }
}
