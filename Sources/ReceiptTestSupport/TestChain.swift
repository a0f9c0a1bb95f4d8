import CryptoPrimitives
import DER
import PKCS7
import X509Certificates

/// A synthetic chain shaped like Apple's: root ← intermediate (WWDR marker 6.2.1) ← leaf (policy
/// 5.6.1 and marker 6.11.1), each with its own throwaway key, plus the signing helpers that turn a
/// payload into a receipt. Tests change one certificate and rebuild to break one rule.
public struct TestChain: Sendable {
    public var root: TestCertificate
    public var intermediate: TestCertificate
    public var leaf: TestCertificate

    /// The default chain. `rootName` defaults to a test name; pass "Apple Root CA" to impersonate.
    public init(rootName: String = "Receipt Toolkit Test Root CA") {
        root = TestCertificate(
            commonName: rootName, key: TestKeys.rsa2048[0], serialNumber: [0x02],
            extensions: [
                .basicConstraints(ca: true), .keyUsage([.keyCertSign, .cRLSign]),
            ])
        intermediate = TestCertificate(
            commonName: "Receipt Toolkit Test Intermediate", key: TestKeys.rsa2048[1],
            serialNumber: [0x10, 0x01],
            extensions: [
                .basicConstraints(ca: true, pathLength: 0), .keyUsage([.keyCertSign, .cRLSign]),
                .marker(OIDs.appleWWDRIntermediateExtension),
            ])
        leaf = TestCertificate(
            commonName: "Receipt Toolkit Test Receipt Signing", key: TestKeys.rsa2048[2],
            serialNumber: [0x15, 0xE7, 0x9F],
            extensions: [
                .basicConstraints(ca: false), .keyUsage([.digitalSignature]),
                .policies([OIDs.appleReceiptSigningPolicy]), .marker(OIDs.appleReceiptSigningExtension),
            ])
    }

    /// Apple's root subject exactly (C=US, O=Apple Inc., OU=Apple Certification Authority,
    /// CN=Apple Root CA), as a forger would copy it.
    public static func appleRootImpersonation() -> TestChain {
        var chain = TestChain()
        chain.root.subject = [
            (TestCertificate.Names.country, "US"), (TestCertificate.Names.organization, "Apple Inc."),
            (TestCertificate.Names.organizationalUnit, "Apple Certification Authority"),
            (TestCertificate.Names.commonName, "Apple Root CA"),
        ]
        return chain
    }

    /// The three certificates' DER, leaf, intermediate, root (the App Store's order).
    public var certificates: [[UInt8]] {
        [leaf.signed(by: intermediate), intermediate.signed(by: root), root.selfSigned()]
    }

    /// The root's DER (for use as a trust anchor).
    public var rootCertificate: [UInt8] { root.selfSigned() }

    /// A SignedData over `content`, signed by the leaf, carrying `certificates`.
    public func signedData(
        _ content: [UInt8], certificates: [[UInt8]]? = nil, digest: HashAlgorithm = .sha256,
        signatureAlgorithm: TestSignedData.SignatureAlgorithmChoice = .rsaEncryption,
        signedAttributes: Bool = false, berSegmentSize: Int? = nil
    ) -> TestSignedData {
        TestSignedData(
            content: content, signer: leaf, signerIssuerName: intermediate.subjectName,
            certificates: certificates ?? self.certificates, digest: digest,
            signatureAlgorithm: signatureAlgorithm, signedAttributes: signedAttributes,
            berSegmentSize: berSegmentSize)
    }

    /// A complete receipt signed by this chain.
    public func receipt(_ receipt: TestReceipt, digest: HashAlgorithm = .sha256) -> [UInt8] {
        signedData(receipt.payload(), digest: digest).encoded()
    }
}

/// Synthetic receipts of any size for benchmarks and fuzz seeds.
public enum SyntheticReceipts: Sendable {
    /// A receipt with `count` subscription purchases (weekly renewals), signed by `TestChain()`.
    public static func receipt(inAppCount count: Int, chain: TestChain = TestChain()) -> [UInt8] {
        chain.receipt(payload(inAppCount: count))
    }

    /// The payload description with `count` purchases.
    public static func payload(inAppCount count: Int) -> TestReceipt {
        var receipt = TestReceipt()
        let week: Int64 = 7 * 86_400
        let start: Int64 = 1_600_000_000
        receipt.purchases = (0 ..< count).map { i in
            let purchase = start + Int64(i) * week
            return TestReceipt.Purchase(
                productIdentifier: "com.example.receipts.subscription.weekly",
                transactionIdentifier: String(1_000_000_000_000_000 + i),
                purchaseDate: rfc3339(purchase), originalTransactionIdentifier: "1000000000000000",
                originalPurchaseDate: rfc3339(start), expirationDate: rfc3339(purchase + week), productType: 3,
                webOrderLineItemIdentifier: 2_000_000_000_000_000 + Int64(i), isTrialPeriod: i == 0,
                isInIntroOfferPeriod: false)
        }
        return receipt
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    public static func rfc3339(_ seconds: Int64) -> String { CivilTime.text(secondsSince1970: seconds) }
}
