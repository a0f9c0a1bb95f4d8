// bench-receipts: request bodies for Server/bench (wrk), built with the root package's test chain.
//
//   bench-receipts DIR COUNT
//
// Writes DIR/root.der (the chain's root, for --root) and DIR/distinct.bodies: COUNT verifyReceipt
// request bodies, one JSON object per line, each a distinct receipt (its own SHA-256 and its own
// subscription transaction), signed with throwaway test keys. Never trust what this signs.
import Foundation
import ReceiptTestSupport

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let count = Int(arguments.last!), count > 0 else {
    FileHandle.standardError.write(Data("usage: bench-receipts DIR COUNT\n".utf8))
    exit(64)
}
let directory = URL(fileURLWithPath: arguments.first!)
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let chain = TestChain()
try Data(chain.rootCertificate).write(to: directory.appendingPathComponent("root.der"))

/// Receipt `index`: one monthly subscription purchase with transaction ids unique to it.
@Sendable func body(_ index: Int, _ chain: TestChain) -> String {
    let id = String(8_000_000_000 + index)
    let purchased = Int64(1_700_000_000 + index)
    var receipt = TestReceipt()
    receipt.creationDate = SyntheticReceipts.rfc3339(purchased + 60)
    receipt.purchases = [
        TestReceipt.Purchase(
            productIdentifier: "com.example.receipts.monthly", transactionIdentifier: id,
            purchaseDate: SyntheticReceipts.rfc3339(purchased), originalTransactionIdentifier: id,
            originalPurchaseDate: SyntheticReceipts.rfc3339(purchased),
            expirationDate: SyntheticReceipts.rfc3339(purchased + 30 * 86_400), productType: 3,
            webOrderLineItemIdentifier: Int64(id), isTrialPeriod: false, isInIntroOfferPeriod: false)
    ]
    return #"{"receipt-data":""# + Data(chain.receipt(receipt)).base64EncodedString() + #""}"#
}

// Signing is the slow part: one task per core, each signing a contiguous share.
let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
let shares = await withTaskGroup(of: (Int, [String]).self) { group in
    for worker in 0 ..< workers {
        group.addTask {
            let range = (count * worker / workers) ..< (count * (worker + 1) / workers)
            return (worker, range.map { body($0, chain) })
        }
    }
    var shares: [Int: [String]] = [:]
    for await (worker, lines) in group { shares[worker] = lines }
    return shares
}
let lines = (0 ..< workers).flatMap { shares[$0]! }
try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("distinct.bodies"))
print("wrote \(count) request bodies to \(directory.path)")
