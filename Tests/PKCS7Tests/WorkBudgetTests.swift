import CryptoPrimitives
import DER
import PKCS7
import ReceiptTestSupport
import Testing
import X509Certificates

/// The per-message work budget and the App Store policy's shape rules (issue "Hostile clients"):
/// each hostile shape is refused with its own error, before any public-key operation where the
/// policy's genuine chains tell it cannot lead to the anchor, and every operation a message does
/// cost, signer and chain together, comes out of one `VerificationBudget`.
@Suite struct WorkBudgetTests {
    typealias S = Synthetic

    static func signedData(_ bytes: [UInt8]) throws -> SignedData { try SignedData(berEncoded: bytes) }

    /// The test chain with one certificate's key replaced, signed down again.
    static func chain(
        rootKey: (any TestCertificateKey)? = nil, intermediateKey: (any TestCertificateKey)? = nil,
        leafKey: (any TestCertificateKey)? = nil
    ) -> TestChain {
        var chain = TestChain()
        if let rootKey { chain.root.key = rootKey }
        if let intermediateKey { chain.intermediate.key = intermediateKey }
        if let leafKey { chain.leaf.key = leafKey }
        return chain
    }

    @Test func budgetAllowsEightOperations() throws {
        var budget = VerificationBudget()
        for _ in 0 ..< VerificationBudget.maxPublicKeyOperations { try budget.spend() }
        #expect(budget.spent == 8)
        #expect(throws: VerificationError.budgetExceeded) { try budget.spend() }
        #expect(budget.spent == 8)
    }

    /// A genuine App Store-shaped receipt costs three operations, one with a warm link cache.
    @Test func genuineReceiptCostsThreeOperations() throws {
        #expect(try S.verify(S.receipt()).publicKeyOperations == 3)
        let cache = VerifiedLinkCache()
        #expect(try S.verify(S.receipt(), linkStore: cache).publicKeyOperations == 3)
        #expect(try S.verify(S.receipt(), linkStore: cache).publicKeyOperations == 1)
    }

