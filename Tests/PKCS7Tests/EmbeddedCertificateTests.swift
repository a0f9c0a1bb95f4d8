import CryptoPrimitives
import DER
import PKCS7
import X509Certificates
import ReceiptTestSupport
import Testing

/// Every certificate a SignedData carries is read with the same strict parser when the SignedData
/// is decoded, used by the path or not; a malformed one makes the message malformed, naming the
/// certificate by its index. What is (and is not) judged about a certificate no path uses is
/// decided once, in `SignedData.certificates`; each decision has its test here.
@Suite struct EmbeddedCertificateTests {
    typealias S = Synthetic

    /// A receipt carrying the default chain and, after it, `extra` (which no path uses).
    static func receipt(extra: [UInt8]) -> [UInt8] {
        S.receipt(certificates: [S.leafDER, S.intermediateDER, S.rootDER, extra]).encoded()
    }

    /// A CA certificate that no path uses, with its own name and key, signed by the root.
    static func unused(_ edit: (inout TestCertificate) -> Void = { _ in }) -> TestCertificate {
        var certificate = TestCertificate(
            commonName: "Unused Test CA", key: TestKeys.rsa2048[3], serialNumber: [0x77],
            extensions: [.basicConstraints(ca: true), .keyUsage([.keyCertSign])])
        edit(&certificate)
        return certificate
    }

    static func decodeError(_ bytes: [UInt8]) -> PKCS7Error? {
        #expect(throws: PKCS7Error.self) { try SignedData(berEncoded: bytes) }
    }

    static func verifies(_ bytes: [UInt8]) throws -> Bool {
        let signedData = try SignedData(berEncoded: bytes)
        return (try? SignedDataVerifier(policy: S.policy).verify(signedData, at: S.time)) != nil
    }

    @Test func everyCertificateIsParsedWhenDecoding() throws {
        let extra = Self.unused().signed(by: S.chain.root)
        let signedData = try SignedData(berEncoded: Self.receipt(extra: extra))
        #expect(signedData.certificates.count == 4)
        #expect(signedData.certificates[3].subjectDescription == "C=US,O=Receipt Toolkit Tests,CN=Unused Test CA")
        #expect(signedData.certificateRanges == signedData.certificates.map(\.range))
        // Verification builds its path from these parsed certificates (no second parse).
        let verified = try SignedDataVerifier(policy: S.policy).verify(signedData, at: S.time)
        #expect(verified.chain.count == 3)
        #expect(verified.chain[0].range == signedData.certificates[0].range && verified.chain[1].range == signedData.certificates[1].range)
    }

    /// A copy of an embedded anchor (here Apple Root CA and the StoreKit certificate, as App Store
    /// and Xcode receipts carry them) takes the anchor's parse, moved to where the copy lies: every
    /// range is the one a fresh parse of those bytes in this storage gives.
    @Test func anchorCopiesTakeTheAnchorsParse() throws {
        let anchors = [TrustAnchor.appleRootCA, TrustAnchor.storeKitTesting].compactMap { $0 }
        #expect(anchors.count == 2)
        let bytes = S.receipt(certificates: [S.leafDER, S.intermediateDER] + anchors.map { Array($0.certificate.encoded) }).encoded()
        let signedData = try SignedData(berEncoded: bytes)
        for index in 2 ... 3 {
            let reused = signedData.certificates[index]
            let fresh = try bytes.withUnsafeBytes { raw in
                var at = ASN1Reader(UnsafeRawBufferPointer(rebasing: raw[reused.range]), rules: .der, baseOffset: reused.range.lowerBound)
                return try Certificate(reading: &at, storage: bytes)
            }
            #expect(reused.storage == bytes)
            #expect(reused.encoded.elementsEqual(anchors[index - 2].certificate.encoded))
            #expect(reused.range == fresh.range && reused.tbsRange == fresh.tbsRange && reused.serialRange == fresh.serialRange)
            #expect(reused.issuerRange == fresh.issuerRange && reused.subjectRange == fresh.subjectRange)
            #expect(reused.publicKeyInfoRange == fresh.publicKeyInfoRange && reused.publicKey == fresh.publicKey)
            #expect(reused.signatureRange == fresh.signatureRange && reused.extensions == fresh.extensions)
            #expect(reused.version == fresh.version && reused.signatureAlgorithm == fresh.signatureAlgorithm)
            #expect(reused.notBefore == fresh.notBefore && reused.notAfter == fresh.notAfter)
            #expect(try reused.rsaPublicKey() == fresh.rsaPublicKey())
        }
    }

