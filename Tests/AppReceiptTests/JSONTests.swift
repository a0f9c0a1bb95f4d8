import AppReceipt
import Foundation
import ReceiptTestSupport
import Testing
import TestHelpers

/// A JSON value as DESIGN §7 types it.
enum JSONValue: Equatable, CustomStringConvertible {
    case number(Int64)
    case string(String)

    var description: String {
        switch self {
        case .number(let n): return "\(n)"
        case .string(let s): return "\"\(s)\""
        }
    }

    /// What JSONSerialization produced, typed: a number or a string, anything else is `nil`.
    init?(_ any: Any) {
        if let string = any as? String {
            self = .string(string)
        } else if let number = any as? NSNumber, !(any is String) {
            let exact = number.int64Value
            guard number.stringValue == String(exact) else { return nil }   // not an integer, or out of range
            self = .number(exact)
        } else {
            return nil
        }
    }
}

/// Builds the expected `X`, `X_ms`, `X_pst` triples with `date(1)` as the oracle.
struct ExpectedDates {
    private var gmt: [Int64: String] = [:]
    private var pacific: [Int64: String] = [:]

    init(_ milliseconds: [Int64]) throws {
        let seconds = Array(Set(milliseconds.map(DateOracle.floorSeconds))).sorted()
        let utcText = try DateOracle.civil(seconds, zone: "UTC")
        let laText = try DateOracle.civil(seconds, zone: "America/Los_Angeles")
        for (index, second) in seconds.enumerated() {
            gmt[second] = utcText[index] + " Etc/GMT"
            pacific[second] = laText[index] + " America/Los_Angeles"
        }
    }

    func add(_ key: String, _ milliseconds: Int64, to object: inout [String: JSONValue]) {
        let second = DateOracle.floorSeconds(milliseconds)
        object[key] = .string(gmt[second]!)
        object[key + "_ms"] = .string(String(milliseconds))
        object[key + "_pst"] = .string(pacific[second]!)
    }
}

/// Compares a parsed JSON object with expectations: same key set, same types, same values.
func compareObject(
    _ actual: [String: Any], _ expected: [String: JSONValue], context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(Set(actual.keys) == Set(expected.keys), "\(context): keys", sourceLocation: sourceLocation)
    for (key, value) in actual {
        guard let typed = JSONValue(value) else {
            Issue.record("\(context).\(key): \(value) is neither a string nor an integer", sourceLocation: sourceLocation)
            continue
        }
        guard let want = expected[key] else { continue }
        #expect(typed == want, "\(context).\(key)", sourceLocation: sourceLocation)
    }
}

/// `ReceiptJSON.response` on each fixture against expectations built from its truth file.
@Suite(.enabled(if: Fixtures.shouldRun))
struct FixtureJSONTests {
    static let environments = ["Production": "Production", "ProductionSandbox": "Sandbox", "Xcode": "Xcode"]

