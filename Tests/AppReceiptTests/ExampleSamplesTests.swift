import AppReceipt
import Foundation
import PKCS7
import X509Certificates
import ReceiptTestSupport
import Testing
import TestHelpers

/// The committed samples under Examples/ are what `make-examples` generates today, and they
/// verify as the README says.
struct ExampleSamplesTests {
    @Test func committedSamplesMatchTheGenerator() throws {
        for sample in ExampleSamples.all {
            let url = Fixtures.packageRoot.appendingPathComponent("Examples/" + sample.name)
            let committed = try [UInt8](Data(contentsOf: url))
            #expect(committed == sample.bytes, "Examples/\(sample.name) differs from `swift run make-examples` output")
        }
    }

    @Test func sampleVerifiesWithItsRootAndNotWithoutIt() throws {
        let examples = Fixtures.packageRoot.appendingPathComponent("Examples")
        let receipt = try AppReceipt(Array(Data(contentsOf: examples.appendingPathComponent("sample-receipt.der"))))
        let root = try TrustAnchor(derEncoded: Array(Data(contentsOf: examples.appendingPathComponent("sample-root.der"))))
        try receipt.validate(
            policy: .appStore(anchors: [root]), bundleIdentifier: "com.example.receipts", appVersion: "42",
            deviceIdentifier: Array(0 ..< 16))
        #expect(receipt.inAppPurchases.count == 5)
        #expect(throws: ReceiptValidationError.self) { try receipt.validate() }
    }
}
