import AppReceipt
import Foundation
import ReceiptTestSupport
import Testing
import TestHelpers

/// An instant given as UTC civil time, through Foundation's Gregorian calendar (not the code's).
func utc(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0,
    milliseconds: Int = 0
) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    let whole = calendar.date(from: components)!
    return Date(timeIntervalSince1970: (whole.timeIntervalSince1970 * 1000 + Double(milliseconds)) / 1000)
}

/// Queries on a synthetic receipt whose answers are known by construction.
struct QueryTests {
    static let description: TestReceipt = {
        typealias P = TestReceipt.Purchase
        var r = TestReceipt()
        r.purchases = [   // deliberately not in date order
            P(
                productIdentifier: "sub.monthly", transactionIdentifier: "m3", purchaseDate: "2024-03-01T00:00:00Z",
                expirationDate: "2024-04-01T00:00:00Z", cancellationDate: "2024-03-05T00:00:00Z", productType: 3),
            P(productIdentifier: "coins", transactionIdentifier: "c1", purchaseDate: "2023-12-01T00:00:00Z", productType: 0),
            P(
                productIdentifier: "sub.yearly", transactionIdentifier: "y2", purchaseDate: "2024-06-01T00:00:00Z",
                expirationDate: "2025-06-01T00:00:00Z", productType: 3),
            P(
                productIdentifier: "sub.monthly", transactionIdentifier: "m1", purchaseDate: "2024-01-01T00:00:00Z",
                expirationDate: "2024-02-01T00:00:00Z", productType: 3),
            P(
                productIdentifier: "lifetime", transactionIdentifier: "l1", purchaseDate: "2023-05-05T00:00:00Z",
                cancellationDate: "2023-06-01T00:00:00Z", productType: 1),
            P(productIdentifier: "coins", transactionIdentifier: "c2", purchaseDate: "2024-02-10T00:00:00Z", productType: 0),
            P(
                productIdentifier: "sub.yearly", transactionIdentifier: "y1", purchaseDate: "2024-01-15T00:00:00Z",
                expirationDate: "2025-01-15T00:00:00Z", productType: 3),
            P(
                productIdentifier: "sub.monthly", transactionIdentifier: "m2", purchaseDate: "2024-02-01T00:00:00Z",
                expirationDate: "2024-03-01T00:00:00Z", productType: 3),
            P(
                productIdentifier: "sub.weekly", transactionIdentifier: "w1", purchaseDate: "2024-05-01T10:00:00.250Z",
                expirationDate: "2024-05-08T10:00:00.250+00:00", productType: 3),
        ]
        return r
    }()

    static let receipt: AppReceipt = {
        do { return try AppReceipt(Synthetic.sign(description)) } catch { preconditionFailure("\(error)") }
    }()

    static func active(_ product: String?, _ date: Date) -> String? {
        receipt.activeAutoRenewableSubscription(product, at: date)?.transactionIdentifier
    }

    @Test func purchasesNewestFirst() {
        let r = Self.receipt
        #expect(r.purchases(of: "sub.monthly").map(\.transactionIdentifier) == ["m3", "m2", "m1"])
        #expect(r.purchases(of: "sub.yearly").map(\.transactionIdentifier) == ["y2", "y1"])
        #expect(r.purchases(of: "coins").map(\.transactionIdentifier) == ["c2", "c1"])
        #expect(r.purchases(of: "lifetime").map(\.transactionIdentifier) == ["l1"])
        #expect(r.purchases(of: "none").isEmpty)
        #expect(r.purchases(of: "sub").isEmpty)
    }

    @Test func containsPurchase() {
        let r = Self.receipt
        for product in ["sub.monthly", "sub.yearly", "sub.weekly", "coins", "lifetime"] {
            #expect(r.containsPurchase(of: product), "\(product)")
        }
        for product in ["none", "", "sub", "COINS", "coins "] {
            #expect(!r.containsPurchase(of: product), "\(product)")
        }
    }

