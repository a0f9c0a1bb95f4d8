// bench-notifications: request bodies for Server/bench (wrk), signed by a G3-shaped test chain.
//
//   bench-notifications DIR COUNT
//
// Writes DIR/g3-root.der (the chain's root, for --root-g3) and DIR/notifications.bodies: COUNT
// `{"signedPayload": …}` bodies, one a line, each a distinct DID_RENEW notification (its own
// notificationUUID, transaction and renewal info: three tokens to verify, none seen before).
// Then prints, measured in this process on one core over the first bodies, how many
// notifications/s `JWSVerifier.verifyNotification` verifies with a shared VerifiedLinkCache and
// without one. Throwaway keys: never trust what this signs.
import AppStoreJWS
import Foundation
import ReceiptTestSupport
import X509Certificates

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let count = Int(arguments.last!), count > 0 else {
    FileHandle.standardError.write(Data("usage: bench-notifications DIR COUNT\n".utf8))
    exit(64)
}
let directory = URL(fileURLWithPath: arguments.first!)
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let chain = TestJWSChain()
let x5c = chain.certificates
try Data(chain.rootCertificate).write(to: directory.appendingPathComponent("g3-root.der"))

/// The last 12 hex digits of notification `index`'s UUID.
@Sendable func uuidTail(_ index: Int) -> String {
    let hex = String(index, radix: 16)
    return String(repeating: "0", count: max(0, 12 - hex.count)) + hex
}

/// Notification `index`: the renewal of subscription `index`, signed at 2024-03-01 plus `index` ms.
@Sendable func token(_ index: Int) -> String {
    let original = String(6_000_000_000 + 2 * index), renewal = String(6_000_000_000 + 2 * index + 1)
    let signed = 1_709_251_200_000 + Int64(index), purchased = signed - 1_000
    let transaction = """
        {"transactionId":"\(renewal)","originalTransactionId":"\(original)","bundleId":"com.example.receipts",\
        "productId":"com.example.receipts.monthly","purchaseDate":\(purchased),"originalPurchaseDate":\(purchased - 2_592_000_000),\
        "expiresDate":\(purchased + 2_592_000_000),"quantity":1,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED",\
        "subscriptionGroupIdentifier":"21000001","webOrderLineItemId":"\(renewal)","environment":"Production","signedDate":\(signed),\
        "transactionReason":"RENEWAL","storefront":"USA","storefrontId":"143441","price":4990,"currency":"USD"}
        """
    let renewalInfo = """
        {"originalTransactionId":"\(original)","productId":"com.example.receipts.monthly","autoRenewProductId":"com.example.receipts.monthly",\
        "autoRenewStatus":1,"environment":"Production","signedDate":\(signed),"renewalDate":\(purchased + 2_592_000_000)}
        """
    let notification = """
        {"notificationType":"DID_RENEW","notificationUUID":"00000000-0000-4000-8000-\(uuidTail(index))",\
        "version":"2.0","signedDate":\(signed),"data":{"bundleId":"com.example.receipts","environment":"Production",\
        "appAppleId":1234567890,"bundleVersion":"42","status":1,\
        "signedTransactionInfo":"\(chain.token(payload: transaction, x5c: x5c))",\
        "signedRenewalInfo":"\(chain.token(payload: renewalInfo, x5c: x5c))"}}
        """
    return chain.token(payload: notification, x5c: x5c)
}

// Signing is the slow part: one task per core, each signing a contiguous share.
let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
let shares = await withTaskGroup(of: (Int, [String]).self) { group in
    for worker in 0 ..< workers {
        group.addTask {
            let range = (count * worker / workers) ..< (count * (worker + 1) / workers)
            return (worker, range.map(token))
        }
    }
    var shares: [Int: [String]] = [:]
    for await (worker, lines) in group { shares[worker] = lines }
    return shares
}
let tokens = (0 ..< workers).flatMap { shares[$0]! }
let lines = tokens.map { #"{"signedPayload":""# + $0 + #""}"# }
try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("notifications.bodies"))
print("wrote \(count) notification bodies to \(directory.path)")

/// Notifications verified per second on this thread (outer token and both nested ones).
func rate(_ verifier: JWSVerifier, _ tokens: ArraySlice<String>) throws -> Double {
    let start = ContinuousClock.now
    for token in tokens { _ = try verifier.verifyNotification(token, expecting: JWSExpectation(environment: "Production")) }
    let elapsed = ContinuousClock.now - start
    return Double(tokens.count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

let policy = TrustPolicy.appStoreSignedData(anchors: [try TrustAnchor(derEncoded: chain.rootCertificate)])
let sample = tokens.prefix(300)
let cached = try rate(JWSVerifier(policy: policy, linkStore: VerifiedLinkCache(), headerCache: JWSHeaderCache()), sample)
let uncached = try rate(JWSVerifier(policy: policy), sample)
print(String(format: "BENCH-VERIFY notifications/s on one core: %.0f with the link cache, %.0f without (%.2fx)", cached, uncached, cached / uncached))
