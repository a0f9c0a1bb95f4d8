import CryptoPrimitives
import DER
import PKCS7
import X509Certificates
import ReceiptTestSupport
import Testing

/// Synthetic chains shaped like Apple's (`TestChain`): the default chain verifies under the App
/// Store rules anchored at its own root, and breaking one rule at a time gives that rule's error.
@Suite struct SyntheticChainTests {
    typealias S = Synthetic

    static let rootName = "C=US,O=Receipt Toolkit Tests,CN=Receipt Toolkit Test Root CA"
    static let intermediateName = "C=US,O=Receipt Toolkit Tests,CN=Receipt Toolkit Test Intermediate"
    static let leafName = "C=US,O=Receipt Toolkit Tests,CN=Receipt Toolkit Test Receipt Signing"
    /// The subjects as errors name them (their DER); `subjectsAreDescribedInEncodedOrder` checks their text.
    static let leafSubject = name(S.chain.leaf)
    static let intermediateSubject = name(S.chain.intermediate)
    static let unknownCritical = ASN1ObjectIdentifier("1.3.6.1.4.1.55555.7.1")

    /// A chain from `certificates[0]` (self-signed) down to the last, each signed by the one before;
    /// DER in the same order.
    static func signDown(_ certificates: [TestCertificate]) -> [[UInt8]] {
        certificates.indices.map { i in
            i == 0 ? certificates[0].selfSigned() : certificates[i].signed(by: certificates[i - 1])
        }
    }

    /// A certificate's DER as `notTrusted` names it.
    static func encoded(_ der: [UInt8]) -> EncodedCertificate { EncodedCertificate(der: ArraySlice(der)) }

    static func without(_ oid: ASN1ObjectIdentifier, in certificate: TestCertificate) -> TestCertificate {
        var copy = certificate
        copy.extensions.removeAll { $0.oid == oid }
        return copy
    }

    /// A leaf (same key and serial as the default one) with changed extensions, signed by the
    /// default intermediate, and a receipt carrying it in place of the default leaf.
    static func receipt(withLeaf leaf: TestCertificate) -> TestSignedData {
        S.receipt(signer: leaf, certificates: [leaf.signed(by: S.chain.intermediate), S.intermediateDER, S.rootDER])
    }

    /// A receipt whose intermediate (same key and name) is replaced.
    static func receipt(withIntermediate intermediate: TestCertificate) -> TestSignedData {
        S.receipt(certificates: [S.leafDER, intermediate.signed(by: S.chain.root), S.rootDER])
    }

    // MARK: The default chain

    @Test func defaultChainVerifiesUnderAppStoreRules() throws {
        let result = try SignedDataVerifier(policy: S.policy).verify(S.receipt, at: S.time)
        #expect(result.signerIndex == 0)
        #expect(result.chain.map { Array($0.encoded) } == [S.leafDER, S.intermediateDER, S.rootDER])
        #expect(result.chain.map(\.subjectDescription) == [Self.leafName, Self.intermediateName, Self.rootName])
    }

    /// The shapes receipts come in: signed attributes or not, each digest, rsaEncryption or
    /// shaNWithRSAEncryption, DER or BER with a segmented eContent.
    enum Shape: String, CaseIterable, Sendable {
        case plain, signedAttributes, sha1, sha384, sha512, namedHash, ber, berWithAttributes
    }

    @Test(arguments: Shape.allCases)
    func receiptShapesVerify(_ shape: Shape) throws {
        let data: TestSignedData
        switch shape {
        case .plain: data = S.receipt()
        case .signedAttributes: data = S.receipt(signedAttributes: true)
        case .sha1: data = S.receipt(digest: .sha1)
        case .sha384: data = S.receipt(digest: .sha384, signatureAlgorithm: .rsaWithHash(.sha384))
        case .sha512: data = S.receipt(digest: .sha512, signedAttributes: true)
        case .namedHash: data = S.receipt(signatureAlgorithm: .rsaWithHash(.sha256))
        case .ber: data = S.receipt(berSegmentSize: 100)
        case .berWithAttributes: data = S.receipt(signedAttributes: true, berSegmentSize: 7)
        }
        let signedData = try SignedData(berEncoded: data.encoded())
        #expect(signedData.contentBytes() == S.payload)
        let result = try SignedDataVerifier(policy: S.policy).verify(signedData, at: S.time)
        #expect(result.chain.count == 3)
    }