    @Test func activeSubscriptionAtChosenDates() {
        // Before the first subscription purchase.
        #expect(Self.active(nil, utc(2023, 12, 31, 23, 59, 59)) == nil)
        #expect(Self.active(nil, utc(2023, 12, 31, 23, 59, 59, milliseconds: 999)) == nil)
        #expect(Self.active("sub.monthly", utc(2023, 12, 31)) == nil)
        // purchase ≤ date: active from the purchase instant on.
        #expect(Self.active("sub.monthly", utc(2024, 1, 1)) == "m1")
        #expect(Self.active("sub.monthly", utc(2024, 1, 15, 12)) == "m1")
        #expect(Self.active("sub.monthly", utc(2024, 1, 31, 23, 59, 59)) == "m1")
        // date < expiry: at m1's expiry the renewal m2 is the active one.
        #expect(Self.active("sub.monthly", utc(2024, 2, 1)) == "m2")
        #expect(Self.active("sub.monthly", utc(2024, 2, 29, 23, 59, 59)) == "m2")
        // m3 was cancelled (refunded): never active, before or after its cancellation date.
        #expect(Self.active("sub.monthly", utc(2024, 3, 1)) == nil)
        #expect(Self.active("sub.monthly", utc(2024, 3, 2)) == nil)
        #expect(Self.active("sub.monthly", utc(2024, 3, 10)) == nil)
        #expect(Self.active("sub.monthly", utc(2024, 4, 2)) == nil)
        // Overlapping yearly periods: the one expiring last.
        #expect(Self.active("sub.yearly", utc(2024, 3, 1)) == "y1")
        #expect(Self.active("sub.yearly", utc(2024, 7, 1)) == "y2")
        #expect(Self.active("sub.yearly", utc(2025, 1, 15)) == "y2")
        #expect(Self.active("sub.yearly", utc(2025, 5, 31, 23, 59, 59)) == "y2")
        #expect(Self.active("sub.yearly", utc(2025, 6, 1)) == nil, "exactly at expiry: not active")
        // Any product: the period expiring last among all active ones.
        #expect(Self.active(nil, utc(2024, 1, 10)) == "m1")
        #expect(Self.active(nil, utc(2024, 1, 20)) == "y1")
        #expect(Self.active(nil, utc(2024, 5, 2)) == "y1")
        #expect(Self.active(nil, utc(2024, 7, 1)) == "y2")
        #expect(Self.active(nil, utc(2025, 6, 1)) == nil)
        // Non-subscriptions are never active.
        #expect(Self.active("lifetime", utc(2023, 5, 10)) == nil)
        #expect(Self.active("coins", utc(2024, 2, 10)) == nil)
        #expect(Self.active("none", utc(2024, 7, 1)) == nil)
    }

    /// Millisecond boundaries on a period that starts and ends at .250 seconds.
    @Test func millisecondBoundaries() throws {
        let start = utc(2024, 5, 1, 10, milliseconds: 250)
        let end = utc(2024, 5, 8, 10, milliseconds: 250)
        #expect(Self.active("sub.weekly", start.addingTimeInterval(-0.001)) == nil)
        #expect(Self.active("sub.weekly", start) == "w1")
        #expect(Self.active("sub.weekly", end.addingTimeInterval(-0.001)) == "w1")
        #expect(Self.active("sub.weekly", end) == nil)
        let weekly = try #require(Self.receipt.purchases(of: "sub.weekly").first)
        #expect(weekly.isActive(at: start))
        #expect(!weekly.isActive(at: end))
        #expect(weekly.purchaseDate.millisecondsSince1970 == 1_714_557_600_250)
        #expect(weekly.subscriptionExpirationDate?.millisecondsSince1970 == 1_715_162_400_250)
    }

