import CryptoPrimitives
import DER
import PKCS7
import ReceiptTestSupport
import Testing
import X509Certificates

private typealias S = Synthetic

/// ECDSA links and signers through the same chain builder, policies and link cache as RSA ones
/// (RFC 5758 §3.2, RFC 5480): chains that mix the two families, and the rules that keep an
/// algorithm to its key family.
@Suite struct MixedChainTests {
    /// The App-Store-shaped test chain with some keys replaced.
    static func chain(
        root: (any TestCertificateKey)? = nil, intermediate: (any TestCertificateKey)? = nil,
        leaf: (any TestCertificateKey)? = nil, hash: HashAlgorithm = .sha256
    ) -> TestChain {
        var chain = TestChain()
        if let root { chain.root.key = root }
        if let intermediate { chain.intermediate.key = intermediate }
        if let leaf { chain.leaf.key = leaf }
        for keyPath in [\TestChain.root, \.intermediate, \.leaf] { chain[keyPath: keyPath].signatureHash = hash }
        return chain
    }

    static func verify(
        _ chain: TestChain, signerAlgorithm: TestSignedData.SignatureAlgorithmChoice,
        cache: VerifiedLinkCache? = nil
    ) throws -> VerifiedSignature {
        let bytes = chain.signedData(S.payload, signatureAlgorithm: signerAlgorithm).encoded()
        let policy = TrustPolicy.appStore(anchors: [try TrustAnchor(derEncoded: chain.rootCertificate)])
        return try SignedDataVerifier(policy: policy, linkStore: cache).verify(try SignedData(berEncoded: bytes), at: S.time)
    }

    @Test func ecdsaSignerUnderRSACertificateAuthorities() throws {
        let chain = Self.chain(leaf: TestECKeys.p256[0])
        let verified = try Self.verify(chain, signerAlgorithm: .ecdsaWithHash(.sha256))
        #expect(verified.chain.count == 3)
        #expect(verified.chain[0].signatureAlgorithm == .rsaWithHash(.sha256))
        if case .ec(let curve, _) = verified.chain[0].publicKey { #expect(curve == OIDs.secp256r1) } else { Issue.record("leaf key is not EC") }
    }

    @Test func rsaSignerUnderECDSACertificateAuthorities() throws {
        let chain = Self.chain(root: TestECKeys.p384[0], intermediate: TestECKeys.p384[1], hash: .sha384)
        let verified = try Self.verify(chain, signerAlgorithm: .rsaEncryption)
        #expect(verified.chain[0].signatureAlgorithm == .ecdsaWithHash(.sha384))
        #expect(verified.chain[1].signatureAlgorithm == .ecdsaWithHash(.sha384))
    }

    @Test func allECDSAChainWithP256AndP384Keys() throws {
        let chain = Self.chain(root: TestECKeys.p384[0], intermediate: TestECKeys.p256[1], leaf: TestECKeys.p256[2])
        let cache = VerifiedLinkCache()
        _ = try Self.verify(chain, signerAlgorithm: .ecdsaWithHash(.sha256), cache: cache)
        #expect(cache.count == 2)
        _ = try Self.verify(chain, signerAlgorithm: .ecdsaWithHash(.sha256), cache: cache)
        #expect(cache.count == 2)
    }

    @Test func signerAlgorithmMustFitTheSignersKeyFamily() throws {
        let ecLeaf = Self.chain(leaf: TestECKeys.p256[0])
        let subject = name(ecLeaf.leaf)
        // An RSA SignerInfo algorithm with an EC signing certificate: the key is unusable for it.
        var data = ecLeaf.signedData(S.payload, signatureAlgorithm: .ecdsaWithHash(.sha256))
        data.signatureAlgorithm = .rsaEncryption
        let policy = TrustPolicy.appStore(anchors: [try TrustAnchor(derEncoded: ecLeaf.rootCertificate)])
        #expect(throws: VerificationError.invalidPublicKey(subject: subject)) {
            _ = try SignedDataVerifier(policy: policy).verify(try SignedData(berEncoded: data.encoded()), at: S.time)
        }
        // ecdsa-with-SHA384 with a SHA-256 digest algorithm disagree (RFC 5652 §5.3).
        data.signatureAlgorithm = .ecdsaWithHash(.sha384)
        #expect(throws: VerificationError.digestAlgorithmMismatch) {
            _ = try SignedDataVerifier(policy: policy).verify(try SignedData(berEncoded: data.encoded()), at: S.time)
        }
    }

    @Test func ecdsaLinkSignedWithAnotherKeyFails() throws {
        var chain = Self.chain(root: TestECKeys.p384[0], intermediate: TestECKeys.p384[1], hash: .sha384)
        let genuine = chain.certificates
        chain.intermediate.key = TestECKeys.p384[2]   // the leaf is now signed by a different key
        let forgedLeaf = chain.leaf.signed(issuerName: chain.intermediate.subjectName, issuerKey: TestECKeys.p384[2])
        let data = chain.signedData(S.payload, certificates: [forgedLeaf, genuine[1], genuine[2]])
        let policy = TrustPolicy.appStore(anchors: [try TrustAnchor(derEncoded: genuine[2])])
        #expect(throws: VerificationError.signatureInvalid(subject: name(chain.leaf))) {
            _ = try SignedDataVerifier(policy: policy).verify(try SignedData(berEncoded: data.encoded()), at: S.time)
        }
    }

    @Test func ecdsaLinkFromAnRSAIssuerIsRefused() throws {
        // The leaf claims ecdsa-with-SHA256 but its issuer holds an RSA key.
        let chain = TestChain()
        let tbs = chain.leaf.tbsCertificate(issuerName: chain.intermediate.subjectName, issuerKey: TestECKeys.p256[0])
        let leaf = TestCertificate.assemble(
            tbs: tbs, algorithm: TestECKeys.p256[0].signatureAlgorithm(.sha256),
            signature: TestECKeys.p256[0].signatureValue(digest: SHA256.hash(tbs), hash: .sha256))
        let data = chain.signedData(S.payload, certificates: [leaf] + Array(chain.certificates.dropFirst()))
        let issuer = name(chain.intermediate)
        #expect(throws: VerificationError.invalidPublicKey(subject: issuer)) {
            _ = try SignedDataVerifier(policy: S.policy).verify(try SignedData(berEncoded: data.encoded()), at: S.time)
        }
    }
}

