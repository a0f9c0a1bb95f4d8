import CryptoPrimitives
import Foundation
import LegacyReceipt
import ReceiptTestSupport
import Testing
import X509Certificates

/// The synthetic chain's root as the only anchor and its intermediate as the only embedded
/// certificate, every other rule of the App Store policy kept.
func policy(for chain: TestLegacyChain) throws -> LegacyTrustPolicy {
    .appStore(
        anchors: [try TrustAnchor(derEncoded: chain.rootCertificate)],
        intermediates: [try Certificate(derEncoded: chain.intermediateCertificate)])
}

/// Decodes and verifies a synthetic receipt under its own chain's policy.
@discardableResult
func verify(_ receipt: TestTransactionReceipt) throws -> VerifiedTransactionReceipt {
    try TransactionReceipt(receipt.text).verify(policy: try policy(for: receipt.chain))
}

/// The error decoding `text` throws, if any.
func decodingError(_ text: [UInt8]) -> TransactionReceiptError? {
    do {
        _ = try TransactionReceipt(text)
        return nil
    } catch {
        return error
    }
}

/// The error verifying `receipt` under its chain's policy throws, if any.
func verificationError(_ receipt: TestTransactionReceipt) throws -> TransactionReceiptValidationError? {
    let decoded = try TransactionReceipt(receipt.text)
    let policy = try policy(for: receipt.chain)
    do {
        try decoded.verify(policy: policy)
        return nil
    } catch {
        return error
    }
}

@Suite struct SyntheticTransactionReceiptTests {
    @Test(arguments: [UInt8(2), 3])
    func verifiesUnderItsChain(_ version: UInt8) throws {
        let receipt = TestTransactionReceipt(version: version)
        let verified = try verify(receipt)
        #expect(verified.chain.count == 3)
        #expect(verified.publicKeyOperations == 3)
        #expect(verified.time == 1_600_000_000)
        let decoded = try TransactionReceipt(receipt.base64)
        #expect(decoded.signature.version.rawValue == version)
        #expect(decoded.signature.signature.count == (version == 2 ? 128 : 256))
        try decoded.verify(policy: try policy(for: receipt.chain))
    }

    @Test(arguments: [UInt8(2), 3])
    func refusedUnderApplesRoot(_ version: UInt8) throws {
        let decoded = try TransactionReceipt(TestTransactionReceipt(version: version).text)
        #expect(throws: TransactionReceiptValidationError.self) { try decoded.verify() }
    }

