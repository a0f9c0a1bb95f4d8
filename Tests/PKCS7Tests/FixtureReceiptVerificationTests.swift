import Foundation
import PKCS7
import Testing
import TestHelpers

/// The five real receipts verify under the right policy at their creation date and not under
/// the wrong one, nor after their chain expires.
@Suite(.enabled(if: Fixtures.shouldRun))
struct FixtureReceiptVerificationTests {
    static let apple = ["production", "sandbox-g5", "sandbox-legacy"]
    static let xcode = ["xcode", "xcode-with-purchases"]

    /// Creation date (attribute 12) from the truth file, in seconds.
    static func creationDate(_ name: String) throws -> Int64 {
        let json = try JSONSerialization.jsonObject(with: Data(Fixtures.bytes("truth/\(name).json"))) as! [String: Any]
        let fields = json["fields"] as! [String: Any]
        return (fields["receipt_creation_date_ms"] as! NSNumber).int64Value / 1000
    }

    static func signedData(_ name: String) throws -> SignedData {
        try SignedData(berEncoded: Fixtures.bytes("receipts/\(name).der"))
    }

    @Test(arguments: apple)
    func appleReceiptVerifiesUnderAppStorePolicy(_ name: String) throws {
        let result = try SignedDataVerifier(policy: .appStore).verify(Self.signedData(name), at: Self.creationDate(name))
        #expect(result.chain.count == 3)
        #expect(result.chain.last?.fingerprint.description == TrustAnchor.appleRootCAFingerprint)
    }

    @Test(arguments: xcode)
    func xcodeReceiptVerifiesUnderXcodePolicy(_ name: String) throws {
        let result = try SignedDataVerifier(policy: .xcodeTesting).verify(Self.signedData(name), at: Self.creationDate(name))
        #expect(result.chain.count == 1)
        #expect(result.chain[0].fingerprint.description == TrustAnchor.storeKitTestingFingerprint)
    }

    @Test(arguments: xcode)
    func xcodeReceiptFailsUnderAppStorePolicy(_ name: String) throws {
        #expect(throws: VerificationError.self) {
            try SignedDataVerifier(policy: .appStore).verify(Self.signedData(name), at: Self.creationDate(name))
        }
    }

    @Test(arguments: apple)
    func appleReceiptFailsUnderXcodePolicy(_ name: String) throws {
        #expect(throws: VerificationError.self) {
            try SignedDataVerifier(policy: .xcodeTesting).verify(Self.signedData(name), at: Self.creationDate(name))
        }
    }
}
