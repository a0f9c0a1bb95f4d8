import CryptoPrimitives
import DER
import Foundation
import PKCS7
import X509Certificates
import Testing
import TestHelpers

/// The five real receipts verify under the right policy at their creation date and not under
/// the wrong one, nor after their chain expires.
@Suite(.enabled(if: Fixtures.shouldRun))
struct FixtureReceiptVerificationTests {
    static let apple = ["production", "sandbox-g5", "sandbox-legacy"]
    static let xcode = ["xcode", "xcode-with-purchases"]

    static func truth(_ name: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(Fixtures.bytes("truth/\(name).json"))) as! [String: Any]
    }

    /// Creation date (attribute 12) from the truth file, in seconds.
    static func creationDate(_ name: String) throws -> Int64 {
        let fields = try truth(name)["fields"] as! [String: Any]
        return (fields["receipt_creation_date_ms"] as! NSNumber).int64Value / 1000
    }

    /// The signer certificate's `not_after` from the truth file (OpenSSL's `Oct  1 19:13:56 2024 GMT`).
    static func signerNotAfter(_ name: String) throws -> Int64 {
        let outer = try truth(name)["outer"] as! [String: Any]
        let signer = outer["signer_certificate"] as! [String: Any]
        let parts = (signer["not_after"] as! String).split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let clock = parts[2].split(separator: ":").map { Int($0)! }
        return utc(Int(parts[3])!, months.firstIndex(of: String(parts[0]))! + 1, Int(parts[1])!, clock[0], clock[1], clock[2])
    }

    static func signedData(_ name: String) throws -> SignedData {
        try SignedData(berEncoded: Fixtures.bytes("receipts/\(name).der"))
    }

    /// The embedded certificate the (only) SignerInfo names by issuer and serial number.
    static func signerCertificate(_ signedData: SignedData) throws -> Certificate {
        guard case .issuerAndSerialNumber(let issuer, let serial) = signedData.signerInfos[0].identifier else {
            throw FixtureError.missing("issuerAndSerialNumber signer")
        }
        let matches = signedData.certificates.filter {
            $0.issuer == signedData.storage[issuer] && $0.serialNumber == signedData.storage[serial]
        }
        try #require(matches.count == 1)
        return matches[0]
    }

    static let year2031 = utc(2031, 1, 1)
    /// The StoreKit testing certificate is valid 2020-04-01T17:52:35Z … 2040-03-27T17:52:35Z.
    static let afterStoreKitExpiry = utc(2040, 3, 28)
    static let beforeStoreKitValidity = utc(2020, 3, 31, 12)

    static let storeKitSubjectText = "CN=StoreKit,O=StoreKit,OU=StoreKit,C=US,emailAddress=StoreKit"
    /// The StoreKit certificate's subject as errors name it (its DER, from the embedded anchor).
    static let storeKitSubject = TrustAnchor.storeKitTesting!.certificate.subjectName
    /// Apple Root CA as `notTrusted` names it (its encoding, from the embedded anchor).
    static let appleRoot = EncodedCertificate(TrustAnchor.appleRootCA!.certificate)

    // MARK: Right policy, creation date

    @Test(arguments: apple)
    func appleReceiptVerifiesUnderAppStorePolicy(_ name: String) throws {
        let result = try SignedDataVerifier(policy: .appStore).verify(Self.signedData(name), at: Self.creationDate(name))
        #expect(result.signerIndex == 0)
        #expect(result.chain.count == 3)
        #expect(result.chain.last?.fingerprint.description == TrustAnchor.appleRootCAFingerprint)
        #expect(result.chain[0].subjectDescription.contains("Receipt Signing"))
        #expect(result.chain[1].subjectDescription.contains("Apple Worldwide Developer Relations Certification Authority"))
    }

    @Test(arguments: xcode)
    func xcodeReceiptVerifiesUnderXcodePolicy(_ name: String) throws {
        let result = try SignedDataVerifier(policy: .xcodeTesting).verify(Self.signedData(name), at: Self.creationDate(name))
        #expect(result.chain.count == 1)
        #expect(result.chain[0].fingerprint.description == TrustAnchor.storeKitTestingFingerprint)
    }

    /// The default policy is the App Store one.
    @Test func defaultVerifierUsesAppStorePolicy() throws {
        let verifier = SignedDataVerifier()
        #expect(verifier.policy.name == "appstore")
        _ = try verifier.verify(Self.signedData("production"), at: Self.creationDate("production"))
        #expect(throws: VerificationError.self) {
            _ = try verifier.verify(Self.signedData("xcode"), at: Self.creationDate("xcode"))
        }
    }

    // MARK: Wrong policy

    /// The StoreKit certificate carries a critical extendedKeyUsage (code signing) that only the
    /// Xcode policy claims; the App Store policy rejects it before looking for an anchor. The
    /// refusal says in words that Xcode signed it, and keeps that rule.
    @Test(arguments: xcode)
    func xcodeReceiptFailsUnderAppStorePolicy(_ name: String) throws {
        #expect(Self.storeKitSubject.description == Self.storeKitSubjectText)
        let rule = VerificationError.unhandledCriticalExtension(subject: Self.storeKitSubject, oid: OIDs.extendedKeyUsage)
        let expected = VerificationError.untrustedOrigin(.xcodeTesting, policy: "appstore", rule: rule)
        #expect(expected.description == "signed by Xcode's StoreKit Testing certificate, which the App Store policy does not trust")
        #expect(throws: expected) {
            _ = try SignedDataVerifier(policy: .appStore).verify(Self.signedData(name), at: Self.creationDate(name))
        }
    }

    /// Under the Xcode policy the Apple chain reaches Apple Root CA (embedded in the receipt),
    /// which is self-signed but not this policy's anchor; the refusal says it is App Store data.
    @Test(arguments: apple)
    func appleReceiptFailsUnderXcodePolicy(_ name: String) throws {
        #expect(Self.appleRoot.fingerprint.description == TrustAnchor.appleRootCAFingerprint)
        let rule = VerificationError.notTrusted(certificate: Self.appleRoot)
        #expect(throws: VerificationError.untrustedOrigin(.appStore, policy: "xcode", rule: rule)) {
            _ = try SignedDataVerifier(policy: .xcodeTesting).verify(Self.signedData(name), at: Self.creationDate(name))
        }
    }

    /// Trust comes from the caller's anchors, never from the root a receipt carries. (A policy
    /// with anchors of its own is not told the data is "from the other world".)
    @Test(arguments: apple)
    func appleReceiptFailsWithoutAnchors(_ name: String) throws {
        #expect(throws: VerificationError.notTrusted(certificate: Self.appleRoot)) {
            _ = try SignedDataVerifier(policy: .appStore(anchors: [])).verify(Self.signedData(name), at: Self.creationDate(name))
        }
    }

    // MARK: Time

    /// Every Apple signing certificate here expired before 2031; the leaf is checked first.
    @Test(arguments: apple)
    func appleReceiptFailsIn2031(_ name: String) throws {
        let signedData = try Self.signedData(name)
        let leaf = try Self.signerCertificate(signedData)
        let notAfter = try Self.signerNotAfter(name)
        #expect(leaf.notAfter == notAfter)
        #expect(throws: VerificationError.expired(subject: leaf.subjectName, notAfter: notAfter, at: Self.year2031)) {
            _ = try SignedDataVerifier(policy: .appStore).verify(signedData, at: Self.year2031)
        }
    }

    /// Validity is inclusive at both ends (RFC 5280 §4.1.2.5): the receipt verifies at the
    /// signer's notAfter second and fails one second later.
    @Test func productionValidityBoundaryIsInclusive() throws {
        let signedData = try Self.signedData("production")
        let notAfter = try Self.signerNotAfter("production")
        #expect(notAfter == utc(2024, 10, 1, 19, 13, 56))
        _ = try SignedDataVerifier(policy: .appStore).verify(signedData, at: notAfter)
        let leaf = try Self.signerCertificate(signedData)
        #expect(throws: VerificationError.expired(subject: leaf.subjectName, notAfter: notAfter, at: notAfter + 1)) {
            _ = try SignedDataVerifier(policy: .appStore).verify(signedData, at: notAfter + 1)
        }
        // Before the production leaf's notBefore (2022-09-02T19:13:57Z).
        let early = utc(2022, 9, 2, 19, 13, 56)
        #expect(throws: VerificationError.notYetValid(subject: leaf.subjectName, notBefore: early + 1, at: early)) {
            _ = try SignedDataVerifier(policy: .appStore).verify(signedData, at: early)
        }
    }

    /// Deviation from "fail at 2031": the StoreKit testing certificate is valid until
    /// 2040-03-27, so the Xcode receipts still verify in 2031. They fail the day after it
    /// expires and the day before it became valid.
    @Test(arguments: xcode)
    func xcodeReceiptFailsOutsideStoreKitValidity(_ name: String) throws {
        let signedData = try Self.signedData(name)
        let verifier = SignedDataVerifier(policy: .xcodeTesting)
        _ = try verifier.verify(signedData, at: Self.year2031)
        let notBefore = utc(2020, 4, 1, 17, 52, 35), notAfter = utc(2040, 3, 27, 17, 52, 35)
        #expect(throws: VerificationError.expired(subject: Self.storeKitSubject, notAfter: notAfter, at: Self.afterStoreKitExpiry)) {
            _ = try verifier.verify(signedData, at: Self.afterStoreKitExpiry)
        }
        #expect(throws: VerificationError.notYetValid(subject: Self.storeKitSubject, notBefore: notBefore, at: Self.beforeStoreKitValidity)) {
            _ = try verifier.verify(signedData, at: Self.beforeStoreKitValidity)
        }
    }

    // MARK: Anchors

    @Test func embeddedAppleRootIsPinned() throws {
        let anchor = try #require(TrustAnchor.appleRootCA)
        let pin = "B0B1730ECBC7FF4505142C49F1295E6EDA6BCAED7E2C68C5BE91B5A11001F024"
        #expect(TrustAnchor.appleRootCAFingerprint == pin.lowercased())
        #expect(anchor.fingerprint.description == pin.lowercased())
        #expect(Array(anchor.certificate.encoded) == (try Fixtures.bytes("certs/AppleIncRootCertificate.cer")))
        #expect(anchor.certificate.subjectDescription == "C=US,O=Apple Inc.,OU=Apple Certification Authority,CN=Apple Root CA")
        #expect(TrustPolicy.appStore.anchors.map(\.fingerprint) == [anchor.fingerprint])
        #expect(TrustPolicy.appStore.requiredIntermediateCount == 1)
        #expect(TrustPolicy.appStore.leafRequiredPolicies == [OIDs.appleReceiptSigningPolicy])
        #expect(TrustPolicy.appStore.leafRequiredPolicies == [ASN1ObjectIdentifier("1.2.840.113635.100.5.6.1")])
        #expect(TrustPolicy.appStore.leafRequiredExtensions == [ASN1ObjectIdentifier("1.2.840.113635.100.6.11.1")])
        #expect(TrustPolicy.appStore.intermediateRequiredExtensions == [ASN1ObjectIdentifier("1.2.840.113635.100.6.2.1")])
    }

    @Test func embeddedStoreKitCertificateIsPinned() throws {
        let anchor = try #require(TrustAnchor.storeKitTesting)
        let pin = "FF0BA36E721D2DB741D2AA11E6112EF78BF7131B46C7F035B00891D045C864FE"
        #expect(TrustAnchor.storeKitTestingFingerprint == pin.lowercased())
        #expect(anchor.fingerprint.description == pin.lowercased())
        #expect(Array(anchor.certificate.encoded) == (try Fixtures.bytes("certs/StoreKitTestCertificate.cer")))
        #expect(TrustPolicy.xcodeTesting.anchors.map(\.fingerprint) == [anchor.fingerprint])
        #expect(TrustPolicy.xcodeTesting.requiredIntermediateCount == 0)
        #expect(anchor.certificate.extensions.unhandledCritical == [OIDs.extendedKeyUsage])
        #expect(anchor.certificate.extensions.extendedKeyUsage == [OIDs.codeSigning])
    }

    /// The real chains: 100.5.6.1 and 100.6.11.1 on the leaf, 100.6.2.1 on the intermediate.
    @Test(arguments: apple)
    func appleChainsCarryTheAppleMarkers(_ name: String) throws {
        let chain = try SignedDataVerifier(policy: .appStore).verify(Self.signedData(name), at: Self.creationDate(name)).chain
        #expect(chain[0].extensions.policies?.contains(OIDs.appleReceiptSigningPolicy) == true)
        #expect(chain[0].extensions.contains(OIDs.appleReceiptSigningExtension))
        #expect(chain[1].extensions.contains(OIDs.appleWWDRIntermediateExtension))
        #expect(chain[1].extensions.policies?.contains(OIDs.appleReceiptSigningPolicy) != true)
    }

    // MARK: Encodings

    @Test func fixtureEnvelopesDecodeAsDescribed() throws {
        let production = try Self.signedData("production")
        #expect(production.contentRange != nil)
        #expect(production.contentCount == 2306)
        #expect(production.certificateRanges.count == 3)
        #expect(production.signerInfos[0].signatureAlgorithm == .rsaEncryption)
        #expect(production.signerInfos[0].digestAlgorithm == .sha256)
        let legacy = try Self.signedData("sandbox-legacy")
        #expect(legacy.signerInfos[0].digestAlgorithm == .sha1)
        #expect(legacy.contentCount == 74884)
        let xcode = try Self.signedData("xcode-with-purchases")
        #expect(xcode.signerInfos[0].signatureAlgorithm == .rsaWithHash(.sha256))
        #expect(xcode.contentCount == 374)
        #expect(xcode.certificateRanges.count == 1)
    }

    /// Trailing garbage after the ContentInfo is a parse error, for DER and BER receipts alike.
    @Test(arguments: Fixtures.receiptNames)
    func trailingBytesAreRejected(_ name: String) throws {
        let bytes = try Fixtures.bytes("receipts/\(name).der")
        let error = #expect(throws: PKCS7Error.self) { try SignedData(berEncoded: bytes + [0x00]) }
        #expect(error?.kind == .encoding(.trailingBytes))
        #expect(error?.offset == bytes.count)
    }
}