    @Test func subjectsAreDescribedInEncodedOrder() {
        #expect(describe(S.chain.root) == Self.rootName)
        #expect(describe(S.chain.intermediate) == Self.intermediateName)
        #expect(describe(S.chain.leaf) == Self.leafName)
        #expect(Self.leafSubject.description == Self.leafName && Self.intermediateSubject.description == Self.intermediateName)
    }

    // MARK: Trust

    /// `TestChain.appleRootImpersonation()`: Apple's root subject as text, the forger's key.
    @Test func selfMadeAppleRootIsNotTrusted() throws {
        let chain = TestChain.appleRootImpersonation()
        let certificates = chain.certificates
        let data = chain.signedData(S.payload, certificates: certificates)
        #expect(throws: VerificationError.notTrusted(certificate: Self.encoded(certificates[2]))) {
            _ = try S.verify(data, policy: .appStore)
        }
        // The same chain is fine once the caller chooses to trust the forger's root.
        let own = TrustPolicy.appStore(anchors: [try TrustAnchor(derEncoded: certificates[2])])
        #expect(try S.verify(data, policy: own).chain.count == 3)
    }

    /// A forged root whose subject is byte for byte Apple Root CA's (PrintableStrings, as Apple
    /// encodes it): the real anchor now matches by name and its key is tried on the forged
    /// certificates, but the path still ends at the forger's self-signed root.
    @Test func byteExactAppleRootImpersonationIsNotTrusted() throws {
        let appleSubject = Array(try #require(TrustAnchor.appleRootCA).certificate.subject)
        let root = S.chain.root
        let fakeRoot = root.assembled(issuerName: appleSubject, issuerKey: root.key) { $0[TBSField.subject] = appleSubject }
        let intermediate = S.chain.intermediate.signed(issuerName: appleSubject, issuerKey: root.key)
        #expect(Array(try Certificate(derEncoded: fakeRoot).subject) == appleSubject)
        let data = S.receipt(certificates: [S.leafDER, intermediate, fakeRoot])
        #expect(throws: VerificationError.notTrusted(certificate: Self.encoded(fakeRoot))) {
            _ = try S.verify(data, policy: .appStore)
        }

        // Whatever the error, it must not verify.
        #expect(throws: VerificationError.self) { _ = try S.verify(data, policy: .appStore) }
    }

    /// The signer's certificate signed by another key than the one the receipt is signed with.
    @Test func receiptSignedWithAnotherKeyFails() throws {
        var forger = S.chain.leaf
        forger.key = TestKeys.rsa2048[5]
        #expect(throws: VerificationError.signatureInvalid(subject: Self.leafSubject)) {
            _ = try S.verify(S.receipt(signer: forger))
        }
    }

    // MARK: Apple's markers

    @Test func leafWithoutReceiptSigningExtensionFails() throws {
        let data = Self.receipt(withLeaf: Self.without(OIDs.appleReceiptSigningExtension, in: S.chain.leaf))
        #expect(throws: VerificationError.missingAppleExtension(subject: Self.leafSubject, oid: ASN1ObjectIdentifier("1.2.840.113635.100.6.11.1"))) {
            _ = try S.verify(data)
        }
        // Only the App Store rules require it.
        #expect(try S.verify(data, policy: S.plainPolicy).chain.count == 3)
    }

    @Test func intermediateWithoutWWDRExtensionFails() throws {
        let data = Self.receipt(withIntermediate: Self.without(OIDs.appleWWDRIntermediateExtension, in: S.chain.intermediate))
        #expect(
            throws: VerificationError.missingAppleExtension(subject: Self.intermediateSubject, oid: ASN1ObjectIdentifier("1.2.840.113635.100.6.2.1"))
        ) {
            _ = try S.verify(data)
        }
    }

    @Test func leafWithoutReceiptSigningPolicyFails() throws {
        let data = Self.receipt(withLeaf: Self.without(OIDs.certificatePolicies, in: S.chain.leaf))
        #expect(
            throws: VerificationError.missingCertificatePolicy(subject: Self.leafSubject, oid: ASN1ObjectIdentifier("1.2.840.113635.100.5.6.1"))
        ) {
            _ = try S.verify(data)
        }
    }

    /// A certificatePolicies extension that lists other policies only.
    @Test func leafWithOtherPoliciesFails() throws {
        var leaf = Self.without(OIDs.certificatePolicies, in: S.chain.leaf)
        leaf.extensions.append(.policies([ASN1ObjectIdentifier("2.5.29.32.0"), ASN1ObjectIdentifier("1.2.840.113635.100.5.1")]))
        #expect(throws: VerificationError.missingCertificatePolicy(subject: Self.leafSubject, oid: OIDs.appleReceiptSigningPolicy)) {
            _ = try S.verify(Self.receipt(withLeaf: leaf))
        }
    }

    /// Apple's old sample code puts 100.5.6.1 on the intermediate; every real chain has it on
    /// the leaf, and the policy requires it there.
    @Test func receiptSigningPolicyOnIntermediateInsteadOfLeafFails() throws {
        let leaf = Self.without(OIDs.certificatePolicies, in: S.chain.leaf)
        var intermediate = S.chain.intermediate
        intermediate.extensions.append(.policies([OIDs.appleReceiptSigningPolicy]))
        let data = S.receipt(signer: leaf, certificates: [leaf.signed(by: intermediate), intermediate.signed(by: S.chain.root), S.rootDER])
        #expect(throws: VerificationError.missingCertificatePolicy(subject: Self.leafSubject, oid: OIDs.appleReceiptSigningPolicy)) {
            _ = try S.verify(data)
        }
    }

    // MARK: CA rules

    @Test(arguments: [false, true])
    func intermediateThatIsNotACAFails(_ omitBasicConstraints: Bool) throws {
        var intermediate = Self.without(OIDs.basicConstraints, in: S.chain.intermediate)
        if !omitBasicConstraints { intermediate.extensions.insert(.basicConstraints(ca: false), at: 0) }
        #expect(throws: VerificationError.notCA(subject: Self.intermediateSubject)) {
            _ = try S.verify(Self.receipt(withIntermediate: intermediate))
        }
    }

    @Test func intermediateWithoutKeyCertSignFails() throws {
        var intermediate = Self.without(OIDs.keyUsage, in: S.chain.intermediate)
        intermediate.extensions.append(.keyUsage([.digitalSignature, .cRLSign]))
        #expect(throws: VerificationError.missingKeyUsage(subject: Self.intermediateSubject, required: .keyCertSign)) {
            _ = try S.verify(Self.receipt(withIntermediate: intermediate))
        }
    }

    /// keyUsage is optional; when absent the issuer needs only cA.
    @Test func intermediateWithoutKeyUsageVerifies() throws {
        let intermediate = Self.without(OIDs.keyUsage, in: S.chain.intermediate)
        #expect(try S.verify(Self.receipt(withIntermediate: intermediate)).chain.count == 3)
    }

    @Test func leafWithoutDigitalSignatureFails() throws {
        var leaf = Self.without(OIDs.keyUsage, in: S.chain.leaf)
        leaf.extensions.append(.keyUsage([.keyEncipherment, .dataEncipherment]))
        #expect(throws: VerificationError.missingKeyUsage(subject: Self.leafSubject, required: .digitalSignature)) {
            _ = try S.verify(Self.receipt(withLeaf: leaf))
        }
    }

    @Test func leafWithoutKeyUsageVerifies() throws {
        let leaf = Self.without(OIDs.keyUsage, in: S.chain.leaf)
        #expect(try S.verify(Self.receipt(withLeaf: leaf)).chain.count == 3)
    }

    /// root ← one ← two ← leaf, with the given pathLenConstraints on root and "one".
    static func twoIntermediates(
        rootPathLength: Int?, firstPathLength: Int?
    ) -> (data: TestSignedData, anchor: TrustAnchor, names: [CertificateName]) {
        var root = S.chain.root
        root.extensions = [.basicConstraints(ca: true, pathLength: rootPathLength), .keyUsage([.keyCertSign, .cRLSign])]
        let one = TestCertificate(
            commonName: "Intermediate One", key: TestKeys.rsa2048[3], serialNumber: [0x21],
            extensions: [
                .basicConstraints(ca: true, pathLength: firstPathLength), .keyUsage([.keyCertSign]), .marker(OIDs.appleWWDRIntermediateExtension),
            ])
        let two = TestCertificate(
            commonName: "Intermediate Two", key: TestKeys.rsa2048[4], serialNumber: [0x22],
            extensions: [
                .basicConstraints(ca: true), .keyUsage([.keyCertSign]), .marker(OIDs.appleWWDRIntermediateExtension),
            ])
        let der = signDown([root, one, two, S.chain.leaf])
        let data = S.receipt(issuerName: two.subjectName, certificates: der.reversed())
        return (data, try! TrustAnchor(derEncoded: der[0]), [root, one, two].map(name))
    }

    /// RFC 5280 §4.2.1.9: the root's pathLenConstraint 0 allows no intermediate below it. The
    /// issue asks for this to fail; the design lets anchors' constraints go unchecked (see report).
    @Test func rootPathLengthZeroWithTwoIntermediatesFails() throws {
        let (data, anchor, names) = Self.twoIntermediates(rootPathLength: 0, firstPathLength: nil)
        #expect(throws: VerificationError.pathLengthConstraintExceeded(subject: names[0])) {
            _ = try S.verify(data, policy: .custom(anchors: [anchor]))
        }

    }

    @Test func intermediatePathLengthZeroWithAnotherIntermediateBelowFails() throws {
        let (data, anchor, names) = Self.twoIntermediates(rootPathLength: nil, firstPathLength: 0)
        #expect(throws: VerificationError.pathLengthConstraintExceeded(subject: names[1])) {
            _ = try S.verify(data, policy: .custom(anchors: [anchor]))
        }
    }

    @Test func pathLengthOneWithOneIntermediateBelowVerifies() throws {
        let (data, anchor, _) = Self.twoIntermediates(rootPathLength: 2, firstPathLength: 1)
        #expect(try S.verify(data, policy: .custom(anchors: [anchor])).chain.count == 4)
    }

    /// Two intermediates where the App Store wants exactly one; fine under a custom policy.
    @Test func twoIntermediatesUnderAppStoreFail() throws {
        let (data, anchor, _) = Self.twoIntermediates(rootPathLength: nil, firstPathLength: nil)
        #expect(throws: VerificationError.unexpectedChainLength(expectedIntermediates: 1, found: 2)) {
            _ = try S.verify(data, policy: .appStore(anchors: [anchor]))
        }
        #expect(try S.verify(data, policy: .custom(anchors: [anchor])).chain.count == 4)
        #expect(throws: VerificationError.unexpectedChainLength(expectedIntermediates: 3, found: 2)) {
            _ = try S.verify(data, policy: .custom(anchors: [anchor], requiredIntermediateCount: 3))
        }
    }

    /// A leaf the root signs directly: no intermediate.
    @Test func leafSignedByRootUnderAppStoreFails() throws {
        let leaf = S.chain.leaf.signed(by: S.chain.root)
        let data = S.receipt(issuerName: S.chain.root.subjectName, certificates: [leaf, S.rootDER])
        #expect(throws: VerificationError.unexpectedChainLength(expectedIntermediates: 1, found: 0)) {
            _ = try S.verify(data)
        }
        #expect(try S.verify(data, policy: S.plainPolicy).chain.count == 2)
    }

    // MARK: Validity

    enum Bound: String, CaseIterable, Sendable { case expired, notYetValid }
    enum Position: String, CaseIterable, Sendable { case leaf, intermediate, root }

    /// One certificate of the chain outside its validity at the validation time.
    @Test(arguments: Position.allCases, Bound.allCases)
    func linkOutsideValidityFails(_ position: Position, _ bound: Bound) throws {
        let early = utc(2023, 1, 1), late = utc(2025, 1, 1)
        func adjusted(_ certificate: TestCertificate) -> TestCertificate {
            var copy = certificate
            if bound == .expired { copy.notAfter = early } else { copy.notBefore = late }
            return copy
        }
        let data: TestSignedData
        var policy = S.policy
        let subject: CertificateName, certificate: TestCertificate
        switch position {
        case .leaf:
            certificate = adjusted(S.chain.leaf)
            data = Self.receipt(withLeaf: certificate)
            subject = name(certificate)
        case .intermediate:
            certificate = adjusted(S.chain.intermediate)
            data = Self.receipt(withIntermediate: certificate)
            subject = name(certificate)
        case .root:
            // The anchor's own validity is checked too; the intermediate's signature is unchanged.
            certificate = adjusted(S.chain.root)
            let rootDER = certificate.selfSigned()
            policy = .appStore(anchors: [try TrustAnchor(derEncoded: rootDER)])
            data = S.receipt(certificates: [S.leafDER, S.intermediateDER, rootDER])
            subject = name(certificate)
        }
        let expected: VerificationError =
            bound == .expired
            ? .expired(subject: subject, notAfter: early, at: S.time)
            : .notYetValid(subject: subject, notBefore: late, at: S.time)
        #expect(throws: expected) { _ = try S.verify(data, policy: policy) }
        // Inside the shortened validity it verifies.
        #expect(try S.verify(data, policy: policy, at: bound == .expired ? early : late).chain.count == 3)
    }

    // MARK: Critical extensions

    @Test func unknownCriticalExtensionOnLeafFails() throws {
        var leaf = S.chain.leaf
        leaf.extensions.append(.marker(Self.unknownCritical, critical: true))
        let data = Self.receipt(withLeaf: leaf)
        #expect(throws: VerificationError.unhandledCriticalExtension(subject: Self.leafSubject, oid: Self.unknownCritical)) {
            _ = try S.verify(data)
        }
        // A policy that claims it takes responsibility, and its check decides.
        var claiming = S.policy
        claiming.claimedCriticalExtensions = [.init(oid: Self.unknownCritical) { $0.subjectDescription == Self.leafName }]
        #expect(try S.verify(data, policy: claiming).chain.count == 3)
        var refusing = S.policy
        refusing.claimedCriticalExtensions = [.init(oid: Self.unknownCritical) { _ in false }]
        #expect(throws: VerificationError.extensionNotAccepted(subject: Self.leafSubject, oid: Self.unknownCritical)) {
            _ = try S.verify(data, policy: refusing)
        }
        // Claiming another identifier does not help.
        var other = S.policy
        other.claimedCriticalExtensions = [.init(oid: ASN1ObjectIdentifier("1.3.6.1.4.1.55555.7.2")) { _ in true }]
        #expect(throws: VerificationError.unhandledCriticalExtension(subject: Self.leafSubject, oid: Self.unknownCritical)) {
            _ = try S.verify(data, policy: other)
        }
    }

    @Test func unknownNonCriticalExtensionIsIgnored() throws {
        var leaf = S.chain.leaf
        leaf.extensions.append(.marker(Self.unknownCritical, critical: false))
        #expect(try S.verify(Self.receipt(withLeaf: leaf)).chain.count == 3)
    }

    @Test func unknownCriticalExtensionOnIntermediateFails() throws {
        var intermediate = S.chain.intermediate
        intermediate.extensions.append(.marker(Self.unknownCritical, critical: true))
        #expect(throws: VerificationError.unhandledCriticalExtension(subject: Self.intermediateSubject, oid: Self.unknownCritical)) {
            _ = try S.verify(Self.receipt(withIntermediate: intermediate))
        }
    }

    // MARK: Signer info

    @Test func digestDifferentFromSignatureAlgorithmHashFails() throws {
        #expect(throws: VerificationError.digestAlgorithmMismatch) {
            _ = try S.verify(S.receipt(digest: .sha256, signatureAlgorithm: .rsaWithHash(.sha1)))
        }
        #expect(throws: VerificationError.digestAlgorithmMismatch) {
            _ = try S.verify(S.receipt(digest: .sha1, signatureAlgorithm: .rsaWithHash(.sha256), signedAttributes: true))
        }
    }

    @Test func wrongMessageDigestAttributeFails() throws {
        var data = S.receipt(signedAttributes: true)
        data.messageDigestOverride = SHA256.hash(S.payload + [0]).bytes
        #expect(throws: VerificationError.messageDigestMismatch) { _ = try S.verify(data) }
        data.messageDigestOverride = Array(SHA256.hash(S.payload).bytes.prefix(20))
        #expect(throws: VerificationError.messageDigestMismatch) { _ = try S.verify(data) }
    }

    /// Two SignerInfos: one that verifies suffices (under a custom policy; the App Store's wants
    /// one, before any key is used); when none does, the first one's error.
    @Test func anyVerifyingSignerInfoSuffices() throws {
        var forger = S.chain.leaf
        forger.key = TestKeys.rsa2048[6]
        let good = S.receipt().encoded(), bad = S.receipt(signer: forger).encoded()
        func signerInfo(_ encoded: [UInt8]) -> [UInt8] {
            let signedData = DERParts.element(encoded, at: [1, 0])
            return DERParts.children(DERParts.children(signedData).last!)[0]
        }
        func withSignerInfos(_ infos: [[UInt8]]) throws -> SignedData {
            let bytes = DERParts.editing(good, at: [1, 0]) { signedData in
                var parts = DERParts.children(signedData)
                parts[parts.count - 1] = DERParts.wrap(0x31, infos)
                return DERParts.wrap(0x30, parts)
            }
            return try SignedData(berEncoded: bytes)
        }
        let verifier = SignedDataVerifier(policy: S.plainPolicy)
        let badFirst = try withSignerInfos([signerInfo(bad), signerInfo(good)])
        #expect(badFirst.signerInfos.count == 2)
        #expect(throws: VerificationError.multipleSignerInfos(count: 2)) {
            _ = try SignedDataVerifier(policy: S.policy).verify(badFirst, at: S.time)
        }
        #expect(try verifier.verify(badFirst, at: S.time).signerIndex == 1)
        #expect(try verifier.verify(try withSignerInfos([signerInfo(good), signerInfo(bad)]), at: S.time).signerIndex == 0)
        #expect(throws: VerificationError.signatureInvalid(subject: Self.leafSubject)) {
            _ = try verifier.verify(try withSignerInfos([signerInfo(bad), signerInfo(bad)]), at: S.time)
        }
    }

    // MARK: Path building

    @Test func missingSignerCertificateFails() throws {
        #expect(throws: VerificationError.signerCertificateNotFound) {
            _ = try S.verify(S.receipt(certificates: [S.intermediateDER, S.rootDER]))
        }
        #expect(throws: VerificationError.signerCertificateNotFound) {
            _ = try S.verify(S.receipt(certificates: []))
        }
    }

    /// Under the App Store policy a certificate whose issuer is nowhere is refused before any key
    /// is used; a custom policy searches and finds no issuer.
    @Test func missingIntermediateFails() throws {
        #expect(throws: VerificationError.issuerNotPresent(subject: Self.leafSubject)) {
            _ = try S.verify(S.receipt(certificates: [S.leafDER, S.rootDER]))
        }
        #expect(throws: VerificationError.issuerNotPresent(subject: Self.leafSubject)) {
            _ = try S.verify(S.receipt(certificates: [S.leafDER]))
        }
        #expect(throws: VerificationError.chainIncomplete(subject: Self.leafSubject)) {
            _ = try S.verify(S.receipt(certificates: [S.leafDER, S.rootDER]), policy: S.plainPolicy)
        }
    }

    /// The anchor comes from the policy; the receipt need not carry it.
    @Test func rootNeedNotBeEmbedded() throws {
        #expect(try S.verify(S.receipt(certificates: [S.intermediateDER, S.leafDER])).chain.count == 3)
    }

    /// Like Apple's 2008 and 2013 WWDR intermediates: same name, and only one of them signed the
    /// leaf. Whichever comes first, the path goes through the one whose key verifies.
    @Test func sameNameIntermediatesPickTheOneThatSigned() throws {
        var other = S.chain.intermediate
        other.key = TestKeys.rsa2048[3]
        other.serialNumber = [0x20, 0x08]
        let otherDER = other.signed(by: S.chain.root)
        for order in [[S.leafDER, otherDER, S.intermediateDER, S.rootDER], [S.leafDER, S.intermediateDER, otherDER, S.rootDER]] {
            let chain = try S.verify(S.receipt(certificates: order)).chain
            #expect(Array(chain[1].encoded) == S.intermediateDER)
        }
        // Only the wrong one: the leaf's signature fails.
        #expect(throws: VerificationError.signatureInvalid(subject: Self.leafSubject)) {
            _ = try S.verify(S.receipt(certificates: [S.leafDER, otherDER, S.rootDER]))
        }
    }

    /// Same name and key, the first copy expired: the valid re-issue is used.
    @Test func sameKeyIntermediatesSkipTheExpiredOne() throws {
        var old = S.chain.intermediate
        old.serialNumber = [0x20, 0x13]
        old.notAfter = utc(2020, 1, 1)
        let oldDER = old.signed(by: S.chain.root)
        let chain = try S.verify(S.receipt(certificates: [S.leafDER, oldDER, S.intermediateDER, S.rootDER])).chain
        #expect(Array(chain[1].encoded) == S.intermediateDER)
        #expect(throws: VerificationError.expired(subject: Self.intermediateSubject, notAfter: utc(2020, 1, 1), at: S.time)) {
            _ = try S.verify(S.receipt(certificates: [S.leafDER, oldDER, S.rootDER]))
        }
    }

    /// A issued by B and B issued by A, neither an anchor: leaf ← A ← B ← A …
    @Test func loopOfTwoCertificatesFails() throws {
        let a = TestCertificate(
            commonName: "Loop A", key: TestKeys.rsa1024[0], serialNumber: [0x0A],
            extensions: [.basicConstraints(ca: true), .keyUsage([.keyCertSign])])
        let b = TestCertificate(
            commonName: "Loop B", key: TestKeys.rsa1024[1], serialNumber: [0x0B],
            extensions: [.basicConstraints(ca: true), .keyUsage([.keyCertSign])])
        let leaf = S.chain.leaf.signed(by: a)
        let data = S.receipt(issuerName: a.subjectName, certificates: [leaf, a.signed(by: b), b.signed(by: a)])
        #expect(throws: VerificationError.certificateLoop(subject: name(a))) {
            _ = try S.verify(data, policy: S.plainPolicy)
        }
    }

    /// root ← I1 ← … ← I18, 1024-bit keys (only the search is under test), signed once.
    static let longChain: [TestCertificate] = (1 ... 18).map { i in
        TestCertificate(
            commonName: "Long Chain Intermediate \(i)", key: TestKeys.rsa1024[i % 2], serialNumber: [UInt8(i)],
            extensions: [.basicConstraints(ca: true), .keyUsage([.keyCertSign])])
    }
    static let longChainDER: [[UInt8]] = Array(signDown([S.chain.root] + longChain).dropFirst())

    /// A receipt whose leaf hangs under I`depth`, carrying I1…I`depth` (and the root if asked).
    static func longChainReceipt(depth: Int, includeRoot: Bool = false) -> TestSignedData {
        let leaf = S.chain.leaf.signed(by: longChain[depth - 1])
        let certificates = [leaf] + longChainDER[0 ..< depth].reversed() + (includeRoot ? [S.rootDER] : [])
        return S.receipt(issuerName: longChain[depth - 1].subjectName, certificates: certificates)
    }

    /// ChainBuilder follows at most 6 intermediates (rustls-webpki's bound).
    @Test func sixIntermediatesVerifySevenAreTooMany() throws {
        #expect(try S.verify(Self.longChainReceipt(depth: 6), policy: S.plainPolicy).chain.count == 8)
        #expect(throws: VerificationError.pathTooLong) {
            _ = try S.verify(Self.longChainReceipt(depth: 7), policy: S.plainPolicy)
        }
    }

    /// A chain of 20 certificates (leaf, 18 intermediates, root) cannot even be carried: the
    /// certificate set is capped at `PKCS7Limits.maxCertificates` (16) while parsing, so the
    /// longest chain that reaches the verifier has 15 intermediates, and the path search stops
    /// it with `.pathTooLong` after 6 (well inside the 32-signature budget: one check per link).
    @Test func chainOfTwentyCertificatesIsRejected() throws {
        let twenty = Self.longChainReceipt(depth: 18, includeRoot: true)
        #expect(twenty.certificates.count == 20)
        let error = #expect(throws: PKCS7Error.self) { try SignedData(berEncoded: twenty.encoded()) }
        #expect(error?.kind == .tooManyElements)

        let sixteen = Self.longChainReceipt(depth: 15)
        #expect(sixteen.certificates.count == PKCS7Limits.maxCertificates)
        #expect(throws: VerificationError.pathTooLong) { _ = try S.verify(sixteen, policy: S.plainPolicy) }
    }

    /// Seven look-alike intermediates "X" that all signed the leaf, each issued by seven "Y"s
    /// that claim the root's name but were signed by another key: X–Y pairs are tried until the
    /// message's budget (signer and links together) is spent.
    @Test func candidateExplosionExhaustsTheBudget() throws {
        let x = (1 ... 7).map { i in
            TestCertificate(
                commonName: "Budget X", key: TestKeys.rsa1024[0], serialNumber: [0x30, UInt8(i)],
                extensions: [.basicConstraints(ca: true)])
        }
        let y = (1 ... 7).map { i in
            TestCertificate(
                commonName: "Budget Y", key: TestKeys.rsa1024[1], serialNumber: [0x40, UInt8(i)],
                extensions: [.basicConstraints(ca: true)])
        }
        let xDER = x.map { $0.signed(by: y[0]) }
        let yDER = y.map { $0.signed(issuerName: S.chain.root.subjectName, issuerKey: TestKeys.rsa1024[0]) }
        let leaf = S.chain.leaf.signed(by: x[0])
        let data = S.receipt(issuerName: x[0].subjectName, certificates: [leaf] + xDER + yDER)
        #expect(throws: VerificationError.budgetExceeded) { _ = try S.verify(data, policy: S.plainPolicy) }

        // With two X and one Y the search ends within the budget (signer, 2 × (leaf ← X, X ← Y,
        // Y ← root) = 7 operations), reporting the failure that got furthest: the root's key does
        // not verify Y's signature.
        let small = S.receipt(issuerName: x[0].subjectName, certificates: [leaf] + xDER.prefix(2) + yDER.prefix(1))
        #expect(throws: VerificationError.signatureInvalid(subject: name(y[0]))) { _ = try S.verify(small, policy: S.plainPolicy) }
    }

    // MARK: Xcode-style

    static let storeKitLike = TestCertificate(
        commonName: "StoreKit Lookalike", key: TestKeys.rsa2048[4], serialNumber: [0x01], notBefore: utc(2020, 4, 1),
        notAfter: utc(2040, 3, 27),
        extensions: [
            .basicConstraints(ca: true), .keyUsage([.digitalSignature, .keyCertSign]),
            .extendedKeyUsage([OIDs.codeSigning], critical: true),
        ])
    static let storeKitLikeDER = storeKitLike.selfSigned()

    static func selfSignedReceipt(_ signer: TestCertificate, _ der: [UInt8]) -> TestSignedData {
        S.receipt(
            signer: signer, issuerName: signer.subjectName, certificates: [der],
            signatureAlgorithm: .rsaWithHash(.sha256), berSegmentSize: 64)
    }

    /// A self-signed signer with a critical code-signing EKU that signs the receipt directly,
    /// BER with a segmented eContent, like Xcode's StoreKit testing.
    @Test func xcodeStyleReceiptNeedsThePolicyToClaimEKU() throws {
        let data = Self.selfSignedReceipt(Self.storeKitLike, Self.storeKitLikeDER)
        let signedData = try SignedData(berEncoded: data.encoded())
        #expect(signedData.contentBytes() == S.payload)
        let anchor = try TrustAnchor(derEncoded: Self.storeKitLikeDER)
        let claiming = TrustPolicy.custom(
            anchors: [anchor], requiredIntermediateCount: 0,
            claimedCriticalExtensions: TrustPolicy.xcodeTesting.claimedCriticalExtensions)
        let result = try SignedDataVerifier(policy: claiming).verify(signedData, at: S.time)
        #expect(result.chain.map { Array($0.encoded) } == [Self.storeKitLikeDER])

        let subject = name(Self.storeKitLike)
        #expect(throws: VerificationError.unhandledCriticalExtension(subject: subject, oid: OIDs.extendedKeyUsage)) {
            _ = try SignedDataVerifier(policy: .custom(anchors: [anchor], requiredIntermediateCount: 0)).verify(signedData, at: S.time)
        }
        #expect(throws: VerificationError.unhandledCriticalExtension(subject: subject, oid: OIDs.extendedKeyUsage)) {
            _ = try SignedDataVerifier(policy: .appStore(anchors: [anchor])).verify(signedData, at: S.time)
        }
    }

    /// The claimed EKU must include code signing.
    @Test func xcodeStyleReceiptWithoutCodeSigningIsNotAccepted() throws {
        var signer = Self.storeKitLike
        signer.extensions[2] = .extendedKeyUsage([ASN1ObjectIdentifier("1.3.6.1.5.5.7.3.1")], critical: true)
        let der = signer.selfSigned()
        let policy = TrustPolicy.custom(
            anchors: [try TrustAnchor(derEncoded: der)], requiredIntermediateCount: 0,
            claimedCriticalExtensions: TrustPolicy.xcodeTesting.claimedCriticalExtensions)
        #expect(throws: VerificationError.extensionNotAccepted(subject: name(signer), oid: OIDs.extendedKeyUsage)) {
            _ = try S.verify(Self.selfSignedReceipt(signer, der), policy: policy)
        }
    }

    /// Under the real Xcode policy a look-alike self-signed signer is simply not the anchor:
    /// the path ends at a self-issued certificate that is not trusted.
    @Test func selfSignedLookalikeIsNotTrustedByXcodePolicy() throws {
        let data = Self.selfSignedReceipt(Self.storeKitLike, Self.storeKitLikeDER)
        #expect(throws: VerificationError.self) { _ = try S.verify(data, policy: .xcodeTesting) }
        #expect(throws: VerificationError.notTrusted(certificate: Self.encoded(Self.storeKitLikeDER))) {
            _ = try S.verify(data, policy: .xcodeTesting)
        }

    }
}
