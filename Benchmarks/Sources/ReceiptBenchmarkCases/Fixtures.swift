import Foundation
import ReceiptTestSupport

/// Which trust anchor a receipt verifies against, for every peer alike.
public enum AnchorKind: Sendable {
    /// Apple Root CA (`TrustPolicy.appStore`, `certs/AppleIncRootCertificate.cer`).
    case appleRoot
    /// The StoreKit test certificate (`TrustPolicy.xcodeTesting`, `certs/StoreKitTestCertificate.cer`).
    case storeKit
    /// `TestChain().rootCertificate` (synthetic receipts).
    case testRoot
}

/// A receipt to decode and verify: its bytes and the anchor (DER) that verifies it.
public struct ReceiptSample: Sendable {
    public let name: String
    public let bytes: [UInt8]
    public let anchor: AnchorKind
    public let anchorDER: [UInt8]
    /// In-app purchases it holds (what every decoder must find).
    public let inAppCount: Int
}

/// The shared fixtures (`../shared/fixtures` beside the root package) and the synthetic receipts.
public enum Fixtures {
    /// `RECEIPT_FIXTURES` if set; otherwise `../shared/fixtures` relative to the root package,
    /// found from this source file's place (Benchmarks/Sources/ReceiptBenchmarkCases/).
    public static let directory: URL = {
        if let path = ProcessInfo.processInfo.environment["RECEIPT_FIXTURES"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let rootPackage = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return rootPackage.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    }()

    public static func bytes(_ relativePath: String) -> [UInt8] {
        let url = directory.appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            fatalError("fixture missing: \(url.path) (set RECEIPT_FIXTURES to the shared fixtures folder)")
        }
        return [UInt8](data)
    }

    public static let appleRootDER = bytes("certs/AppleIncRootCertificate.cer")
    public static let storeKitDER = bytes("certs/StoreKitTestCertificate.cer")

    /// The fixture receipts of DESIGN §8, with the in-app counts of their truth files.
    public static let receipts: [ReceiptSample] = [
        ReceiptSample(name: "production", bytes: bytes("receipts/production.der"), anchor: .appleRoot, anchorDER: appleRootDER, inAppCount: 4),
        ReceiptSample(
            name: "sandbox-legacy", bytes: bytes("receipts/sandbox-legacy.der"), anchor: .appleRoot, anchorDER: appleRootDER, inAppCount: 187),
        ReceiptSample(name: "xcode", bytes: bytes("receipts/xcode.der"), anchor: .storeKit, anchorDER: storeKitDER, inAppCount: 1),
    ]

    public static let syntheticCounts = [1, 10, 100, 1_000, 10_000]

    /// A synthetic receipt made by the project's own writer and test signer (made afresh: the
    /// 10,000-purchase one takes a moment).
    public static func synthetic(_ count: Int) -> ReceiptSample {
        ReceiptSample(
            name: "synthetic-\(count)", bytes: SyntheticReceipts.receipt(inAppCount: count),
            anchor: .testRoot, anchorDER: TestChain().rootCertificate, inAppCount: count)
    }
}
