import AppReceipt
import Foundation
import Testing
import TestHelpers

/// Every receipt in the shared fixtures decodes to exactly the values of its truth file: each
/// app field, the in-app count, each in-app field and every raw attribute. Driven by the truth
/// files themselves (`fields`, `in_app[].fields`, `attributes`), so a new receipt + truth pair
/// dropped into `truth/` (or into the folder `RECEIPT_TRUTH_DIR` names, with `file` relative to
/// that folder's parent) is checked the same way. A field name this test cannot map fails.
@Suite(.enabled(if: Fixtures.shouldRun))
struct TruthFileTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let truthURL: URL
        let root: URL
        var testDescription: String { truthURL.lastPathComponent }
    }

    static var cases: [Case] {
        var folders = [(Fixtures.url("truth"), Fixtures.directory)]
        if let extra = ProcessInfo.processInfo.environment["RECEIPT_TRUTH_DIR"] {
            let url = URL(fileURLWithPath: extra)
            folders.append((url, url.deletingLastPathComponent()))
        }
        return folders.flatMap { folder, root in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasSuffix(".json") }.sorted()
                .map { Case(truthURL: folder.appendingPathComponent($0), root: root) }
        }
    }

    @Test func truthFilesExist() {
        #expect(Self.cases.count >= 5, "expected the five fixture truth files")
    }

    @Test(arguments: cases)
    func receiptMatchesTruth(_ testCase: Case) throws {
        let truth = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: testCase.truthURL)) as? [String: Any])
        let file = try #require(truth["file"] as? String)
        let bytes = [UInt8](try Data(contentsOf: testCase.root.appendingPathComponent(file)))
        let receipt = try AppReceipt(bytes)

        let fields = try #require(truth["fields"] as? [String: Any])
        try Self.compare(fields, AppFieldMap.values(of: receipt), context: "app")

        let inApp = try #require(truth["in_app"] as? [[String: Any]])
        #expect(receipt.inAppPurchases.count == inApp.count)
        #expect(receipt.inAppPurchases.count == truth["in_app_count"] as? Int)
        for (index, (expected, purchase)) in zip(inApp, receipt.inAppPurchases).enumerated() {
            let expectedFields = try #require(expected["fields"] as? [String: Any])
            try Self.compare(expectedFields, InAppFieldMap.values(of: purchase), context: "in_app[\(index)]")
            let expectedAttributes = try #require(expected["attributes"] as? [[String: Any]])
            Self.compareAttributes(expectedAttributes, Array(receipt.attributes(of: purchase)), receipt, context: "in_app[\(index)]")
        }
        let attributes = try #require(truth["attributes"] as? [[String: Any]])
        Self.compareAttributes(attributes, receipt.attributes, receipt, context: "app")
    }

    /// Compares truth `fields` with the decoded values: strings, integers, hex bytes, and dates
    /// by their `_ms` (the `_raw` text and the bare name are covered by the milliseconds).
    static func compare(_ expected: [String: Any], _ actual: [String: FieldValue], context: String) throws {
        for (name, value) in expected {
            if name.hasSuffix("_raw") { continue }
            let isDate = expected[name + "_ms"] != nil
            let key = name.hasSuffix("_ms") ? String(name.dropLast(3)) : name
            if isDate { continue }   // handled through its `_ms` entry
            guard let decoded = actual[key] else {
                Issue.record("\(context): truth field \(name) has no decoded counterpart")
                continue
            }
            switch decoded {
            case .date(let milliseconds):
                let truth = (value as? NSNumber)?.int64Value
                #expect(milliseconds == truth, "\(context).\(name)")
            case .integer(let integer):
                #expect(integer == (value as? NSNumber)?.int64Value, "\(context).\(name)")
            case .string(let string):
                // The truth files write an absent (empty) string as "".
                let truth = value as? String
                #expect((string ?? "") == truth, "\(context).\(name)")
            case .hex(let hex):
                #expect(hex == value as? String, "\(context).\(name)")
            case .flag(let flag):
                let truth = (value as? NSNumber)?.int64Value
                #expect(flag.map { $0 ? 1 : 0 } == truth, "\(context).\(name)")
            }
        }
    }

    /// Raw attributes: the same multiset of (type, version, value hex).
    static func compareAttributes(_ expected: [[String: Any]], _ actual: [ReceiptAttribute], _ receipt: AppReceipt, context: String) {
        func key(_ type: Int, _ version: Int, _ hex: String) -> String { "\(type)/\(version)/\(hex)" }
        let truth = expected.map { key($0["type"] as! Int, $0["version"] as! Int, $0["raw_hex"] as! String) }.sorted()
        let decoded = actual.map { key($0.type, $0.version, Hex.string(receipt.value(of: $0))) }.sorted()
        #expect(truth == decoded, "\(context) raw attributes")
    }
}