    @Test func subscriptionFieldsAreTyped() throws {
        var receipt = TestTransactionReceipt(version: 3, expiresMilliseconds: 1_602_592_000_000)
        receipt.purchaseInfo.append(("future-key", "kept"))
        let decoded = try TransactionReceipt(receipt.text)
        #expect(decoded.isAutoRenewable)
        #expect(decoded.expiresDate?.milliseconds == 1_602_592_000_000)
        #expect(decoded.expiresDate?.gmt == "2020-10-13 12:26:40 Etc/GMT")
        #expect(decoded.expiresDate?.pacific == "2020-10-13 05:26:40 America/Los_Angeles")
        #expect(decoded.isTrialPeriod == false)
        #expect(decoded.isInIntroOfferPeriod == false)
        #expect(decoded.webOrderLineItemIdentifier == "1000000000000001")
        #expect(decoded.uniqueVendorIdentifier == "5B9E8F2E-1C9A-4D2B-8E1F-3A4B5C6D7E8F")
        #expect(
            decoded.unknownFields == [StringDictionary.Entry(key: "future-key", value: "kept", offset: decoded.unknownFields.first?.offset ?? -1)])
        #expect(decoded.pod == "100")
        #expect(decoded.signingStatus == "0")
        try decoded.verify(policy: try policy(for: receipt.chain))
        let json = try #require(JSONSerialization.jsonObject(with: Data(TransactionReceiptJSON.response(decoded).utf8)) as? [String: Any])
        let object = try #require(json["receipt"] as? [String: String])
        #expect(object["expires_date_formatted_pst"] == "2020-10-13 05:26:40 America/Los_Angeles")
        #expect(object["future_key"] == "kept")
        #expect(object.count == receipt.purchaseInfo.count)
    }

    // MARK: One refusal, one error

    @Test func purchaseInfoChangedByOneCharacter() throws {
        var receipt = TestTransactionReceipt(version: 2)
        var text = receipt.purchaseInfoText
        let index = try #require(text.firstIndex(of: UInt8(ascii: "9")))
        text[index] = UInt8(ascii: "8")
        receipt.carriedPurchaseInfo = text
        guard case .untrusted(.signatureInvalid(let subject))? = try verificationError(receipt) else {
            Issue.record("expected signatureInvalid"); return
        }
        #expect(subject.description.contains("PurchaseReceiptCertificate"))
    }

    @Test func versionByteChanged() throws {
        var receipt = TestTransactionReceipt(version: 2)
        receipt.writtenVersion = 3
        #expect(decodingError(receipt.text) == .signature(.versionDoesNotMatchSignatureLength(version: 3, signatureByteCount: 128)))
        receipt = TestTransactionReceipt(version: 3)
        receipt.writtenVersion = 2
        #expect(decodingError(receipt.text) == .signature(.versionDoesNotMatchSignatureLength(version: 2, signatureByteCount: 256)))
        receipt.writtenVersion = 4
        #expect(decodingError(receipt.text) == .signature(.unsupportedVersion(4)))
    }

    @Test func certificateLengthTooLong() throws {
        var receipt = TestTransactionReceipt(version: 2)
        receipt.certificateLengthDelta = 1
        let count = receipt.chain.leafCertificate.count
        #expect(decodingError(receipt.text) == .signature(.certificateLengthPastEnd(declared: count + 1, available: count)))
    }

    @Test func certificateLengthTooShort() throws {
        var receipt = TestTransactionReceipt(version: 3)
        receipt.certificateLengthDelta = -1
        let count = receipt.chain.leafCertificate.count
        #expect(decodingError(receipt.text) == .signature(.certificateLengthMismatch(declared: count - 1, encoded: count)))
    }

    @Test func bytesAfterTheCertificate() throws {
        var receipt = TestTransactionReceipt(version: 2)
        receipt.trailingBytes = [0]
        let count = receipt.chain.leafCertificate.count
        #expect(decodingError(receipt.text) == .signature(.trailingBytes(count: 1, offset: 1 + 128 + 4 + count)))
    }

    @Test(arguments: [UInt8(2), 3])
    func sha256Signature(_ version: UInt8) throws {
        var receipt = TestTransactionReceipt(version: version)
        receipt.hash = .sha256
        #expect(try verificationError(receipt) == .signatureHashNotSHA1(.sha256))
    }

    @Test func wrongLeafMarker() throws {
        // A version 2 signer carrying the version 3 marker instead of 1.2.840.113635.100.6.5.1.
        var receipt = TestTransactionReceipt(version: 2)
        receipt.chain.leaf.extensions = [
            .basicConstraints(ca: false), .keyUsage([.digitalSignature]),
            .marker(OIDs.appleReceiptSigningExtension),
        ]
        guard case .untrusted(.missingAppleExtension(_, let oid))? = try verificationError(receipt) else {
            Issue.record("expected missingAppleExtension"); return
        }
        #expect(oid == LegacyTrustPolicy.version2SignerExtension)

        // A version 3 signer carrying the version 2 marker only.
        var v3 = TestTransactionReceipt(version: 3)
        v3.chain.leaf.extensions = [
            .basicConstraints(ca: false), .keyUsage([.digitalSignature]),
            .policies([OIDs.appleReceiptSigningPolicy]), .marker(LegacyTrustPolicy.version2SignerExtension),
        ]
        guard case .untrusted(.missingAppleExtension(_, let v3OID))? = try verificationError(v3) else {
            Issue.record("expected missingAppleExtension"); return
        }
        #expect(v3OID == OIDs.appleReceiptSigningExtension)
    }

    @Test func expiredAtThePurchaseDate() throws {
        var receipt = TestTransactionReceipt(version: 2)
        receipt.chain.leaf.notAfter = 1_600_000_000 - 1
        guard case .untrusted(.expired(_, let notAfter, let at))? = try verificationError(receipt) else {
            Issue.record("expected expired"); return
        }
        #expect(notAfter == 1_599_999_999)
        #expect(at == 1_600_000_000)
        // Judged at a time inside the validity instead, it verifies.
        let decoded = try TransactionReceipt(receipt.text)
        try decoded.verify(policy: try policy(for: receipt.chain), at: Date(timeIntervalSince1970: 1_500_000_000))
    }

    @Test func keySizeThatDoesNotMatchTheVersion() throws {
        // A version 2 blob (128-byte signature) whose signer holds an RSA-2048 key: refused by
        // the key rules before any RSA operation.
        var receipt = TestTransactionReceipt(version: 2, chain: TestLegacyChain(version: 3))
        receipt.chain.leaf.extensions = [
            .basicConstraints(ca: false), .keyUsage([.digitalSignature]),
            .marker(LegacyTrustPolicy.version2SignerExtension),
        ]
        receipt.signatureOverride = [UInt8](repeating: 0x5A, count: 128)
        guard case .untrusted(.rsaKeySizeNotAllowed(_, let bits))? = try verificationError(receipt) else {
            Issue.record("expected rsaKeySizeNotAllowed"); return
        }
        #expect(bits == 2048)
    }

    @Test func signerWhoseIssuerIsUnknown() throws {
        let decoded = try TransactionReceipt(TestTransactionReceipt(version: 3).text)
        let other = try policy(for: TestLegacyChain(version: 2))
        #expect {
            try decoded.verify(policy: other)
        } throws: { error in
            guard case .untrusted(.issuerNotPresent)? = error as? TransactionReceiptValidationError else { return false }
            return true
        }
    }
}
