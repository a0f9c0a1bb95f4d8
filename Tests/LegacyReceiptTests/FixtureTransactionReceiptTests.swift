import AppReceipt
import Foundation
import LegacyReceipt
import Testing
import TestHelpers
import X509Certificates

/// The shared real receipt (`ios6/iap-node-sandbox-v2.txt`, a version 2 sandbox receipt of 2012)
/// verifies under the default policy and decodes to its truth file. Skipped when the shared
/// fixtures are absent, failed then under `CI=true`.
@Suite(.enabled(if: Fixtures.shouldRun))
struct FixtureTransactionReceiptTests {
    static let file = "ios6/iap-node-sandbox-v2.txt"

    func truth() throws -> [String: Any] {
        let data = try Data(contentsOf: Fixtures.url("ios6/iap-node-sandbox-v2.truth.json"))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func verifiesUnderTheDefaultPolicy() throws {
        let receipt = try TransactionReceipt(try Fixtures.bytes(Self.file))
        let verified = try receipt.verify()
        #expect(verified.chain.count == 3)
        #expect(verified.chain[1].subjectDescription.contains("Apple iTunes Store Certification Authority"))
        #expect(verified.chain[2].fingerprint.description == TrustAnchor.appleRootCAFingerprint)
        #expect(verified.publicKeyOperations == 3)
        #expect(verified.time == 1_335_798_355)
    }

    @Test func alsoVerifiesFromItsBase64() throws {
        let base64 = Array(Data(try Fixtures.bytes(Self.file)).base64EncodedString().utf8)
        #expect(TransactionReceipt.recognises(base64))
        try TransactionReceipt(base64).verify()
    }

    @Test func decodesToItsTruthFile() throws {
        let truth = try truth()
        let receipt = try TransactionReceipt(try Fixtures.bytes(Self.file))
        #expect(Int(receipt.signature.version.rawValue) == truth["version"] as? Int)
        #expect(receipt.signature.signature.count == truth["signature_bytes"] as? Int)
        #expect(receipt.environment == truth["environment"] as? String)
        #expect(receipt.isSandbox)
        let outer = try #require(truth["outer"] as? [String: String])
        for (key, value) in outer { #expect(receipt.dictionary[key] == value, "\(key)") }
        let info = try #require(truth["purchase_info"] as? [String: String])
        #expect(Set(receipt.purchaseInfo.keys) == Set(info.keys))
        for (key, value) in info { #expect(receipt.purchaseInfo[key] == value, "\(key)") }
        #expect(receipt.bundleIdentifier == info["bid"])
        #expect(receipt.bundleVersion == info["bvrs"])
        #expect(receipt.productIdentifier == info["product-id"])
        #expect(receipt.itemIdentifier == info["item-id"])
        #expect(receipt.transactionIdentifier == info["transaction-id"])
        #expect(receipt.originalTransactionIdentifier == info["original-transaction-id"])
        #expect(receipt.quantity == 1)
        #expect(receipt.purchaseDate.millisecondsText == info["purchase-date-ms"])
        #expect(receipt.purchaseDate.gmt == info["purchase-date"])
        #expect(receipt.purchaseDate.pacific == info["purchase-date-pst"])
        #expect(receipt.purchaseDate.date == Date(timeIntervalSince1970: 1_335_798_355.868))
        #expect(receipt.originalPurchaseDate?.gmt == info["original-purchase-date"])
        #expect(receipt.isAutoRenewable == (truth["auto_renewable"] as? Bool))
        #expect(receipt.unknownFields.isEmpty)
        let signer = try #require(truth["signer"] as? [String])
        #expect(signer[0].contains("PurchaseReceiptCertificate"))
        #expect(receipt.signature.certificate.subjectDescription.contains("PurchaseReceiptCertificate"))
    }

    @Test func jsonMatchesTheTruthsReceiptJSON() throws {
        let truth = try truth()
        let receipt = try TransactionReceipt(try Fixtures.bytes(Self.file))
        let json = try #require(JSONSerialization.jsonObject(with: Data(TransactionReceiptJSON.response(receipt).utf8)) as? [String: Any])
        #expect(json["status"] as? Int == 0)
        let expected = try #require(truth["receipt_json"] as? [String: String])
        #expect(json["receipt"] as? [String: String] == expected)
        #expect(Set(json.keys) == ["status", "receipt"])
    }

    @Test func embeddedIntermediatesMatchTheFixtures() throws {
        #expect(LegacyTrustPolicy.embeddedIntermediates.count == 2)
        let files = ["ios6/AppleITunesStoreCertificationAuthority.cer", "ios6/AppleWWDRCA.cer"]
        for (file, embedded) in zip(files, LegacyTrustPolicy.embeddedIntermediates) {
            #expect(Array(embedded.encoded) == (try Fixtures.bytes(file)), "\(file)")
        }
    }

    @Test func refusedOutsideTheSignersValidityWhenJudgedNow() throws {
        let receipt = try TransactionReceipt(try Fixtures.bytes(Self.file))
        #expect {
            try receipt.verify(at: Date(timeIntervalSince1970: 1_700_000_000))
        } throws: { error in
            guard case .untrusted(.expired) = error as? TransactionReceiptValidationError else { return false }
            return true
        }
    }
}
