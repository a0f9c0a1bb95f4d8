// bench-subscription-metrics: fills a database (SQLite or PostgreSQL, through ReceiptStore's own
// write path) with SUBSCRIBERS subscribers of com.example.receipts over the last 180 days, for
// Server/bench's rows of GET /inApps/v1/metrics and GET /inApps/v1/entitlements/{token}.
//
//   bench-subscription-metrics DATABASE SECRETS_KEY_FILE SUBSCRIBERS
//
// Subscriber i: monthly (4 in 5) or yearly, USD or EUR, a 7-day free trial for 1 in 4, started
// at a random time in the last 180 days, renewing until it lapses (1 in 10 at each renewal), its
// auto-renew turned off, or now; 1 in 50 refunded; 1 in 20 in billing retry with a 16-day grace
// period; each carries appAccountToken `00000000-0000-4000-8000-` + i in 12 hex digits. The
// signed-token columns hold a placeholder (metrics read the facts, never the token). Prints the
// row count and how long the fill took.
import Foundation
import Logging
import ReceiptService
import ReceiptStore
import ReceiptTestSupport

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3, let subscribers = Int(arguments[2]), subscribers > 0 else {
    FileHandle.standardError.write(Data("usage: bench-subscription-metrics DATABASE SECRETS_KEY_FILE SUBSCRIBERS\n".utf8))
    exit(64)
}
let secrets = try SecretsKey(encoded: Array(try Data(contentsOf: URL(fileURLWithPath: arguments[1]))))
var logger = Logger(label: "bench-subscription-metrics")
logger.logLevel = .warning
let bundleID = "com.example.receipts"
let day: Int64 = 86_400_000
let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))

/// Subscriber `i`'s transactions and renewal info.
@Sendable func subscriber(_ i: Int) -> [PostedTransaction] {
    var random = SplitMix64(seed: UInt64(i) &* 0x9E37_79B9)
    let yearly = i % 5 == 4
    let currency = i % 2 == 0 ? "USD" : "EUR"
    let product = yearly ? "com.example.receipts.yearly" : "com.example.receipts.monthly"
    let price: Int64 = yearly ? (currency == "USD" ? 79_990 : 69_990) : (currency == "USD" ? 9_990 : 8_990)
    let token = String(format: "00000000-0000-4000-8000-%012x", i)
    let original = String(6_000_000_000 + i * 100)
    var start = now - Int64(random.below(180 * 86_400)) * 1000
    var transactions: [NotificationTransaction] = []
    func add(length: Int64, price: Int64, trial: Bool, revoked: Int64? = nil) {
        let id = transactions.isEmpty ? original : String(Int(original)! + transactions.count)
        let expires = start + length
        transactions.append(
            NotificationTransaction(
                transactionID: id, originalTransactionID: original, productID: product, purchaseMilliseconds: start, signedMilliseconds: start,
                json: #"{"transaction_id":"\#(id)"}"#, serverMembers: "",
                signed: SignedTransactionFacts(
                    jws: "bench.\(id).placeholder", type: "Auto-Renewable Subscription", subscriptionGroupIdentifier: "21000001",
                    expiresMilliseconds: expires, revocationMilliseconds: revoked, inAppOwnershipType: "PURCHASED", appAccountToken: token,
                    commerce: SignedCommerceFacts(
                        price: price, currency: currency, transactionReason: transactions.isEmpty ? "PURCHASE" : "RENEWAL",
                        offerDiscountType: trial ? "FREE_TRIAL" : nil))))
        start = expires
    }
    if i % 4 == 1 { add(length: 7 * day, price: 0, trial: true) }
    let length = yearly ? 365 * day : 30 * day
    while start <= now {
        let refunded = random.below(50) == 0
        add(length: length, price: price, trial: false, revoked: refunded ? start + 2 * day : nil)
        if refunded || random.below(10) == 0 { break }
    }
    let retry = i % 20 == 7 && start <= now
    let renewal = RenewalInfoRecord(
        originalTransactionID: original, signedMilliseconds: now, json: "{}",
        signed: SignedRenewalFacts(
            jws: "bench.renewal.\(original)", isInBillingRetryPeriod: retry, gracePeriodExpiresMilliseconds: retry ? start + 16 * day : nil,
            autoRenewStatus: start > now ? 1 : 0))
    return transactions.enumerated().map { index, t in
        PostedTransaction(
            bundleID: bundleID, environment: "Production", transaction: t, renewalInfo: index == transactions.count - 1 ? renewal : nil)
    }
}

let started = Date()
let rows = try await Stores.with(try DatabaseLocation(arguments[0]), secrets: secrets, logger: logger) { store in
    // Many writes in flight, so that the group-commit writer batches them.
    try await withThrowingTaskGroup(of: Int.self) { group in
        let lanes = 64
        for lane in 0 ..< lanes {
            group.addTask {
                var count = 0
                for i in stride(from: lane, to: subscribers, by: lanes) {
                    for posted in subscriber(i) {
                        try await store.save(posted)
                        count += 1
                    }
                }
                return count
            }
        }
        return try await group.reduce(0, +)
    }
}
print("\(subscribers) subscribers, \(rows) transactions stored in \(Int(Date().timeIntervalSince(started))) s")