    @Test func latestExpirationDates() {
        let latest = Self.receipt.latestExpirationDates()
        #expect(
            latest == [
                "sub.monthly": utc(2024, 3, 1),   // m3 (2024-04-01) was cancelled
                "sub.yearly": utc(2025, 6, 1),
                "sub.weekly": utc(2024, 5, 8, 10, milliseconds: 250),
            ])
    }

    @Test func cancelledPurchasesNewestCancellationFirst() {
        let cancelled = Self.receipt.cancelledPurchases()
        #expect(cancelled.map(\.transactionIdentifier) == ["m3", "l1"])
        #expect(cancelled.map(\.cancellationDate) == [utc(2024, 3, 5), utc(2023, 6, 1)])
    }

    @Test func emptyReceipt() throws {
        let r = try AppReceipt(Synthetic.sign(Payload.app()))
        #expect(r.inAppPurchases.isEmpty)
        #expect(r.purchases(of: "x").isEmpty)
        #expect(!r.containsPurchase(of: "x"))
        #expect(r.activeAutoRenewableSubscription(at: utc(2024, 1, 1)) == nil)
        #expect(r.latestExpirationDates().isEmpty)
        #expect(r.cancelledPurchases().isEmpty)
    }
}

/// The same queries on the real receipts, answered from the truth files by a direct
/// re-implementation of each rule in the test.
@Suite(.enabled(if: Fixtures.shouldRun))
struct FixtureQueryTests {
    struct Purchase {
        let product: String
        let transaction: String
        let purchase: Int64
        let expires: Int64?
        let cancelled: Int64?
    }

    static func purchases(_ name: String) throws -> [Purchase] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url("truth/\(name).json")))
        let truth = try #require(object as? [String: Any])
        let inApp = try #require(truth["in_app"] as? [[String: Any]])
        return try inApp.map { entry in
            let f = try #require(entry["fields"] as? [String: Any])
            return Purchase(
                product: try #require(f["product_id"] as? String),
                transaction: try #require(f["transaction_id"] as? String),
                purchase: try #require((f["purchase_date_ms"] as? NSNumber)?.int64Value),
                expires: (f["expires_date_ms"] as? NSNumber)?.int64Value,
                cancelled: (f["cancellation_date_ms"] as? NSNumber)?.int64Value)
        }
    }

    @Test(arguments: Fixtures.receiptNames)
    func queriesMatchTheTruth(_ name: String) throws {
        let receipt = try AppReceipt(Fixtures.bytes("receipts/\(name).der"))
        let truth = try Self.purchases(name)
        let products = Set(truth.map(\.product))
        #expect(!products.isEmpty)

        for product in products {
            let expected = truth.filter { $0.product == product }
            let found = receipt.purchases(of: product)
            #expect(found.map(\.purchaseDate.millisecondsSince1970) == expected.map(\.purchase).sorted(by: >), "\(name) \(product)")
            #expect(Set(found.map(\.transactionIdentifier)) == Set(expected.map(\.transaction)))
            #expect(found.count == expected.count)
            #expect(receipt.containsPurchase(of: product))
        }
        #expect(!receipt.containsPurchase(of: "no.such.product"))

        var latest: [String: Int64] = [:]
        for p in truth where p.cancelled == nil {
            guard let expires = p.expires else { continue }
            latest[p.product] = max(latest[p.product] ?? .min, expires)
        }
        #expect(receipt.latestExpirationDates().mapValues(\.millisecondsSince1970) == latest)
        #expect(
            receipt.cancelledPurchases().map(\.transactionIdentifier)
                == truth.filter { $0.cancelled != nil }.sorted { $0.cancelled! > $1.cancelled! }.map(\.transaction))

        // Active subscription at every boundary the receipt has: purchase instants, one ms before
        // each expiry, each expiry itself.
        var probes = Set<Int64>()
        for p in truth {
            probes.insert(p.purchase)
            probes.insert(p.purchase - 1)
            if let e = p.expires { probes.formUnion([e - 1, e]) }
        }
        for t in probes.sorted() {
            for product in [String?.none] + products.map(Optional.some) {
                let candidates = truth.filter {
                    (product == nil || $0.product == product) && $0.cancelled == nil && $0.expires != nil
                        && $0.purchase <= t && t < $0.expires!
                }
                let expectedExpiry = candidates.map { $0.expires! }.max()
                let found = receipt.activeAutoRenewableSubscription(product, at: instant(t))
                #expect(
                    found?.subscriptionExpirationDate?.millisecondsSince1970 == expectedExpiry,
                    "\(name) \(product ?? "any") at \(t)")
            }
        }
    }
}
