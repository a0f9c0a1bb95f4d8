// bench-appstore-api: inputs for Server/bench's App Store Server API rows, signed by the G3-shaped
// test chain (transactions, renewal infos, notifications) and a throwaway In-App Purchase key (JWTs).
//
//   bench-appstore-api DIR CUSTOMERS JWTS POSTS [LARGE...]
//
// Writes into DIR:
// - g3-root.der: the chain's root (for --root-g3);
// - customers.bodies: four `{"signedPayload": …}` bodies a customer, one a line (SUBSCRIBED, then
//   three DID_RENEW: each with its signed transaction and renewal info, monthly, the last one active
//   now), for CUSTOMERS customers with numeric transaction ids;
// - customers.ids: each customer's original transaction id, one a line (the GET requests' ids);
// - key.p8, key-id, issuer: the In-App Purchase key for `receipt-server iapkey add`;
// - jwt.reused: one JWT; jwts.fresh: JWTS distinct JWTs, one a line. Apple's shape: ES256, `kid`,
//   `typ` JWT, `iss`, `aud` appstoreconnect-v1, `bid`, `exp` now + 3000 s and no `iat` (as Apple's
//   Python client makes them), so each stays valid for 50 minutes;
// - transactions.bodies: POSTS `{"signedTransactionInfo": …}` bodies, one a line, each a new
//   renewal (its own transaction id) of one of the customers, in turn;
// - for each LARGE (Server/bench-large-customer): large-LARGE.bodies, one customer's LARGE
//   notifications (SUBSCRIBED, then DID_RENEW, one an hour, the last active now), and
//   large-LARGE.ids, 60 of its transaction ids spread over its history.
// Throwaway keys: never trust what this signs.
import Crypto
import Foundation
import ReceiptTestSupport

let arguments = Array(CommandLine.arguments.dropFirst())
let larges = arguments.dropFirst(4).compactMap { Int($0) }.filter { $0 >= 60 }
guard arguments.count == 4 + larges.count, let customers = Int(arguments[1]), let jwtCount = Int(arguments[2]),
    let posts = Int(arguments[3]), customers > 0, jwtCount > 0, posts > 0
else {
    FileHandle.standardError.write(Data("usage: bench-appstore-api DIR CUSTOMERS JWTS POSTS [LARGE (60 or more)...]\n".utf8))
    exit(64)
}
let directory = URL(fileURLWithPath: arguments[0])
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let chain = TestJWSChain()
let x5c = chain.certificates
try Data(chain.rootCertificate).write(to: directory.appendingPathComponent("g3-root.der"))

let bundleID = "com.example.receipts", product = "com.example.receipts.monthly"
let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
let day: Int64 = 86_400_000

/// Customer `index`'s original transaction id; its purchase `k` (0 … 3) is this plus `k`. A large
/// customer (`index` -1, -2, …) has its purchases at 9,000,000,000 + 100,000 × its number + k.
@Sendable func originalID(_ index: Int) -> Int { index < 0 ? 9_000_000_000 - 100_000 * index : 7_000_000_000 + 4 * index }

/// A signed transaction of customer `customer`: purchased at `purchased`, a month long, signed a
/// second later.
@Sendable func transaction(_ id: Int, customer: Int, purchased: Int64, reason: String) -> String {
    let payload = """
        {"transactionId":"\(id)","originalTransactionId":"\(originalID(customer))","bundleId":"\(bundleID)",\
        "productId":"\(product)","purchaseDate":\(purchased),"originalPurchaseDate":\(now - 100 * day),\
        "expiresDate":\(purchased + 30 * day),"quantity":1,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED",\
        "subscriptionGroupIdentifier":"21000001","webOrderLineItemId":"\(id)","environment":"Production","signedDate":\(purchased + 1_000),\
        "transactionReason":"\(reason)","storefront":"USA","storefrontId":"143441","price":4990,"currency":"USD"}
        """
    return chain.token(payload: payload, x5c: x5c)
}

