import AppStoreJWS
import CryptoPrimitives
import ReceiptTestSupport
import Testing
import X509Certificates

/// The App Store signed-data policy's key rules on `x5c` (issue "Hostile clients"): P-256 and
/// P-384 only, checked on every certificate before the ES256 signature or any link is.
@Suite struct JWSKeyRuleTests {
    typealias T = SyntheticTokenTests
    static let intermediateName = "C=US,O=Receipt Toolkit Tests,CN=Receipt Toolkit Test WWDR G6"

    /// An RSA intermediate (here a big, slow one) never reaches a signature check.
    @Test func rsaKeyInX5CIsRefusedBeforeAnySignature() throws {
        var chain = TestJWSChain()
        chain.intermediate.key = UnusableRSAKey(bits: 8192)
        let x5c = [T.chain.leaf.signed(by: T.chain.intermediate), chain.intermediate.signed(by: chain.root), T.chain.rootCertificate]
        let error = T.error(T.token(x5c: x5c))
        #expect(chain.intermediate.subjectDescription == Self.intermediateName)
        #expect(error == .untrusted(.keyTypeNotAllowed(subject: chain.intermediate.certificateName)))
    }

    /// A custom policy keeps the general key rules: the same RSA key is tried (and its link fails).
    @Test func customPolicyKeepsTheGeneralRules() throws {
        var chain = TestJWSChain()
        chain.intermediate.key = TestKeys.rsa2048[0]
        let x5c = chain.certificates
        let custom = TrustPolicy.custom(anchors: [try TrustAnchor(derEncoded: chain.rootCertificate)], requiredIntermediateCount: 1)
        let token = chain.token(payload: T.transaction, x5c: x5c)
        #expect(try JWSVerifier(policy: custom).verify(token).chain.count == 3)
        let appStore = TrustPolicy.appStoreSignedData(anchors: [try TrustAnchor(derEncoded: chain.rootCertificate)])
        #expect(chain.intermediate.subjectDescription == Self.intermediateName)
        #expect(T.error(token, policy: appStore) == .untrusted(.keyTypeNotAllowed(subject: chain.intermediate.certificateName)))
    }

    /// Links enter the cache only once the token's whole path reached the anchor.
    @Test func refusedTokensLeaveTheLinkCacheEmpty() throws {
        let cache = VerifiedLinkCache()
        let impostor = TestJWSChain(rootName: "Impostor Root - G3")
        let verifier = JWSVerifier(policy: T.policy, linkStore: cache)
        #expect(throws: JWSError.self) { _ = try verifier.verify(impostor.token(payload: T.transaction)) }
        #expect(cache.count == 0)
        _ = try verifier.verify(T.token())
        #expect(cache.count == 2)
    }
}