    /// The unused certificate with a Name that breaks the grammar: the message is malformed, the
    /// error names certificate 3 and the rule, at the RDN that breaks it.
    @Test func malformedUnusedCertificateMakesTheMessageMalformed() throws {
        var name = S.chain.root.subjectName
        // The subject's second RDN (O=…) re-tagged SEQUENCE: 30 L 31 0B 30 09 … (C=US) 31 → 30.
        let secondRDN = 2 + 13
        #expect(name[secondRDN] == 0x31)
        name[secondRDN] = 0x30
        let extra = Self.unused().assembled(issuerName: name, issuerKey: S.chain.root.key) { _ in }
        let bytes = Self.receipt(extra: extra)
        let error = Self.decodeError(bytes)
        #expect(error?.kind == .embeddedCertificate(index: 3, .invalidName(.rdnNotSet)))
        #expect(error.map { Array(bytes[$0.offset ..< $0.offset + 2]) } == [0x30, name[secondRDN + 1]])
        #expect(error?.description.contains("certificate 3: invalid name: a RelativeDistinguishedName is not a SET") == true)
        // The same bytes as the signer's certificate fail the same way, as certificate 0.
        let leafFirst = S.receipt(certificates: [extra, S.leafDER, S.intermediateDER]).encoded()
        #expect(Self.decodeError(leafFirst)?.kind == .embeddedCertificate(index: 0, .invalidName(.rdnNotSet)))
    }

    /// Decision: the signature of a certificate no path uses is never checked.
    @Test func unusedCertificateSignatureIsNotChecked() throws {
        var extra = Self.unused().signed(by: S.chain.root)
        extra[extra.count - 5] ^= 0x01
        #expect(try Self.verifies(Self.receipt(extra: extra)))
    }

    /// Decision: its validity period is not compared with the validation time.
    @Test func unusedCertificateValidityIsNotJudged() throws {
        let expired = Self.unused {
            $0.notBefore = 1_000_000_000; $0.notAfter = 1_100_000_000
        }.signed(by: S.chain.root)
        #expect(try Self.verifies(Self.receipt(extra: expired)))
    }

    /// Decision: its unhandled critical extensions are judged only on a path (RFC 5280 §6.1
    /// processes path certificates); they are parsed and recorded all the same.
    @Test func unusedCertificateCriticalExtensionsAreJudgedOnlyOnAPath() throws {
        let unknown = ASN1ObjectIdentifier("1.3.6.1.4.1.55555.7.1")
        let extra = Self.unused { $0.extensions.append(.marker(unknown, critical: true)) }.signed(by: S.chain.root)
        let bytes = Self.receipt(extra: extra)
        #expect(try SignedData(berEncoded: bytes).certificates[3].extensions.unhandledCritical == [unknown])
        #expect(try Self.verifies(bytes))
    }