    static func truth(_ name: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url("truth/\(name).json")))
        return try #require(object as? [String: Any])
    }

    static func int(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }
    static func text(_ value: Any?) -> String? {
        guard let string = value as? String, !string.isEmpty else { return nil }
        return string
    }

    @Test(arguments: Fixtures.receiptNames)
    func responseMatchesTruth(_ name: String) throws {
        let truth = try Self.truth(name)
        let fields = try #require(truth["fields"] as? [String: Any])
        let inApp = try #require(truth["in_app"] as? [[String: Any]]).map { try #require($0["fields"] as? [String: Any]) }
        let receipt = try AppReceipt(Fixtures.bytes("receipts/\(name).der"))
        let response = try jsonObject(ReceiptJSON.response(receipt))

        #expect(Set(response.keys) == ["status", "environment", "receipt"])
        #expect(JSONValue(response["status"] as Any) == .number(0))
        let type = try #require(fields["receipt_type"] as? String)
        #expect(JSONValue(response["environment"] as Any) == .string(try #require(Self.environments[type])))

        var all: [Int64] = []
        for key in ["receipt_creation_date_ms", "original_purchase_date_ms", "expiration_date_ms"] {
            if let ms = Self.int(fields[key]) { all.append(ms) }
        }
        for p in inApp {
            for key in ["purchase_date_ms", "original_purchase_date_ms", "expires_date_ms", "cancellation_date_ms"] {
                if let ms = Self.int(p[key]) { all.append(ms) }
            }
        }
        let dates = try ExpectedDates(all)

        var expected: [String: JSONValue] = ["receipt_type": .string(type), "in_app": .number(0)]
        if let id = Self.int(fields["app_item_id"]) {
            expected["adam_id"] = .number(id)
            expected["app_item_id"] = .number(id)
        }
        expected["bundle_id"] = .string(try #require(Self.text(fields["bundle_id"])))
        expected["application_version"] = .string(try #require(Self.text(fields["application_version"])))
        if let id = Self.int(fields["download_id"]) { expected["download_id"] = .number(id) }
        if let id = Self.int(fields["version_external_identifier"]) { expected["version_external_identifier"] = .number(id) }
        for key in ["receipt_creation_date", "original_purchase_date", "expiration_date"] {
            if let ms = Self.int(fields[key + "_ms"]) { dates.add(key, ms, to: &expected) }
        }
        if let version = Self.text(fields["original_application_version"]) { expected["original_application_version"] = .string(version) }

        let object = try #require(response["receipt"] as? [String: Any])
        let purchases = try #require(object["in_app"] as? [Any])
        var withoutInApp = object
        withoutInApp["in_app"] = 0
        compareObject(withoutInApp, expected, context: "\(name) receipt")

        #expect(purchases.count == inApp.count)
        for (index, (value, p)) in zip(purchases, inApp).enumerated() {
            let actual = try #require(value as? [String: Any])
            var want: [String: JSONValue] = [:]
            for key in ["product_id", "transaction_id", "original_transaction_id", "promotional_offer_id"] {
                if let s = Self.text(p[key]) { want[key] = .string(s) }
            }
            for key in ["quantity", "web_order_line_item_id"] {
                if let n = Self.int(p[key]) { want[key] = .string(String(n)) }
            }
            for key in ["is_trial_period", "is_in_intro_offer_period"] {
                if let n = Self.int(p[key]) { want[key] = .string(n == 1 ? "true" : "false") }
            }
            for key in ["purchase_date", "original_purchase_date", "expires_date", "cancellation_date"] {
                if let ms = Self.int(p[key + "_ms"]) { dates.add(key, ms, to: &want) }
            }
            compareObject(actual, want, context: "\(name) in_app[\(index)]")
        }
    }

    /// DESIGN §7's own examples, written out.
    @Test func productionLiterals() throws {
        let receipt = try AppReceipt(Fixtures.bytes("receipts/production.der"))
        let response = try jsonObject(ReceiptJSON.response(receipt))
        #expect(response["environment"] as? String == "Production")
        let r = try #require(response["receipt"] as? [String: Any])
        #expect(r["receipt_type"] as? String == "Production")
        #expect(r["receipt_creation_date"] as? String == "2024-02-23 17:27:16 Etc/GMT")
        #expect(r["receipt_creation_date_ms"] as? String == "1708709236000")
        #expect(r["receipt_creation_date_pst"] as? String == "2024-02-23 09:27:16 America/Los_Angeles")
        #expect(r["original_purchase_date"] as? String == "2016-08-16 15:15:43 Etc/GMT")
        #expect(r["original_purchase_date_pst"] as? String == "2016-08-16 08:15:43 America/Los_Angeles")
        #expect((r["adam_id"] as? NSNumber)?.int64Value == 690_661_663)
        #expect((r["app_item_id"] as? NSNumber)?.int64Value == 690_661_663)
        #expect((r["download_id"] as? NSNumber)?.int64Value == 74_011_462_945_433)
        #expect((r["version_external_identifier"] as? NSNumber)?.int64Value == 863_855_306)
        #expect(r["adam_id"] is NSNumber && !(r["adam_id"] is String))
        #expect(r["bundle_id"] as? String == "org.getpure.pure-iphone")
        #expect(r["application_version"] as? String == "15741")
        #expect(r["original_application_version"] as? String == "434")
        #expect(r["expiration_date"] == nil)
        let inApp = try #require(r["in_app"] as? [[String: Any]])
        #expect(inApp.count == 4)
        let first = try #require(inApp.first)
        #expect(first["product_id"] as? String == "org.getpure.pure.Week")
        #expect(first["purchase_date"] as? String == "2023-05-09 23:20:55 Etc/GMT")
        #expect(first["purchase_date_pst"] as? String == "2023-05-09 16:20:55 America/Los_Angeles")
        #expect(first["quantity"] as? String == "1")
        #expect(first["is_trial_period"] as? String == "false")
        #expect(first["web_order_line_item_id"] as? String == "340000558053130")
        #expect(first["cancellation_date"] == nil)
        #expect(inApp[2]["promotional_offer_id"] as? String == "org.getpure.pure.Month.Offer.3M.PayToGo")
    }

    @Test func xcodeLiterals() throws {
        let receipt = try AppReceipt(Fixtures.bytes("receipts/xcode.der"))
        let response = try jsonObject(ReceiptJSON.response(receipt))
        #expect(response["environment"] as? String == "Xcode")
        let r = try #require(response["receipt"] as? [String: Any])
        #expect(r["receipt_type"] as? String == "Xcode")
        #expect(r["receipt_creation_date"] as? String == "2020-07-22 17:33:15 Etc/GMT")
        #expect(r["receipt_creation_date_pst"] as? String == "2020-07-22 10:33:15 America/Los_Angeles")
        #expect(r["expiration_date"] as? String == "4001-01-01 00:00:00 Etc/GMT")
        #expect(r["expiration_date_ms"] as? String == "64092211200000")
        #expect(r["expiration_date_pst"] as? String == "4000-12-31 16:00:00 America/Los_Angeles")
        #expect(r["download_id"] == nil)
        #expect(r["original_purchase_date"] == nil)
        #expect(r["original_application_version"] == nil)
    }
}

/// `ReceiptJSON` on synthetic receipts with every field chosen.
struct SyntheticJSONTests {
    static let full: TestReceipt = {
        var r = TestReceipt()
        r.environment = "Production"
        r.appItemIdentifier = Int64.max
        r.bundleIdentifier = "com.example.json"
        r.appVersion = "2.0"
        r.creationDate = "2024-09-10T14:43:41Z"
        r.originalPurchaseDate = "2024-01-15T08:00:00Z"
        r.originalAppVersion = "1.0"
        r.expirationDate = "2025-03-09T10:00:00Z"
        r.extraAttributes = [(15, Hex.bytes("02 08 01 02 03 04 05 06 07 08")), (16, TLV.integer(-42)), (10, TLV.ia5("4+"))]
        var purchase = TestReceipt.Purchase(
            productIdentifier: "com.example.json.sub", transactionIdentifier: "2000000000000001",
            purchaseDate: "2024-09-10T14:43:40Z", originalTransactionIdentifier: "2000000000000000",
            originalPurchaseDate: "2024-03-10T09:59:59Z", expirationDate: "2024-11-03T09:00:00.5Z",
            cancellationDate: "2024-03-10T10:00:00Z", productType: 3, webOrderLineItemIdentifier: 4_611_686_018_427_387_904,
            isTrialPeriod: true, isInIntroOfferPeriod: false, promotionalOfferIdentifier: "promo")
        purchase.quantity = 12
        r.purchases = [purchase]
        return r
    }()

    static let response: String = {
        do { return ReceiptJSON.response(try AppReceipt(Synthetic.sign(full))) } catch { preconditionFailure("\(error)") }
    }()

    @Test func everyKeyAndValue() throws {
        let response = try jsonObject(Self.response)
        #expect(Set(response.keys) == ["status", "environment", "receipt"])
        #expect(JSONValue(response["status"] as Any) == .number(0))
        #expect(response["environment"] as? String == "Production")
        let r = try #require(response["receipt"] as? [String: Any])
        var app = r
        app["in_app"] = 0
        compareObject(
            app,
            [
                "receipt_type": .string("Production"),
                "adam_id": .number(Int64.max), "app_item_id": .number(Int64.max),
                "bundle_id": .string("com.example.json"), "application_version": .string("2.0"),
                "download_id": .number(72_623_859_790_382_856), "version_external_identifier": .number(-42),
                "receipt_creation_date": .string("2024-09-10 14:43:41 Etc/GMT"),
                "receipt_creation_date_ms": .string("1725979421000"),
                "receipt_creation_date_pst": .string("2024-09-10 07:43:41 America/Los_Angeles"),
                "original_purchase_date": .string("2024-01-15 08:00:00 Etc/GMT"),
                "original_purchase_date_ms": .string("1705305600000"),
                "original_purchase_date_pst": .string("2024-01-15 00:00:00 America/Los_Angeles"),
                "original_application_version": .string("1.0"),
                "expiration_date": .string("2025-03-09 10:00:00 Etc/GMT"),
                "expiration_date_ms": .string("1741514400000"),
                "expiration_date_pst": .string("2025-03-09 03:00:00 America/Los_Angeles"),
                "in_app": .number(0),
            ], context: "receipt")
        let inApp = try #require(r["in_app"] as? [[String: Any]])
        #expect(inApp.count == 1)
        compareObject(
            try #require(inApp.first),
            [
                "quantity": .string("12"),
                "product_id": .string("com.example.json.sub"),
                "transaction_id": .string("2000000000000001"),
                "original_transaction_id": .string("2000000000000000"),
                // DESIGN §7: a September purchase at 14:43:40 GMT shows 07:43:40.
                "purchase_date": .string("2024-09-10 14:43:40 Etc/GMT"),
                "purchase_date_ms": .string("1725979420000"),
                "purchase_date_pst": .string("2024-09-10 07:43:40 America/Los_Angeles"),
                // One second before the spring transition: still standard time.
                "original_purchase_date": .string("2024-03-10 09:59:59 Etc/GMT"),
                "original_purchase_date_ms": .string("1710064799000"),
                "original_purchase_date_pst": .string("2024-03-10 01:59:59 America/Los_Angeles"),
                // Half a second after the autumn transition: the second 01:00:00 (PST), fraction dropped.
                "expires_date": .string("2024-11-03 09:00:00 Etc/GMT"),
                "expires_date_ms": .string("1730624400500"),
                "expires_date_pst": .string("2024-11-03 01:00:00 America/Los_Angeles"),
                // The spring transition itself: 02:00 PST is 03:00 PDT.
                "cancellation_date": .string("2024-03-10 10:00:00 Etc/GMT"),
                "cancellation_date_ms": .string("1710064800000"),
                "cancellation_date_pst": .string("2024-03-10 03:00:00 America/Los_Angeles"),
                "web_order_line_item_id": .string("4611686018427387904"),
                "is_trial_period": .string("true"),
                "is_in_intro_offer_period": .string("false"),
                "promotional_offer_id": .string("promo"),
            ], context: "in_app[0]")
    }

    /// Integers are written exactly (no floating point): the text carries all 19 digits.
    @Test func integersAreExactInTheText() {
        #expect(Self.response.contains("9223372036854775807"))
        #expect(Self.response.contains("72623859790382856"))
        #expect(!Self.response.contains("e+"))
        #expect(!Self.response.contains("E+"))
    }

    /// Absent values are left out, never null; a minimal receipt has only the required keys.
    @Test func absentValuesAreLeftOut() throws {
        var payload = Payload.app(purchases: [Payload.minimalPurchase(date: "2024-01-01T00:00:00Z")])
        for type in [1, 18, 19] { payload.remove(type) }
        let response = ReceiptJSON.response(try AppReceipt(Synthetic.sign(payload)))
        #expect(!response.contains("null"))
        let r = try #require(try jsonObject(response)["receipt"] as? [String: Any])
        let app = Set(r.keys)
        #expect(
            app == [
                "receipt_type", "bundle_id", "application_version", "receipt_creation_date",
                "receipt_creation_date_ms", "receipt_creation_date_pst", "in_app",
            ])
        let purchase = try #require((r["in_app"] as? [[String: Any]])?.first)
        #expect(
            Set(purchase.keys) == [
                "quantity", "product_id", "transaction_id", "purchase_date", "purchase_date_ms",
                "purchase_date_pst",
            ])
        #expect(purchase["purchase_date_pst"] as? String == "2023-12-31 16:00:00 America/Los_Angeles")
    }

    @Test func emptyInAppIsAnEmptyArray() throws {
        let r = try #require(try jsonObject(ReceiptJSON.response(try AppReceipt(Synthetic.sign(Payload.app()))))["receipt"] as? [String: Any])
        let inApp = try #require(r["in_app"] as? [Any])
        #expect(inApp.isEmpty)
    }

    @Test func flagsAreTrueOrFalseStrings() throws {
        let purchases: [[Attr]] = [
            Payload.minimalPurchase(product: "a", transaction: "1") + [Attr(1713, TLV.integer(0)), Attr(1719, TLV.integer(1))],
            Payload.minimalPurchase(product: "b", transaction: "2") + [Attr(1713, TLV.integer(1)), Attr(1719, TLV.integer(0))],
        ]
        let r = try #require(
            try jsonObject(ReceiptJSON.response(try AppReceipt(Synthetic.sign(Payload.app(purchases: purchases)))))["receipt"] as? [String: Any])
        let inApp = try #require(r["in_app"] as? [[String: Any]])
        let a = try #require(inApp.first { $0["product_id"] as? String == "a" })
        let b = try #require(inApp.first { $0["product_id"] as? String == "b" })
        #expect(a["is_trial_period"] as? String == "false")
        #expect(a["is_in_intro_offer_period"] as? String == "true")
        #expect(b["is_trial_period"] as? String == "true")
        #expect(b["is_in_intro_offer_period"] as? String == "false")
    }

    /// Strings survive RFC 8259 escaping whatever they hold.
    @Test func stringsAreEscaped() throws {
        let awkward = "q\"b\\s/n\nr\rt\tc\u{01}\u{1F}\u{7F} é 😀 \u{2028}end"
        let purchases = [Payload.minimalPurchase(product: awkward, transaction: "\"1\"")]
        let response = ReceiptJSON.response(
            try AppReceipt(
                Synthetic.sign(
                    Payload.app(
                        bundleIdentifier: awkward, appVersion: "\\",
                        purchases: purchases))))
        let r = try #require(try jsonObject(response)["receipt"] as? [String: Any])
        #expect(r["bundle_id"] as? String == awkward)
        #expect(r["application_version"] as? String == "\\")
        let purchase = try #require((r["in_app"] as? [[String: Any]])?.first)
        #expect(purchase["product_id"] as? String == awkward)
        #expect(purchase["transaction_id"] as? String == "\"1\"")
    }

    /// Fractional seconds: `_ms` keeps the milliseconds, the civil forms drop them (floor).
    @Test func fractionalSeconds() throws {
        let purchases = [
            Payload.minimalPurchase(product: "half", transaction: "1", date: "2020-07-22T18:33:15.5Z"),
            Payload.minimalPurchase(product: "micro", transaction: "2", date: "2020-07-22T18:33:15.123456+01:00"),
            Payload.minimalPurchase(product: "almost", transaction: "3", date: "2020-07-22T18:33:15.999Z"),
        ]
        let r = try #require(
            try jsonObject(ReceiptJSON.response(try AppReceipt(Synthetic.sign(Payload.app(purchases: purchases)))))["receipt"] as? [String: Any])
        let inApp = try #require(r["in_app"] as? [[String: Any]])
        func purchase(_ id: String) throws -> [String: Any] { try #require(inApp.first { $0["product_id"] as? String == id }) }
        #expect(try purchase("half")["purchase_date_ms"] as? String == "1595442795500")
        #expect(try purchase("half")["purchase_date"] as? String == "2020-07-22 18:33:15 Etc/GMT")
        #expect(try purchase("half")["purchase_date_pst"] as? String == "2020-07-22 11:33:15 America/Los_Angeles")
        #expect(try purchase("micro")["purchase_date_ms"] as? String == "1595439195123")
        #expect(try purchase("micro")["purchase_date"] as? String == "2020-07-22 17:33:15 Etc/GMT")
        #expect(try purchase("almost")["purchase_date_ms"] as? String == "1595442795999")
        #expect(try purchase("almost")["purchase_date"] as? String == "2020-07-22 18:33:15 Etc/GMT")
    }

    /// Before 1970 `_ms` is negative and the civil forms still floor to the earlier second.
    @Test func datesBefore1970() throws {
        let purchases = [
            Payload.minimalPurchase(product: "moon", transaction: "1", date: "1969-07-20T20:17:40Z"),
            Payload.minimalPurchase(product: "edge", transaction: "2", date: "1969-12-31T23:59:59.5Z"),
        ]
        let r = try #require(
            try jsonObject(ReceiptJSON.response(try AppReceipt(Synthetic.sign(Payload.app(purchases: purchases)))))["receipt"] as? [String: Any])
        let inApp = try #require(r["in_app"] as? [[String: Any]])
        func purchase(_ id: String) throws -> [String: Any] { try #require(inApp.first { $0["product_id"] as? String == id }) }
        #expect(try purchase("moon")["purchase_date"] as? String == "1969-07-20 20:17:40 Etc/GMT")
        #expect(try purchase("moon")["purchase_date_ms"] as? String == "-14182940000")
        #expect(try purchase("moon")["purchase_date_pst"] as? String == "1969-07-20 13:17:40 America/Los_Angeles")
        #expect(try purchase("edge")["purchase_date"] as? String == "1969-12-31 23:59:59 Etc/GMT")
        #expect(try purchase("edge")["purchase_date_ms"] as? String == "-500")
        #expect(try purchase("edge")["purchase_date_pst"] as? String == "1969-12-31 15:59:59 America/Los_Angeles")
    }

    @Test(arguments: [
        ("Production", "Production"), ("ProductionSandbox", "Sandbox"), ("Sandbox", "Sandbox"),
        ("ProductionVPP", "Production"), ("ProductionVPPSandbox", "Sandbox"), ("Xcode", "Xcode"),
    ])
    func environmentMapping(_ written: String, _ reported: String) throws {
        var payload = Payload.app()
        payload.replace(0, TLV.utf8(written))
        let response = try jsonObject(ReceiptJSON.response(try AppReceipt(Synthetic.sign(payload))))
        #expect(response["environment"] as? String == reported)
        #expect((response["receipt"] as? [String: Any])?["receipt_type"] as? String == written)
    }

    @Test func failureResponses() throws {
        let malformed = try jsonObject(ReceiptJSON.failure(.malformed))
        #expect(Set(malformed.keys) == ["status"])
        #expect(JSONValue(malformed["status"] as Any) == .number(21002))
        let notAuthenticated = try jsonObject(ReceiptJSON.failure(.notAuthenticated))
        #expect(Set(notAuthenticated.keys) == ["status"])
        #expect(JSONValue(notAuthenticated["status"] as Any) == .number(21003))
        #expect(ReceiptJSON.Status.valid.rawValue == 0)
    }

    /// The standalone objects are exactly the text `response` nests (servers splice them).
    @Test func standaloneObjectsAreWhatResponseNests() throws {
        let receipt = try AppReceipt(Synthetic.sign(Self.full))
        let object = ReceiptJSON.receiptObject(receipt)
        #expect(Self.response.hasSuffix(",\"receipt\":" + object + "}"))
        let purchase = ReceiptJSON.purchaseObject(try #require(receipt.inAppPurchases.first))
        #expect(object.hasSuffix(",\"in_app\":[" + purchase + "]}"))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(purchase.utf8)) as? [String: Any])
        #expect(parsed["transaction_id"] as? String == "2000000000000001")
    }

    /// `quoted` escapes as the answers do (RFC 8259 §7) and parses back to the same string.
    @Test func quotedStrings() throws {
        #expect(ReceiptJSON.quoted("pro.monthly") == #""pro.monthly""#)
        #expect(ReceiptJSON.quoted("a\"b\\c\nd\u{1}é/") == #""a\"b\\c\nd\u0001é/""#)
        for value in ["", "\u{0}\u{1F}\t\r", "ünïcødé 🎉", #"{"k":"v"}"#] {
            let parsed = try JSONSerialization.jsonObject(with: Data(ReceiptJSON.quoted(value).utf8), options: .fragmentsAllowed)
            #expect(parsed as? String == value)
        }
    }

    /// The public date forms: `X`, `X_ms` and `X_pst` of one instant (PDT in September).
    @Test func publicDateForms() {
        let date = Date(timeIntervalSince1970: 1_725_979_420.75)   // 2024-09-10T14:43:40.75Z
        #expect(AppleDateFormat.gmt(date) == "2024-09-10 14:43:40 Etc/GMT")
        #expect(AppleDateFormat.milliseconds(date) == "1725979420750")
        #expect(AppleDateFormat.pacific(date) == "2024-09-10 07:43:40 America/Los_Angeles")
    }
}