/// A decoded value in a form comparable with the truth JSON.
enum FieldValue {
    case string(String?)
    case integer(Int64?)
    case date(Int64?)
    case hex(String)
    case flag(Bool?)
}

enum AppFieldMap {
    static func values(of r: AppReceipt) -> [String: FieldValue] {
        var values: [String: FieldValue] = [
            "receipt_type": .string(r.environment.rawValue),
            "app_item_id": .integer(r.appItemIdentifier),
            "bundle_id": .string(r.bundleIdentifier),
            "application_version": .string(r.appVersion),
            "opaque_value": .hex(Hex.string(r.opaqueValue)),
            "sha1_hash": .hex(Hex.string(r.sha1Hash)),
            "age_rating": .string(r.ageRating),
            "receipt_creation_date": .date(r.creationDate.millisecondsSince1970),
            "download_id": .integer(r.downloadIdentifier),
            "version_external_identifier": .integer(r.versionExternalIdentifier),
            "original_purchase_date": .date(r.originalPurchaseDate?.millisecondsSince1970),
            "original_application_version": .string(r.originalAppVersion),
            "expiration_date": .date(r.expirationDate?.millisecondsSince1970),
            "undocumented_8_date": .date(r.undocumented.date8?.millisecondsSince1970),
            "undocumented_9": .integer(r.undocumented.integer9),
            "undocumented_11": .integer(r.undocumented.integer11),
            "undocumented_13": .integer(r.undocumented.integer13),
            "undocumented_14": .integer(r.undocumented.integer14),
            "undocumented_20": .string(r.undocumented.string20),
            "undocumented_25": .integer(r.undocumented.integer25),
        ]
        // Other undocumented attributes are opaque bytes: compare their raw value.
        for attribute in r.attributes where values["undocumented_\(attribute.type)"] == nil && attribute.type != 17 {
            values["undocumented_\(attribute.type)"] = .hex(Hex.string(r.value(of: attribute)))
        }
        return values
    }
}

enum InAppFieldMap {
    static func values(of p: InAppPurchase) -> [String: FieldValue] {
        [
            "quantity": .integer(p.quantity),
            "product_id": .string(p.productIdentifier),
            "transaction_id": .string(p.transactionIdentifier),
            "purchase_date": .date(p.purchaseDate.millisecondsSince1970),
            "original_transaction_id": .string(p.originalTransactionIdentifier),
            "original_purchase_date": .date(p.originalPurchaseDate?.millisecondsSince1970),
            "product_type": .integer(p.productType),
            "expires_date": .date(p.subscriptionExpirationDate?.millisecondsSince1970),
            "web_order_line_item_id": .integer(p.webOrderLineItemIdentifier),
            "cancellation_date": .date(p.cancellationDate?.millisecondsSince1970),
            "is_trial_period": .flag(p.isTrialPeriod),
            "is_in_intro_offer_period": .flag(p.isInIntroOfferPeriod),
            "promotional_offer_id": .string(p.promotionalOfferIdentifier),
        ]
    }
}