    /// The first measured shape: junk RSA-8192 certificates with exponent 2^64 − 1 under four
    /// SignerInfos. The App Store policy refuses the SignerInfos, then the keys, before any work.
    @Test func junkCertificatesUnderSeveralSignerInfosAreRefusedFirst() throws {
        let four = try Self.signedData(HostileReceipts.junkCertificates(count: 12, bits: 8192, signerInfos: 4))
        #expect(throws: VerificationError.multipleSignerInfos(count: 4)) { _ = try SignedDataVerifier(policy: S.policy).verify(four, at: S.time) }
        let one = try Self.signedData(HostileReceipts.junkCertificates(count: 12, bits: 8192, signerInfos: 1))
        #expect(throws: VerificationError.rsaKeySizeNotAllowed(subject: name(S.chain.intermediate), bits: 8192)) {
            _ = try SignedDataVerifier(policy: S.policy).verify(one, at: S.time)
        }
    }

    /// RSA keys of sizes Apple's chains do not use, at each position of the chain.
    @Test(arguments: [1024, 8192])
    func rsaKeySizesOutsideTheAppStoreRangeAreRefused(bits: Int) throws {
        let key = UnusableRSAKey(bits: bits, exponent: [0x01, 0x00, 0x01])
        var chain = TestChain()
        chain.intermediate.key = key   // carried, never used: the refusal comes first
        let data = TestSignedData(
            content: S.payload, signer: S.chain.leaf, signerIssuerName: chain.intermediate.subjectName,
            certificates: [S.leafDER, chain.intermediate.signed(by: S.chain.root), S.rootDER])
        #expect(throws: VerificationError.rsaKeySizeNotAllowed(subject: name(S.chain.intermediate), bits: bits)) { try S.verify(data) }
        // The same receipt under a custom policy reaches the signature checks (and fails there).
        #expect(throws: VerificationError.signatureInvalid(subject: name(S.chain.leaf))) { try S.verify(data, policy: S.plainPolicy) }
    }

    @Test func rsa2048And4096WithF4AreAllowed() throws {
        let rules = PublicKeyRules.appStoreReceipts
        for key in [TestKeys.rsa2048[0], TestKeys.rsa4096] {
            let certificate = try Certificate(derEncoded: TestCertificate(commonName: "Allowed", key: key).selfSigned())
            try rules.check(certificate)
        }
        let small = try Certificate(derEncoded: TestCertificate(commonName: "Small", key: TestKeys.rsa1024[0]).selfSigned())
        #expect(small.subjectDescription == "C=US,O=Receipt Toolkit Tests,CN=Small")
        #expect(throws: VerificationError.rsaKeySizeNotAllowed(subject: small.subjectName, bits: 1024)) {
            try rules.check(small)
        }
    }

    /// e = 3 is a valid RSA key (and verifies under a custom policy), but no Apple chain uses it.
    @Test func exponentOtherThanF4IsRefused() throws {
        let chain = Self.chain(intermediateKey: TestKeys.rsa2048e3)
        let data = chain.signedData(S.payload)
        #expect(throws: VerificationError.rsaExponentNotAllowed(subject: name(S.chain.intermediate))) {
            _ = try SignedDataVerifier(policy: .appStore(anchors: [try TrustAnchor(derEncoded: chain.rootCertificate)]))
                .verify(try Self.signedData(data.encoded()), at: S.time)
        }
        let custom = TrustPolicy.custom(anchors: [try TrustAnchor(derEncoded: chain.rootCertificate)])
        #expect(try SignedDataVerifier(policy: custom).verify(try Self.signedData(data.encoded()), at: S.time).chain.count == 3)
    }

    /// A certificate whose issuer is nowhere cannot lead to the anchor: refused even beside a
    /// complete genuine chain.
    @Test func certificateWithAbsentIssuerIsRefused() throws {
        var stray = TestCertificate(commonName: "Stray", key: TestKeys.rsa2048[5], serialNumber: [0x51])
        stray.extensions = [.basicConstraints(ca: true)]
        let orphan = stray.signed(
            issuerName: TestCertificate(commonName: "Nowhere CA", key: TestKeys.rsa2048[5]).subjectName,
            issuerKey: TestKeys.rsa2048[5])
        let data = S.receipt(certificates: [S.leafDER, S.intermediateDER, S.rootDER, orphan])
        #expect(describe(stray) == "C=US,O=Receipt Toolkit Tests,CN=Stray")
        #expect(throws: VerificationError.issuerNotPresent(subject: name(stray))) { try S.verify(data) }
        #expect(try S.verify(data, policy: S.plainPolicy).chain.count == 3)
    }

    /// Two different certificates answer to the SignerInfo's issuer and serial number.
    @Test func ambiguousSignerCertificateIsRefused() throws {
        var twin = S.chain.leaf
        twin.key = TestKeys.rsa2048[6]
        let twinDER = twin.signed(by: S.chain.intermediate)
        let data = S.receipt(certificates: [twinDER, S.leafDER, S.intermediateDER, S.rootDER])
        #expect(throws: VerificationError.ambiguousSignerCertificate(count: 2)) { try S.verify(data) }
        // The same certificate twice (or an anchor the message also carries) counts once.
        #expect(try S.verify(S.receipt(certificates: [S.leafDER, S.leafDER, S.intermediateDER, S.rootDER])).chain.count == 3)
        // A custom policy tries both, within the budget.
        #expect(try S.verify(data, policy: S.plainPolicy).chain.count == 3)
    }

    /// One budget for every SignerInfo and candidate: four SignerInfos (the parser's limit), each
    /// naming `twins` certificates with the signer's issuer and serial number but another key, spend
    /// it whatever the policy (a custom one lets several SignerInfos and candidates through).
    @Test func budgetSpansSignerInfosAndCandidates() throws {
        var forger = S.chain.leaf
        forger.key = TestKeys.rsa2048[6]
        func message(twins: Int) throws -> SignedData {
            let certificates = (0 ..< twins).map { index in
                var twin = S.chain.leaf
                twin.key = TestKeys.rsa2048[2 + index]
                return twin.signed(by: S.chain.intermediate)
            }
            let bad = S.receipt(signer: forger, certificates: certificates + [S.intermediateDER, S.rootDER]).encoded()
            return try Self.signedData(HostileReceipts.repeatingSignerInfo(bad, times: PKCS7Limits.maxSignerInfos))
        }
        let verifier = SignedDataVerifier(policy: S.plainPolicy)
        #expect(throws: VerificationError.budgetExceeded) { _ = try verifier.verify(try message(twins: 3), at: S.time) }
        #expect(throws: VerificationError.signatureInvalid(subject: name(S.chain.leaf))) {
            _ = try verifier.verify(try message(twins: 2), at: S.time)   // 4 × 2 = 8 operations
        }
    }

    /// Junk candidates that the path search must try (same name as the intermediate, no genuine
    /// intermediate carried) are bounded by the budget under a custom policy.
    @Test func junkCandidatesUnderACustomPolicyStopAtTheBudget() throws {
        let chain = TestChain()
        let junk = HostileReceipts.junkCertificates(count: 12, bits: 2048, signerInfos: 1, chain: chain)
        let parsed = try Self.signedData(junk)
        // Drop the genuine intermediate: every candidate issuer of the leaf is junk.
        let withoutIntermediate = try SignedData(
            berEncoded: DERParts.editing(junk, at: [1, 0]) { signedData in
                var parts = DERParts.children(signedData)
                let certificates = DERParts.children(parts[3]).filter { $0 != chain.intermediate.signed(by: chain.root) }
                parts[3] = DERParts.wrap(0xA0, certificates)
                return DERParts.wrap(0x30, parts)
            })
        #expect(withoutIntermediate.certificates.count == parsed.certificates.count - 1)
        let custom = TrustPolicy.custom(anchors: [try TrustAnchor(derEncoded: chain.rootCertificate)])
        #expect(throws: VerificationError.budgetExceeded) { _ = try SignedDataVerifier(policy: custom).verify(withoutIntermediate, at: S.time) }
    }

    /// Links verified on a path that never reached an anchor stay out of the shared cache: an
    /// attacker's chain cannot push Apple's links out.
    @Test func onlyLinksOfAnchoredPathsAreRemembered() throws {
        let impostor = TestChain(rootName: "Impostor Root")
        let cache = VerifiedLinkCache()
        let foreign = TestSignedData(
            content: S.payload, signer: impostor.leaf, signerIssuerName: impostor.intermediate.subjectName,
            certificates: impostor.certificates)
        // Under the App Store policy anchored at the synthetic root, the impostor's leaf ←
        // intermediate and intermediate ← root links verify, then the path ends at its own root.
        #expect(throws: VerificationError.notTrusted(certificate: EncodedCertificate(der: ArraySlice(impostor.rootCertificate)))) {
            try S.verify(foreign, linkStore: cache)
        }
        #expect(cache.count == 0)
        try S.verify(S.receipt(), linkStore: cache)
        #expect(cache.count == 2)
    }

    /// The largest keys the App Store rules allow, on a chain that really verifies up to a
    /// self-made root: three operations (signer, two links), then `notTrusted`.
    @Test func selfMadeRSA4096ChainEndsNotTrusted() throws {
        let data = try Self.signedData(HostileReceipts.selfMadeRSA4096Chain())
        let error = #expect(throws: VerificationError.self) { _ = try SignedDataVerifier(policy: .appStore).verify(data, at: S.time) }
        guard case .notTrusted = error else { Issue.record("expected notTrusted, got \(String(describing: error))"); return }
    }
}