/// EC keys in certificates: named curves P-256 and P-384 only, uncompressed and valid points
/// (RFC 5480 §2.1.1, §2.2; SEC 1 §3.2.2.1).
@Suite struct ECKeyInCertificateTests {
    static func certificate(spki: [UInt8]) throws -> Certificate {
        var leaf = TestChain().leaf
        leaf.key = TestECKeys.p256[0]
        let der = leaf.assembled(issuerName: TestChain().intermediate.subjectName, issuerKey: nil) { $0[TBSField.publicKey] = spki }
        return try Certificate(derEncoded: der)
    }

    static func spki(curve: ASN1ObjectIdentifier, point: [UInt8]) -> [UInt8] {
        DERParts.encode { der in
            der.appendSequence { spki in
                spki.appendSequence { algorithm in
                    algorithm.appendObjectIdentifier(OIDs.ecPublicKey)
                    algorithm.appendObjectIdentifier(curve)
                }
                spki.appendBitString(point)
            }
        }
    }

    @Test func p256AndP384KeysLoad() throws {
        for key in [TestECKeys.p256[0], TestECKeys.p384[0]] {
            let certificate = try Self.certificate(spki: key.subjectPublicKeyInfo)
            #expect(try certificate.ecdsaPublicKey() == key.publicKey)
            #expect(throws: CertificateError.self) { _ = try certificate.rsaPublicKey() }
        }
    }

    @Test func otherCurvesCompressedPointsAndOffCurvePointsAreUnusable() throws {
        let point = TestECKeys.p256[0].x963
        let compressed = [UInt8(0x02 | (point.last! & 1))] + point[1 ... 32]
        var offCurve = point
        offCurve[64] ^= 1
        let secp521r1 = ASN1ObjectIdentifier("1.3.132.0.35")
        for spki in [
            Self.spki(curve: secp521r1, point: point), Self.spki(curve: OIDs.secp384r1, point: point),
            Self.spki(curve: OIDs.secp256r1, point: compressed), Self.spki(curve: OIDs.secp256r1, point: offCurve),
        ] {
            let certificate = try Self.certificate(spki: spki)
            #expect(throws: CertificateError.self) { _ = try certificate.ecdsaPublicKey() }
        }
    }
}

/// Version 1 certificates cannot carry basicConstraints: as a configured trust anchor one issues
/// (RFC 5280 §6.1.1 d; app-store-server-library's test CA root is one), as an intermediate it does not.
@Suite struct VersionOneAnchorTests {
    static func chain(v1Root: Bool, v1Intermediate: Bool) -> TestChain {
        var chain = TestChain()
        if v1Root { chain.root.version = 1; chain.root.extensions = [] }
        if v1Intermediate { chain.intermediate.version = 1; chain.intermediate.extensions = [] }
        return chain
    }

    @Test func versionOneRootIssuesAsAnAnchor() throws {
        let chain = Self.chain(v1Root: true, v1Intermediate: false)
        let policy = TrustPolicy.appStore(anchors: [try TrustAnchor(derEncoded: chain.rootCertificate)])
        let data = chain.signedData(S.payload)
        _ = try SignedDataVerifier(policy: policy).verify(try SignedData(berEncoded: data.encoded()), at: S.time)
    }

    @Test func versionOneIntermediateIsNotACA() throws {
        let chain = Self.chain(v1Root: false, v1Intermediate: true)
        let policy = TrustPolicy.custom(anchors: [try TrustAnchor(derEncoded: chain.rootCertificate)])
        let data = chain.signedData(S.payload)
        #expect(throws: VerificationError.notCA(subject: name(chain.intermediate))) {
            _ = try SignedDataVerifier(policy: policy).verify(try SignedData(berEncoded: data.encoded()), at: S.time)
        }
    }
}