/// `_pst` is Los Angeles civil time with daylight saving, checked against `date(1)` (the system's
/// tz database) at the second before, of and after every transition of many years.
struct PacificTimeTests {
    /// US rules: since 2007 second Sunday of March 02:00 PST and first Sunday of November
    /// 02:00 PDT; 1987–2006 first Sunday of April and last Sunday of October.
    static func transitions(_ year: Int) -> [Int64] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func sunday(month: Int, ordinal: Int) -> Int {   // ordinal -1 = last
            let days = calendar.range(of: .day, in: .month, for: calendar.date(from: DateComponents(year: year, month: month))!)!
            let sundays = days.filter { day in
                calendar.component(.weekday, from: calendar.date(from: DateComponents(year: year, month: month, day: day))!) == 1
            }
            return ordinal > 0 ? sundays[ordinal - 1] : sundays.last!
        }
        func seconds(_ month: Int, _ day: Int, _ hour: Int) -> Int64 {
            Int64(calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!.timeIntervalSince1970)
        }
        if year >= 2007 {
            return [seconds(3, sunday(month: 3, ordinal: 2), 10), seconds(11, sunday(month: 11, ordinal: 1), 9)]
        }
        return [seconds(4, sunday(month: 4, ordinal: 1), 10), seconds(10, sunday(month: 10, ordinal: -1), 9)]
    }

    static func rfc3339(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: instant(milliseconds))
    }

    static func check(years: [Int]) throws {
        let boundaries = years.flatMap(transitions)
        // The rule must hit real transitions: the offset changes by one hour at each.
        let before = try DateOracle.utcOffsets(boundaries.map { $0 - 1 }, zone: "America/Los_Angeles")
        let at = try DateOracle.utcOffsets(boundaries, zone: "America/Los_Angeles")
        for (index, boundary) in boundaries.enumerated() {
            #expect(abs(before[index] - at[index]) == 3600, "no transition at \(boundary)")
        }
        // Instants in milliseconds: the second before, the last millisecond before, the instant,
        // the second after, and an hour either side.
        var instants: [Int64] = []
        for b in boundaries {
            instants += [(b - 1) * 1000, b * 1000 - 1, b * 1000, (b + 1) * 1000, (b - 3600) * 1000, (b + 3599) * 1000]
        }
        let purchases = instants.enumerated().map { index, ms in
            Payload.minimalPurchase(product: "p\(index)", transaction: "\(index)", date: rfc3339(ms))
        }
        let receipt = try AppReceipt(Synthetic.sign(Payload.app(purchases: purchases)))
        let r = try #require(try jsonObject(ReceiptJSON.response(receipt))["receipt"] as? [String: Any])
        let inApp = try #require(r["in_app"] as? [[String: Any]])
        #expect(inApp.count == instants.count)
        let byProduct = Dictionary(uniqueKeysWithValues: inApp.compactMap { p in (p["product_id"] as? String).map { ($0, p) } })
        let seconds = instants.map(DateOracle.floorSeconds)
        let pacific = try DateOracle.civil(seconds, zone: "America/Los_Angeles")
        let utc = try DateOracle.civil(seconds, zone: "UTC")
        for (index, ms) in instants.enumerated() {
            let p = try #require(byProduct["p\(index)"])
            #expect(p["purchase_date_pst"] as? String == pacific[index] + " America/Los_Angeles", "\(rfc3339(ms))")
            #expect(p["purchase_date"] as? String == utc[index] + " Etc/GMT", "\(rfc3339(ms))")
            #expect(p["purchase_date_ms"] as? String == String(ms))
        }
    }

    @Test func transitions2007To2030() throws {
        try Self.check(years: Array(2007 ... 2030))
    }

    @Test func transitionsBefore2007() throws {
        try Self.check(years: Array(1990 ... 2006))
    }

    @Test func transitionsAfter2037() throws {
        try Self.check(years: [2037, 2038, 2039, 2040, 2050, 2099])
    }

    /// Spot values from DESIGN §7 and by hand (PST = UTC−8, PDT = UTC−7).
    @Test func handChecked() throws {
        let purchases = [
            Payload.minimalPurchase(product: "spring-before", transaction: "1", date: "2024-03-10T09:59:59Z"),
            Payload.minimalPurchase(product: "spring-at", transaction: "2", date: "2024-03-10T10:00:00Z"),
            Payload.minimalPurchase(product: "fall-before", transaction: "3", date: "2024-11-03T08:59:59Z"),
            Payload.minimalPurchase(product: "fall-at", transaction: "4", date: "2024-11-03T09:00:00Z"),
            Payload.minimalPurchase(product: "new-year", transaction: "5", date: "2024-01-01T07:59:59Z"),
            Payload.minimalPurchase(product: "leap", transaction: "6", date: "2024-03-01T07:00:00Z"),
        ]
        let r = try #require(
            try jsonObject(ReceiptJSON.response(try AppReceipt(Synthetic.sign(Payload.app(purchases: purchases)))))["receipt"] as? [String: Any])
        let inApp = try #require(r["in_app"] as? [[String: Any]])
        func pst(_ id: String) -> String? { inApp.first { $0["product_id"] as? String == id }?["purchase_date_pst"] as? String }
        #expect(pst("spring-before") == "2024-03-10 01:59:59 America/Los_Angeles")
        #expect(pst("spring-at") == "2024-03-10 03:00:00 America/Los_Angeles")
        #expect(pst("fall-before") == "2024-11-03 01:59:59 America/Los_Angeles")
        #expect(pst("fall-at") == "2024-11-03 01:00:00 America/Los_Angeles")
        #expect(pst("new-year") == "2023-12-31 23:59:59 America/Los_Angeles")
        #expect(pst("leap") == "2024-02-29 23:00:00 America/Los_Angeles")
    }
}
