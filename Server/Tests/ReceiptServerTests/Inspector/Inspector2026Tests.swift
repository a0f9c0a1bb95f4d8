import AppStoreJWS
import Foundation
import HummingbirdTesting
import Testing

/// Issue 40, Apple's API as of 2026 in the inspector: a transaction's and renewal info's
/// `advancedCommerceInfo` (its items, their offers, refunds and price increases), `billingPlanType`,
/// `renewalBillingPlanType` and `commitmentInfo` as rows of their own under Apple's names, dates as
/// dates, also inside a notification's nested token; a Retention Messaging real-time request as
/// its own kind. The JSON is Apple's (AppleAPI2026PayloadTests), signed by the synthetic G3 chain.
@Suite struct Inspector2026Tests {
    /// Apple's signedTransaction.json members of 2026, with an offer (advancedCommerceOffer.json).
    static let transaction = """
        {"transactionId":"23456","originalTransactionId":"23456","bundleId":"com.example.receipts","productId":"com.example.sku",\
        "purchaseDate":1698148800000,"expiresDate":1700827200000,"environment":"Production","type":"Auto-Renewable Subscription",\
        "advancedCommerceInfo":{"descriptors":{"description":"Premium Plan","displayName":"Premium"},"estimatedTax":1500,\
        "items":[{"SKU":"com.example.sku.premium","description":"Premium feature","displayName":"Premium Feature","price":9990,\
        "offer":{"periodCount":3,"price":5000,"period":"P1M","reason":"WIN_BACK"},\
        "refunds":[{"refundAmount":5000,"refundDate":1698149100000,"refundReason":"FULFILLMENT_ISSUE","refundType":"PRORATED"}],\
        "revocationDate":1698149200000}],"period":"P1M","requestReferenceId":"ref-12345","taxCode":"TAX_CODE_1",\
        "taxExclusivePrice":8490,"taxRate":"0.15"},\
        "billingPlanType":"MONTHLY",\
        "commitmentInfo":{"billingPeriodNumber":3,"commitmentExpiresDate":1698150000000,"commitmentPrice":119880,"totalBillingPeriods":12}}
        """

    /// Apple's signedRenewalInfo.json members of 2026.
    static let renewalInfo = """
        {"originalTransactionId":"12345","productId":"com.example.product","autoRenewStatus":1,"environment":"Production",\
        "advancedCommerceInfo":{"consistencyToken":"token-abc-123","descriptors":{"description":"Premium Plan","displayName":"Premium"},\
        "items":[{"SKU":"com.example.sku.premium","description":"Premium feature","displayName":"Premium Feature","price":9990,\
        "priceIncreaseInfo":{"dependentSKUs":["com.example.sku.1","com.example.sku.2"],"price":12990,"status":"PENDING"}}],\
        "period":"P1M","requestReferenceId":"ref-12345","taxCode":"TAX_CODE_1"},\
        "commitmentInfo":{"commitmentAutoRenewProductId":"com.example.product.commitment","commitmentAutoRenewStatus":1,\
        "commitmentRenewalBillingPlanType":"MONTHLY","commitmentRenewalDate":1698149500000,"commitmentRenewalPrice":9990},\
        "renewalBillingPlanType":"MONTHLY"}
        """

    /// Apple's decodedRealtimeRequest.json.
    static let realtimeRequest = """
        {"originalTransactionId":"99371282","appAppleId":531412,"productId":"com.example.product","userLocale":"en-US",\
        "requestIdentifier":"3db5c98d-8acf-4e29-831e-8e1f82f9f6e9","environment":"Production"}
        """

    /// `json` with `signedDate` now, signed by the synthetic chain.
    static func token(_ json: String) throws -> String {
        var payload = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        payload["signedDate"] = Int64(Date().timeIntervalSince1970 * 1000)
        return SyntheticNotifications.sign(payload)
    }

    static func withServer(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        var configuration = SyntheticNotifications.configuration(try await TestDatabase.make(.sqlite))
        configuration.inspector = true
        try await TestServer.with(configuration, body)
    }

    /// A date row as the report writes one (Apple's texts and the milliseconds).
    static func date(_ name: String, _ utc: String, _ losAngeles: String, _ ms: String) -> [String: String] {
        ["name": name, "utc": utc + " Etc/GMT", "los_angeles": losAngeles + " America/Los_Angeles", "ms": ms]
    }

    /// The rows whose names start with `prefix`, in report order.
    static func rows(_ fields: [[String: String]], _ prefix: String) -> [[String: String]] {
        fields.filter { $0["name"]?.hasPrefix(prefix) == true }
    }

