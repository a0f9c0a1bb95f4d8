import DER
import ReceiptTestSupport
import Testing
import TestHelpers
import X509Certificates

/// Recognising data from "the other world" (Xcode's StoreKit testing under an App Store policy,
/// the App Store under an Xcode policy), for receipts and JWS alike, so that a refusal can say so
/// in words. Recognition labels; it never accepts anything.
@Suite(.enabled(if: Fixtures.shouldRun))
struct SignerOriginTests {
    static func receiptChain(_ name: String) throws -> [Certificate] {
        try FixtureCertificates.embedded(in: Fixtures.bytes("receipts/\(name).der")).map { try Certificate(derEncoded: $0) }
    }

    static func jwsChain(_ name: String) throws -> [Certificate] {
        try FixtureCertificates.x5c(Fixtures.bytes("jws/\(name).jws")).map { try Certificate(derEncoded: $0) }
    }

    static func origin(_ chain: [Certificate]) -> SignerOrigin? {
        SignerOrigin.recognize(signer: chain[0], among: chain)
    }

    @Test func anchorsAreRecognisedByTheirBytesAlone() throws {
        let chain = try Self.jwsChain("apple-real-test-notification")
        let policy = TrustPolicy.appStoreSignedData
        #expect(policy.isAnchor(chain[2]))   // Apple Root CA - G3, from the token's own bytes
        #expect(!policy.isAnchor(chain[0]) && !policy.isAnchor(chain[1]))
        // A copy in other memory is the same anchor; one changed byte is none.
        var bytes = Array(chain[2].encoded)
        #expect(policy.isAnchor(try Certificate(derEncoded: bytes)))
        bytes[bytes.count - 1] ^= 1
        if let altered = try? Certificate(derEncoded: bytes) { #expect(!policy.isAnchor(altered)) }
        #expect(!TrustPolicy.xcodeSignedData.isAnchor(chain[2]))
    }

    @Test func xcodeSignersAreRecognised() throws {
        for name in ["xcode", "xcode-with-purchases"] {
            #expect(Self.origin(try Self.receiptChain(name)) == .xcodeTesting, "\(name)")
        }
        for name in ["xcode-signed-transaction", "xcode-signed-renewal-info", "xcode-signed-app-transaction"] {
            #expect(Self.origin(try Self.jwsChain(name)) == .xcodeTesting, "\(name)")
        }
    }

    @Test func appStoreChainsAreRecognised() throws {
        for name in ["production", "sandbox-g5", "sandbox-legacy"] {
            let chain = try Self.receiptChain(name)
            #expect(Self.origin(chain) == .appStore, "\(name)")
            // Without the root copy the intermediate names Apple Root CA as its issuer.
            let withoutRoot = chain.filter { !$0.isSelfIssued }
            #expect(withoutRoot.count == 2)
            #expect(Self.origin(withoutRoot) == .appStore, "\(name) without its root copy")
        }
        #expect(Self.origin(try Self.jwsChain("apple-real-test-notification")) == .appStore)
    }

    /// Chains to other roots have no origin, and neither has a self-made root that copies Apple
    /// Root CA's name byte for byte but is not Apple's certificate.
    @Test func otherChainsHaveNoOrigin() throws {
        #expect(Self.origin(try Self.jwsChain("testca-transaction-info")) == nil)
        let synthetic = try TestChain().certificates.map { try Certificate(derEncoded: $0) }
        #expect(Self.origin(synthetic) == nil)

        let appleSubject = Array(try #require(TrustAnchor.appleRootCA).certificate.subject)
        let chain = TestChain()
        let fakeRoot = chain.root.assembled(issuerName: appleSubject, issuerKey: chain.root.key) { $0[TBSField.subject] = appleSubject }
        let intermediate = chain.intermediate.signed(issuerName: appleSubject, issuerKey: chain.root.key)
        let forged = try [chain.leaf.signed(by: chain.intermediate), intermediate, fakeRoot].map { try Certificate(derEncoded: $0) }
        #expect(Self.origin(forged) == nil)
    }

    /// A chain cannot send the recognition round in circles: it stops after a path's length.
    @Test func issuerLoopsEnd() throws {
        var a = TestCertificate(commonName: "A", key: TestKeys.rsa2048[0])
        let b = TestCertificate(commonName: "B", key: TestKeys.rsa2048[1])
        a.serialNumber = [0x0A]
        let ab = try Certificate(derEncoded: a.signed(by: b))
        let ba = try Certificate(derEncoded: b.signed(by: a))
        #expect(SignerOrigin.recognize(signer: ab, among: [ab, ba]) == nil)
    }

    // MARK: explainingRefusal

    static let rule = VerificationError.signatureInvalid(subject: TrustAnchor.appleRootCA!.certificate.subjectName)

    @Test func refusalsFromTheOtherWorldAreExplained() throws {
        let xcodeReceipt = try Self.receiptChain("xcode")
        let production = try Self.receiptChain("production")
        let xcodeJWS = try Self.jwsChain("xcode-signed-transaction")
        let appleJWS = try Self.jwsChain("apple-real-test-notification")
        let cases: [(TrustPolicy, [Certificate], SignerOrigin)] = [
            (.appStore, xcodeReceipt, .xcodeTesting), (.xcodeTesting, production, .appStore),
            (.appStoreSignedData, xcodeJWS, .xcodeTesting), (.xcodeSignedData, appleJWS, .appStore),
        ]
        for (policy, chain, origin) in cases {
            let explained = policy.explainingRefusal(Self.rule, signer: chain[0], certificates: chain)
            #expect(explained == .untrustedOrigin(origin, policy: policy.name, rule: Self.rule), "\(policy.name) \(origin)")
        }
        #expect(
            VerificationError.untrustedOrigin(.xcodeTesting, policy: "appstore", rule: Self.rule).description
                == "signed by Xcode's StoreKit Testing certificate, which the App Store policy does not trust")
        #expect(
            VerificationError.untrustedOrigin(.appStore, policy: "xcode", rule: Self.rule).description
                == "signed by the App Store (its chain ends at Apple's root certificate), which the Xcode testing policy does not trust")
    }