/// Notification `k` (0 … 3) of customer `customer`: SUBSCRIBED, then DID_RENEW, 30 days apart, the
/// last purchased 10 days ago (so active now). A large customer's (`of` purchases): one an hour
/// (within the test chain's validity), the last purchased 10 days ago.
@Sendable func notification(customer: Int, k: Int, of count: Int = 4) -> String {
    let purchased =
        count == 4 ? now - Int64(100 - 30 * k) * day + Int64(customer) : now - Int64(count - 1 - k) * 3_600_000 - 10 * day
    let signed = purchased + 1_000
    let renewal = """
        {"originalTransactionId":"\(originalID(customer))","productId":"\(product)","autoRenewProductId":"\(product)",\
        "autoRenewStatus":1,"environment":"Production","signedDate":\(signed),"renewalDate":\(purchased + 30 * day)}
        """
    let sequence = String(customer < 0 ? 0x8000_0000 - 100_000 * customer + k : 4 * customer + k, radix: 16)
    let type = k == 0 ? #""notificationType":"SUBSCRIBED","subtype":"INITIAL_BUY""# : #""notificationType":"DID_RENEW""#
    let payload = """
        {\(type),"notificationUUID":"00000000-0000-4000-9000-\(String(repeating: "0", count: max(0, 12 - sequence.count)) + sequence)",\
        "version":"2.0","signedDate":\(signed),"data":{"bundleId":"\(bundleID)","environment":"Production",\
        "appAppleId":1234567890,"bundleVersion":"42","status":1,\
        "signedTransactionInfo":"\(transaction(originalID(customer) + k, customer: customer, purchased: purchased, reason: k == 0 ? "PURCHASE" : "RENEWAL"))",\
        "signedRenewalInfo":"\(chain.token(payload: renewal, x5c: x5c))"}}
        """
    return #"{"signedPayload":""# + chain.token(payload: payload, x5c: x5c) + #""}"#
}

/// Posted body `index`: a renewal of customer `index % customers` purchased 5 days ago, a
/// transaction id no notification used.
@Sendable func posted(_ index: Int) -> String {
    let token = transaction(
        8_000_000_000 + index, customer: index % customers, purchased: now - 5 * day + Int64(index % 1_000_000), reason: "RENEWAL")
    return #"{"signedTransactionInfo":""# + token + #""}"#
}

/// `lines(index)` for every index below `count`, one task per core (signing is the slow part).
func parallel(_ count: Int, _ lines: @escaping @Sendable (Int) -> [String]) async -> [String] {
    let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let shares = await withTaskGroup(of: (Int, [String]).self) { group in
        for worker in 0 ..< workers {
            group.addTask { (worker, ((count * worker / workers) ..< (count * (worker + 1) / workers)).flatMap(lines)) }
        }
        var shares: [Int: [String]] = [:]
        for await (worker, part) in group { shares[worker] = part }
        return shares
    }
    return (0 ..< workers).flatMap { shares[$0]! }
}

/// Writes `lines`, each followed by a newline, to DIR/`name`.
func write(_ lines: [String], to name: String) throws {
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent(name))
}

// The In-App Purchase key and its tokens (swift-crypto signs: ECDSA nonces are random, so every
// token differs even with the same claims; checked below).
let key = P256.Signing.PrivateKey()
let keyID = "BENCHKEY01", issuer = "57246542-96fe-1a63-e053-0824d011072a"
try write([key.pemRepresentation], to: "key.p8")
try write([keyID], to: "key-id")
try write([issuer], to: "issuer")
let signingInput =
    TestJWS.base64URL(Array(#"{"alg":"ES256","kid":"\#(keyID)","typ":"JWT"}"#.utf8)) + "."
    + TestJWS.base64URL(Array(#"{"iss":"\#(issuer)","aud":"appstoreconnect-v1","bid":"\#(bundleID)","exp":\#(now / 1000 + 3000)}"#.utf8))
@Sendable func jwt(_: Int) -> [String] {
    let signature = (try? key.signature(for: Data(signingInput.utf8)).rawRepresentation) ?? Data()
    return [signingInput + "." + TestJWS.base64URL(Array(signature))]
}
let tokens = await parallel(jwtCount, jwt)
guard Set(tokens).count == jwtCount else { fatalError("two JWTs are the same") }
try write(jwt(0), to: "jwt.reused")
try write(tokens, to: "jwts.fresh")

try write((0 ..< customers).map { String(originalID($0)) }, to: "customers.ids")
try write(await parallel(customers) { customer in (0 ..< 4).map { notification(customer: customer, k: $0) } }, to: "customers.bodies")
try write(await parallel(posts) { [posted($0)] }, to: "transactions.bodies")
for (number, count) in larges.enumerated() {
    let customer = -(number + 1)
    try write(await parallel(count) { [notification(customer: customer, k: $0, of: count)] }, to: "large-\(count).bodies")
    try write((0 ..< 60).map { String(originalID(customer) + $0 * (count - 1) / 59) }, to: "large-\(count).ids")
}
print("wrote \(customers) customers (\(4 * customers) notifications), \(jwtCount) JWTs and \(posts) transactions to \(directory.path)")