    /// The transaction's `advancedCommerceInfo` rows, every level opened: descriptors, each item
    /// with its offer and refunds (dates as dates), then the transaction's own members.
    static let transactionRows: [[String: String]] = [
        ["name": "advancedCommerceInfo.descriptors.description", "value": "Premium Plan"],
        ["name": "advancedCommerceInfo.descriptors.displayName", "value": "Premium"],
        ["name": "advancedCommerceInfo.estimatedTax", "value": "1500"],
        ["name": "advancedCommerceInfo.items[0].SKU", "value": "com.example.sku.premium"],
        ["name": "advancedCommerceInfo.items[0].description", "value": "Premium feature"],
        ["name": "advancedCommerceInfo.items[0].displayName", "value": "Premium Feature"],
        ["name": "advancedCommerceInfo.items[0].offer.period", "value": "P1M"],
        ["name": "advancedCommerceInfo.items[0].offer.periodCount", "value": "3"],
        ["name": "advancedCommerceInfo.items[0].offer.price", "value": "5000"],
        ["name": "advancedCommerceInfo.items[0].offer.reason", "value": "WIN_BACK"],
        ["name": "advancedCommerceInfo.items[0].price", "value": "9990"],
        ["name": "advancedCommerceInfo.items[0].refunds[0].refundAmount", "value": "5000"],
        date("advancedCommerceInfo.items[0].refunds[0].refundDate", "2023-10-24 12:05:00", "2023-10-24 05:05:00", "1698149100000"),
        ["name": "advancedCommerceInfo.items[0].refunds[0].refundReason", "value": "FULFILLMENT_ISSUE"],
        ["name": "advancedCommerceInfo.items[0].refunds[0].refundType", "value": "PRORATED"],
        date("advancedCommerceInfo.items[0].revocationDate", "2023-10-24 12:06:40", "2023-10-24 05:06:40", "1698149200000"),
        ["name": "advancedCommerceInfo.period", "value": "P1M"],
        ["name": "advancedCommerceInfo.requestReferenceId", "value": "ref-12345"],
        ["name": "advancedCommerceInfo.taxCode", "value": "TAX_CODE_1"],
        ["name": "advancedCommerceInfo.taxExclusivePrice", "value": "8490"],
        ["name": "advancedCommerceInfo.taxRate", "value": "0.15"],
        ["name": "billingPlanType", "value": "MONTHLY"],
        ["name": "bundleId", "value": "com.example.receipts"],
        ["name": "commitmentInfo.billingPeriodNumber", "value": "3"],
        date("commitmentInfo.commitmentExpiresDate", "2023-10-24 12:20:00", "2023-10-24 05:20:00", "1698150000000"),
        ["name": "commitmentInfo.commitmentPrice", "value": "119880"],
        ["name": "commitmentInfo.totalBillingPeriods", "value": "12"],
    ]

    /// An array of strings, as compact JSON.
    static let dependentSKUs = #"["com.example.sku.1","com.example.sku.2"]"#

    /// A transaction token: the 2026 members are rows under Apple's names, each nested object and
    /// array of objects opened (none left as JSON text), dates as dates; it is still a transaction.
    @Test func transactionMembers() async throws {
        let token = try Self.token(Self.transaction)
        try await Self.withServer { client in
            let report = try await InspectorTests.inspect(client, Array(token.utf8))
            #expect(report["verdict"] as? String == "valid", "\(report["message"] ?? "")")
            #expect(report["payload_kind"] as? String == "transaction" && report["badges"] as? [String] == ["expired"])
            let fields = try #require(report["fields"] as? [[String: String]])
            #expect(Array(fields.prefix(Self.transactionRows.count)) == Self.transactionRows)
            #expect(!fields.contains { ["advancedCommerceInfo", "advancedCommerceInfo.items", "commitmentInfo"].contains($0["name"]) })
        }
    }

