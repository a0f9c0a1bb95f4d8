import Foundation
import ReceiptTestSupport

/// The `legacy` harness's seeds: synthetic transaction receipts (text and base64) of both
/// versions, their signature blobs and purchase-info texts, and a few dictionaries each refused
/// for one reason.
public enum LegacySeeds: Sendable {
    /// The signed receipts, by seed name.
    static var receipts: [(name: String, receipt: TestTransactionReceipt)] {
        [
            ("v2", TestTransactionReceipt(version: 2)),
            ("v3", TestTransactionReceipt(version: 3)),
            ("v3-subscription", TestTransactionReceipt(version: 3, expiresMilliseconds: 1_602_592_000_000)),
        ]
    }

    /// What the seeds signed: version byte ‖ purchase-info, for `KnownGood`.
    public static var signedContents: [[UInt8]] {
        receipts.map { [$0.receipt.version] + $0.receipt.purchaseInfoText }
    }

    /// The corpus files.
    public static func corpus() -> [FuzzSeeds.File] {
        var files: [FuzzSeeds.File] = []
        for (name, receipt) in receipts {
            files.append(FuzzSeeds.File(name: "\(name).txt", bytes: receipt.text))
            files.append(FuzzSeeds.File(name: "\(name)-signature.bin", bytes: receipt.signatureBlob))
        }
        let v2 = receipts[0].receipt
        files.append(FuzzSeeds.File(name: "v2-base64.txt", bytes: v2.base64))
        files.append(FuzzSeeds.File(name: "v2-purchase-info.txt", bytes: v2.purchaseInfoText))
        let refused: [(String, String)] = [
            ("escapes", "{\n\t\"a\\\"b\" = \"c\\\\d\";\n\t\"\" = \"\";\n}"),
            ("duplicate-key", "{ \"a\" = \"1\"; \"a\" = \"2\"; }"),
            ("nested", "{ \"a\" = { \"b\" = \"c\"; }; }"),
            ("unescaped-quote", "{ \"a\" = \"x\"y\"; }"),
            ("unterminated", "{ \"a\" = \"x; }"),
            ("trailing", "{ \"a\" = \"1\"; } {"),
        ]
        for (name, text) in refused { files.append(FuzzSeeds.File(name: "dictionary-\(name).txt", bytes: Array(text.utf8))) }
        return files
    }
}