    /// Refusals within a policy's own world keep their precise error (an App Store receipt under
    /// App Store rules with `--root` anchors: its refusal is about those anchors), and so do
    /// custom policies, which belong to no world.
    @Test func otherRefusalsAreLeftAlone() throws {
        let production = try Self.receiptChain("production")
        let xcodeReceipt = try Self.receiptChain("xcode")
        let own = TrustPolicy.appStore(anchors: [try TrustAnchor(derEncoded: TestChain().rootCertificate)])
        let cases: [(TrustPolicy, [Certificate])] = [
            (.appStore, production), (.xcodeTesting, xcodeReceipt), (own, production),
            (.appStore(anchors: []), production), (.custom(anchors: []), xcodeReceipt), (.custom(anchors: []), production),
        ]
        for (policy, chain) in cases {
            #expect(policy.explainingRefusal(Self.rule, signer: chain[0], certificates: chain) == Self.rule, "\(policy.name)")
        }
        #expect(TrustPolicy.appStore.explainingRefusal(Self.rule, signer: nil, certificates: xcodeReceipt) == Self.rule)
        // App Store rules with `--root` anchors are still the App Store's world: Xcode data is
        // explained as Xcode's.
        #expect(own.world == .appStore && TrustPolicy.custom(anchors: []).world == nil)
        #expect(
            own.explainingRefusal(Self.rule, signer: xcodeReceipt[0], certificates: xcodeReceipt)
                == .untrustedOrigin(.xcodeTesting, policy: "appstore", rule: Self.rule))
        #expect(TrustPolicy.appStore.trusts(.appStore) && !TrustPolicy.appStore.trusts(.xcodeTesting))
        #expect(TrustPolicy.xcodeSignedData.trusts(.xcodeTesting) && TrustPolicy.appStoreSignedData.trusts(.appStore))
    }
}
