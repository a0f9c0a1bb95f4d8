// bench-hostile: request bodies for Server/bench-hostile, the worst inputs issue "Hostile clients"
// measured, each variant distinct so that no cache helps. Never trust what this signs.
//
//   bench-hostile DIR [VARIANTS]
//
// Writes, one verifyReceipt JSON body per line (VARIANTS lines each, default 64):
//   DIR/junk-rsa8192-4.bodies   12 junk RSA-8192 certificates, exponent 2^64 − 1, 4 SignerInfos
//   DIR/junk-rsa8192-1.bodies   the same under one SignerInfo
//   DIR/rsa4096-chain.bodies    a chain that really verifies with RSA-4096 keys up to a self-made root
//   DIR/junk-770k.bodies        300 distinct ~770 KB receipts signed by a self-made chain (memory)
// and DIR/inspect-big.der: one receipt of 8,200 purchases, about 2.5 MB (for POST /inspect).
import Foundation
import ReceiptTestSupport

let arguments = CommandLine.arguments.dropFirst()
guard (1 ... 2).contains(arguments.count), let variants = Int(arguments.dropFirst().first ?? "64"), variants > 0 else {
    FileHandle.standardError.write(Data("usage: bench-hostile DIR [VARIANTS]\n".utf8))
    exit(64)
}
let directory = URL(fileURLWithPath: arguments.first!)
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

@Sendable func body(_ receipt: [UInt8]) -> String { #"{"receipt-data":""# + Data(receipt).base64EncodedString() + #""}"# }

/// Runs `make` for 0..<count on every core and writes the lines to `name`.
func write(_ name: String, count: Int, _ make: @escaping @Sendable (Int) -> String) async throws {
    let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let shares = await withTaskGroup(of: (Int, [String]).self) { group in
        for worker in 0 ..< workers {
            group.addTask { (worker, ((count * worker / workers) ..< (count * (worker + 1) / workers)).map(make)) }
        }
        var shares: [Int: [String]] = [:]
        for await (worker, lines) in group { shares[worker] = lines }
        return shares
    }
    let lines = (0 ..< workers).flatMap { shares[$0]! }
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent(name))
}

try await write("junk-rsa8192-4.bodies", count: variants) { body(HostileReceipts.junkCertificates(signerInfos: 4, variant: UInt64($0))) }
try await write("junk-rsa8192-1.bodies", count: variants) { body(HostileReceipts.junkCertificates(signerInfos: 1, variant: UInt64($0))) }
try await write("rsa4096-chain.bodies", count: variants) { body(HostileReceipts.selfMadeRSA4096Chain(variant: UInt64($0))) }

// ~770 KB each: 2,480 purchases, a distinct app version per receipt, a chain nobody trusts.
let impostor: TestChain = TestChain(rootName: "Impostor Root CA")
let large = SyntheticReceipts.payload(inAppCount: 2_480)
try await write("junk-770k.bodies", count: 300) { index in
    var receipt = large
    receipt.appVersion = "junk-\(index)"
    return body(impostor.receipt(receipt))
}
let big = SyntheticReceipts.receipt(inAppCount: 8_200)
try Data(big).write(to: directory.appendingPathComponent("inspect-big.der"))
print("wrote hostile bodies (\(variants) variants each; inspect-big.der \(big.count) bytes) to \(directory.path)")