    /// Renewal info: its `advancedCommerceInfo` with an item's price increase (the dependent SKUs
    /// an array of strings, as JSON), its `commitmentInfo` and `renewalBillingPlanType`.
    @Test func renewalInfoMembers() async throws {
        let token = try Self.token(Self.renewalInfo)
        try await Self.withServer { client in
            let report = try await InspectorTests.inspect(client, Array(token.utf8))
            #expect(report["verdict"] as? String == "valid", "\(report["message"] ?? "")")
            #expect(report["payload_kind"] as? String == "renewalInfo")
            let fields = try #require(report["fields"] as? [[String: String]])
            #expect(
                Self.rows(fields, "advancedCommerceInfo.items[0].") == [
                    ["name": "advancedCommerceInfo.items[0].SKU", "value": "com.example.sku.premium"],
                    ["name": "advancedCommerceInfo.items[0].description", "value": "Premium feature"],
                    ["name": "advancedCommerceInfo.items[0].displayName", "value": "Premium Feature"],
                    ["name": "advancedCommerceInfo.items[0].price", "value": "9990"],
                    ["name": "advancedCommerceInfo.items[0].priceIncreaseInfo.dependentSKUs", "value": Self.dependentSKUs],
                    ["name": "advancedCommerceInfo.items[0].priceIncreaseInfo.price", "value": "12990"],
                    ["name": "advancedCommerceInfo.items[0].priceIncreaseInfo.status", "value": "PENDING"],
                ])
            #expect(fields.contains(["name": "advancedCommerceInfo.consistencyToken", "value": "token-abc-123"]))
            #expect(
                Self.rows(fields, "commitmentInfo.") == [
                    ["name": "commitmentInfo.commitmentAutoRenewProductId", "value": "com.example.product.commitment"],
                    ["name": "commitmentInfo.commitmentAutoRenewStatus", "value": "1"],
                    ["name": "commitmentInfo.commitmentRenewalBillingPlanType", "value": "MONTHLY"],
                    Self.date("commitmentInfo.commitmentRenewalDate", "2023-10-24 12:11:40", "2023-10-24 05:11:40", "1698149500000"),
                    ["name": "commitmentInfo.commitmentRenewalPrice", "value": "9990"],
                ])
            #expect(fields.contains(["name": "renewalBillingPlanType", "value": "MONTHLY"]))
        }
    }

    /// A notification's nested transaction shows the same rows in its own section.
    @Test func nestedTransactionMembers() async throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let data: [String: Any] = [
            "bundleId": "com.example.receipts", "environment": "Production", "signedTransactionInfo": try Self.token(Self.transaction),
        ]
        let notification = SyntheticNotifications.sign([
            "notificationType": "DID_RENEW", "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0", "signedDate": now,
            "data": data,
        ])
        try await Self.withServer { client in
            let report = try await InspectorTests.inspect(client, Array(notification.utf8))
            #expect(report["payload_kind"] as? String == "notification")
            let nested = try #require((report["nested"] as? [[String: Any]])?.first)
            #expect(nested["name"] as? String == "signedTransactionInfo" && nested["payload_kind"] as? String == "transaction")
            let fields = try #require(nested["fields"] as? [[String: String]])
            #expect(Array(fields.prefix(Self.transactionRows.count)) == Self.transactionRows)
        }
    }

    /// A Retention Messaging real-time request (`DecodedRealtimeRequestBody`) is its own kind, with
    /// Apple's members as rows and `signedDate` as a date; it is no purchase.
    @Test func realtimeRequest() async throws {
        let token = try Self.token(Self.realtimeRequest)
        try await Self.withServer { client in
            let report = try await InspectorTests.inspect(client, Array(token.utf8))
            #expect(report["verdict"] as? String == "valid", "\(report["message"] ?? "")")
            #expect(report["payload_kind"] as? String == "realtimeRequest")
            #expect(report["badges"] == nil && report["summary"] == nil && report["nested"] == nil)
            let fields = try #require(report["fields"] as? [[String: String]])
            #expect(
                fields.filter { $0["name"] != "signedDate" } == [
                    ["name": "appAppleId", "value": "531412"], ["name": "environment", "value": "Production"],
                    ["name": "originalTransactionId", "value": "99371282"], ["name": "productId", "value": "com.example.product"],
                    ["name": "requestIdentifier", "value": "3db5c98d-8acf-4e29-831e-8e1f82f9f6e9"], ["name": "userLocale", "value": "en-US"],
                ])
            let signed = try #require(fields.first { $0["name"] == "signedDate" })
            #expect(signed["ms"] != nil && signed["utc"]?.hasSuffix("Etc/GMT") == true)
        }
    }

    /// The body Apple posts, `{"signedPayload": …}`, pasted whole: the token in it is inspected (a
    /// real-time request's, a notification's); other JSON is read as before (not a token).
    @Test func postedBodies() async throws {
        let request = try Self.token(Self.realtimeRequest)
        let notification = SyntheticNotifications.token("TEST", signedDate: Int64(Date().timeIntervalSince1970 * 1000))
        try await Self.withServer { client in
            for (token, kind) in [(request, "realtimeRequest"), (notification, "notification")] {
                let body = "\n " + String(decoding: SyntheticNotifications.body(token), as: UTF8.self) + "\n"
                let report = try await InspectorTests.inspect(client, Array(body.utf8))
                #expect(report["kind"] as? String == "jws" && report["payload_kind"] as? String == kind)
                #expect(report["verdict"] as? String == "valid", "\(report["message"] ?? "")")
                #expect(report["raw"] as? String == String(decoding: try CompactJWS(Array(token.utf8)).payload, as: UTF8.self))
            }
            for other in [#"{"signedPayload":1}"#, #"{"signedPayload":"not a token"}"#, #"{"other":"eyJ"}"#] {
                let report = try await InspectorTests.inspect(client, Array(other.utf8))
                #expect(report["verdict"] as? String == "malformed" && report["kind"] as? String != "jws", "\(other)")
            }
        }
    }
}
