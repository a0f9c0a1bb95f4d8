@testable import AppStoreJWS
import CryptoPrimitives
import Foundation
import Testing
import X509Certificates

/// The promotional offer signature (V1): the signed text as Apple's Python library builds it, the
/// DER signature verified with the key's public half, the nonce's UUID rule.
@Suite struct PromotionalOfferSignatureTests {
    static let signer = AppStoreSignerTests.signer
    static let nonce = "20FBA8A0-2B80-4A7D-A17F-85C1854727F8"

    @Test func payloadJoinsApplesSevenFieldsWithInvisibleSeparators() throws {
        let payload = try Self.signer.promotionalOfferPayload(
            productID: "com.example.monthly", offerID: "WINBACK", appAccountToken: "A1B2C3D4-0000-4000-8000-00000000ABCD",
            nonce: Self.nonce, timestamp: 1_698_148_900_000)
        // promotional_offer.py: appAccountToken and nonce lowercased, timestamp as decimal.
        #expect(
            payload.split(separator: "\u{2063}", omittingEmptySubsequences: false)
                == [
                    "com.example.app", "2X9R4HXF34", "com.example.monthly", "WINBACK", "a1b2c3d4-0000-4000-8000-00000000abcd",
                    "20fba8a0-2b80-4a7d-a17f-85c1854727f8", "1698148900000",
                ])
    }

    @Test func emptyAppAccountTokenIsAnEmptyField() throws {
        let payload = try Self.signer.promotionalOfferPayload(
            productID: "p", offerID: "o", appAccountToken: "", nonce: Self.nonce, timestamp: 1)
        #expect(payload == "com.example.app\u{2063}2X9R4HXF34\u{2063}p\u{2063}o\u{2063}\u{2063}20fba8a0-2b80-4a7d-a17f-85c1854727f8\u{2063}1")
    }

    @Test func signatureIsStandardBase64OfADERSignatureThatVerifies() throws {
        let signature = try Self.signer.promotionalOfferSignature(
            productID: "p", offerID: "o", appAccountToken: "", nonce: Self.nonce, timestamp: 1_698_148_900_000)
        let der = try #require(Data(base64Encoded: signature).map { [UInt8]($0) })
        #expect(der.first == 0x30)
        let payload = try Self.signer.promotionalOfferPayload(
            productID: "p", offerID: "o", appAccountToken: "", nonce: Self.nonce, timestamp: 1_698_148_900_000)
        let publicKey = AppStoreSignerTests.key.publicKey
        #expect(publicKey.isValidSignature(derEncoded: der, digest: SHA256.hash(Array(payload.utf8))))
        #expect(!publicKey.isValidSignature(derEncoded: der, digest: SHA256.hash(Array((payload + "0").utf8))))
    }

    @Test(arguments: [
        "", "20fba8a0-2b80-4a7d-a17f-85c1854727f", "20fba8a0-2b80-4a7d-a17f-85c1854727f8a", "20fba8a02b804a7da17f85c1854727f8",
        "{20fba8a0-2b80-4a7d-a17f-85c1854727f8}", "20fba8a0_2b80-4a7d-a17f-85c1854727f8", "20fba8a0-2b80-4a7d-a17f-85c1854727g8",
        "urn:uuid:20fba8a0-2b80-4a7d-a17f-85c18547", "20fba8a0-2b80-4a7d-a17f-85c1854727f\u{E9}",
    ])
    func nonceMustBeAUUID(_ nonce: String) {
        #expect(throws: AppStoreSignerError.nonceNotUUID) {
            try Self.signer.promotionalOfferSignature(productID: "p", offerID: "o", appAccountToken: "", nonce: nonce, timestamp: 1)
        }
    }

    @Test func randomNoncesAreLowercaseVersion4UUIDs() {
        let nonces = (0 ..< 20).map { _ in AppStoreSigner.randomNonce() }
        #expect(Set(nonces).count == 20)
        for nonce in nonces {
            #expect(UUIDText.canonical(nonce) == nonce)
            #expect(Array(nonce)[14] == "4")
            #expect("89ab".contains(Array(nonce)[19]))
        }
    }
}