    /// Decision: its extensions are parsed as a path certificate's: a known extension that does not
    /// decode, or a repeated one, makes the message malformed.
    @Test func unusedCertificateExtensionsAreParsedAsOnAPath() {
        let repeated = Self.unused { $0.extensions.append(.init(oid: OIDs.keyUsage, value: [0x05, 0x00])) }.signed(by: S.chain.root)
        #expect(
            Self.decodeError(Self.receipt(extra: repeated))?.kind
                == .embeddedCertificate(index: 3, .duplicateExtension(OIDs.keyUsage)))
        let malformed = Self.unused { $0.extensions = [.basicConstraints(ca: true), .init(oid: OIDs.keyUsage, value: [0x05, 0x00])] }
            .signed(by: S.chain.root)
        #expect(Self.decodeError(Self.receipt(extra: malformed))?.kind == .embeddedCertificate(index: 3, .invalidExtension(OIDs.keyUsage)))
    }

    /// Decision: its public key is parsed for structure only; the RSA key rules (here: an even
    /// modulus) apply when a path uses the key.
    @Test func unusedCertificateKeyRulesApplyOnlyOnAPath() throws {
        var modulus = TestKeys.rsa2048[2].modulus
        modulus[modulus.count - 1] &= 0xFE
        let evenKey = DERParts.encode { der in
            der.appendSequence { spki in
                spki.appendSequence {
                    $0.appendObjectIdentifier(OIDs.rsaEncryption); $0.appendNull()
                }
                spki.appendBitString(
                    DERParts.encode { key in
                        key.appendSequence {
                            $0.appendUnsignedInteger(modulus); $0.appendUnsignedInteger(TestKeys.rsa2048[2].publicExponent)
                        }
                    })
            }
        }
        let unused = Self.unused()
        let extra = unused.assembled(issuerName: S.chain.root.subjectName, issuerKey: S.chain.root.key) { $0[TBSField.publicKey] = evenKey }
        let bytes = Self.receipt(extra: extra)
        #expect(throws: CertificateError.self) { try SignedData(berEncoded: bytes).certificates[3].rsaPublicKey() }
        #expect(try Self.verifies(bytes))
        // The same key on the path's intermediate is refused when its signature is checked.
        let intermediate = S.chain.intermediate.assembled(issuerName: S.chain.root.subjectName, issuerKey: S.chain.root.key) {
            $0[TBSField.publicKey] = evenKey
        }
        let onPath = S.receipt(certificates: [S.leafDER, intermediate, S.rootDER]).encoded()
        #expect(throws: VerificationError.invalidPublicKey(subject: name(S.chain.intermediate))) {
            _ = try SignedDataVerifier(policy: S.policy).verify(try SignedData(berEncoded: onPath), at: S.time)
        }
    }

    /// Decision: a signature algorithm this toolkit does not implement is refused in any
    /// certificate (parsing reads only what it can check); Apple's messages never carry one.
    @Test func unusedCertificateWithUnsupportedAlgorithmIsMalformed() {
        let dsaWithSHA256 = ASN1ObjectIdentifier("2.16.840.1.101.3.4.3.2")
        let algorithm = DERParts.encode { der in der.appendSequence { $0.appendObjectIdentifier(dsaWithSHA256) } }
        let extra = Self.unused().assembled(issuerName: S.chain.root.subjectName, issuerKey: nil, outerAlgorithm: algorithm) {
            $0[TBSField.signature] = algorithm
        }
        #expect(Self.decodeError(Self.receipt(extra: extra))?.kind == .embeddedCertificate(index: 3, .unsupportedAlgorithm(dsaWithSHA256)))
    }

    /// The issuer Name a SignerInfo names its certificate by is a Name too, read to the same grammar.
    @Test func signerIssuerNameKeepsToTheGrammar() throws {
        var name = S.chain.intermediate.subjectName
        name[2] = 0x30   // the first RDN re-tagged SEQUENCE
        let bytes = S.receipt(issuerName: name).encoded()
        #expect(Self.decodeError(bytes)?.kind == .certificate(.invalidName(.rdnNotSet)))
        // A well-formed name that matches no certificate still decodes; verification finds no signer.
        let other = TestCertificate(commonName: "Someone Else", key: TestKeys.rsa2048[4]).subjectName
        let unmatched = try SignedData(berEncoded: S.receipt(issuerName: other).encoded())
        #expect(throws: VerificationError.signerCertificateNotFound) {
            _ = try SignedDataVerifier(policy: S.policy).verify(unmatched, at: S.time)
        }
    }
}
