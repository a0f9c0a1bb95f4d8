import CryptoPrimitives
import DER
import Foundation
import PKCS7
import X509Certificates
import ReceiptTestSupport
import Testing
import TestHelpers

/// Malformed envelopes, SignerInfos and certificates: each is a `PKCS7Error` of the exact kind.
/// The inputs are the synthetic receipt with one element replaced (DER surgery, lengths
/// recomputed), so every other part stays well formed.
@Suite struct SignedDataParsingTests {
    typealias S = Synthetic

    // Paths into ContentInfo: [1, 0] is SignedData.
    static let signedDataPath = [1, 0]
    static let versionPath = [1, 0, 0]
    static let digestAlgorithmsPath = [1, 0, 1]
    static let encapsulatedPath = [1, 0, 2]
    static let certificatesPath = [1, 0, 3]
    static let signerInfosPath = [1, 0, 4]
    static let signerInfoPath = [1, 0, 4, 0]

    static func parseError(_ bytes: [UInt8]) -> PKCS7Error? {
        #expect(throws: PKCS7Error.self) { try SignedData(berEncoded: bytes) }
    }

    static func edited(_ path: [Int], _ transform: ([UInt8]) -> [UInt8]) -> [UInt8] {
        DERParts.editing(S.receiptBytes, at: path, transform)
    }

    static func encode(_ body: (inout DERWriter) -> Void) -> [UInt8] { DERParts.encode(body) }

    static func oid(_ oid: ASN1ObjectIdentifier) -> [UInt8] { encode { $0.appendObjectIdentifier(oid) } }

    @Test func editedReceiptStillParses() throws {
        // The surgery itself is neutral: re-wrapping every element gives the same bytes.
        #expect(Self.edited(Self.signerInfoPath) { $0 } == S.receiptBytes)
        _ = try SignedDataVerifier(policy: S.policy).verify(try SignedData(berEncoded: S.receiptBytes), at: S.time)
    }

    // MARK: ContentInfo and SignedData

    @Test func contentTypeOtherThanSignedDataIsRejected() {
        let bytes = Self.edited([0]) { _ in Self.oid(OIDs.data) }
        #expect(Self.parseError(bytes)?.kind == .notSignedData)
        // envelopedData (1.2.840.113549.1.7.3).
        let enveloped = Self.edited([0]) { _ in Self.oid(ASN1ObjectIdentifier("1.2.840.113549.1.7.3")) }
        #expect(Self.parseError(enveloped)?.kind == .notSignedData)
    }

    @Test func trailingBytesAfterContentInfoAreRejected() {
        let error = Self.parseError(S.receiptBytes + [0x30, 0x00])
        #expect(error?.kind == .encoding(.trailingBytes))
        #expect(error?.offset == S.receiptBytes.count)
        // Also after a BER (indefinite-length) ContentInfo.
        let ber = S.receipt(berSegmentSize: 512).encoded()
        #expect(Self.parseError(ber + [0x00])?.kind == .encoding(.trailingBytes))
    }

    @Test func missingEContentIsRejected() {
        let bytes = Self.edited(Self.encapsulatedPath) { encapsulated in
            DERParts.wrap(0x30, [DERParts.children(encapsulated)[0]])
        }
        #expect(Self.parseError(bytes)?.kind == .missingContent)
    }

    @Test func eContentTypeOtherThanDataIsRejected() {
        let other = ASN1ObjectIdentifier("1.2.840.113549.1.9.16.1.4")
        let bytes = Self.edited(Self.encapsulatedPath + [0]) { _ in Self.oid(other) }
        #expect(Self.parseError(bytes)?.kind == .unsupportedContentType(other))
    }

    @Test(arguments: [0, 2, 4, 5, -1] as [Int64])
    func unsupportedSignedDataVersionIsRejected(_ version: Int64) {
        let bytes = Self.edited(Self.versionPath) { _ in Self.encode { $0.appendInteger(version) } }
        #expect(Self.parseError(bytes)?.kind == .unsupportedVersion(version))
    }

    @Test func emptySignerInfosAreRejected() {
        let bytes = Self.edited(Self.signerInfosPath) { _ in [0x31, 0x00] }
        #expect(Self.parseError(bytes)?.kind == .noSignerInfo)
    }

    @Test func unsupportedDigestAlgorithmIsRejected() {
        let md5 = ASN1ObjectIdentifier("1.2.840.113549.2.5")
        let bytes = Self.edited(Self.digestAlgorithmsPath + [0, 0]) { _ in Self.oid(md5) }
        #expect(Self.parseError(bytes)?.kind == .unsupportedAlgorithm(md5))
    }

    @Test func digestAlgorithmParametersMustBeNullOrAbsent() throws {
        let integer = Self.edited(Self.digestAlgorithmsPath + [0, 1]) { _ in [0x02, 0x01, 0x00] }
        #expect(Self.parseError(integer)?.kind == .invalidAlgorithmParameters)
        // Absent parameters are fine (RFC 5754 §2).
        let absent = Self.edited(Self.digestAlgorithmsPath + [0]) { algorithm in
            DERParts.wrap(0x30, [DERParts.children(algorithm)[0]])
        }
        #expect(try SignedData(berEncoded: absent).digestAlgorithms == [.sha256])
    }

    @Test func nonOctetStringEContentIsRejected() {
        let bytes = Self.edited(Self.encapsulatedPath + [1, 0]) { _ in Self.encode { $0.appendString("receipt", as: .utf8) } }
        #expect(Self.parseError(bytes)?.kind == .encoding(.unexpectedTag(expected: .octetString, found: .utf8String)))
    }

    // MARK: Certificates set

    /// Certificates are parsed (strictly) while decoding, every one of them.
    @Test func certificateCountIsBounded() throws {
        let max = PKCS7Limits.maxCertificates
        #expect(max == 16)
        func carrying(_ count: Int) -> [UInt8] {
            Self.edited(Self.certificatesPath) { _ in DERParts.wrap(0xA0, Array(repeating: S.rootDER, count: count)) }
        }
        let atMax = try SignedData(berEncoded: carrying(max))
        #expect(atMax.certificateRanges.count == max)
        #expect(atMax.certificates.count == max)
        let error = Self.parseError(carrying(max + 1))
        #expect(error?.kind == .tooManyElements)
        // The error points at the first certificate over the limit.
        #expect(error.map { Array(carrying(max + 1)[$0.offset...].prefix(S.rootDER.count)) } == S.rootDER)
    }

    @Test func signerInfoCountIsBounded() throws {
        let max = PKCS7Limits.maxSignerInfos
        let info = DERParts.element(S.receiptBytes, at: Self.signerInfoPath)
        func carrying(_ count: Int) -> [UInt8] {
            Self.edited(Self.signerInfosPath) { _ in DERParts.wrap(0x31, Array(repeating: info, count: count)) }
        }
        #expect(try SignedData(berEncoded: carrying(max)).signerInfos.count == max)
        #expect(Self.parseError(carrying(max + 1))?.kind == .tooManyElements)
    }

    @Test func nonCertificateChoiceIsRejected() {
        // An attribute certificate alternative ([1] IMPLICIT), not supported.
        let bytes = Self.edited(Self.certificatesPath) { set in
            DERParts.wrap(0xA0, [[0xA1, 0x03, 0x02, 0x01, 0x00]] + DERParts.children(set))
        }
        #expect(Self.parseError(bytes)?.kind == .unsupportedCertificateFormat)
    }

    /// A BER certificate inside a BER envelope: certificates are signed as DER and read as DER,
    /// when the envelope is decoded; the error names the certificate by its index.
    @Test func berEncodedCertificateIsMalformed() throws {
        // The root with its outer SEQUENCE in indefinite-length form.
        let inner = Array(DERParts.children(S.rootDER).joined())
        let berRoot = [0x30, 0x80] + inner + [0x00, 0x00]
        let bytes = Self.edited(Self.certificatesPath) { _ in DERParts.wrap(0xA0, [S.leafDER, S.intermediateDER, berRoot]) }
        let error = Self.parseError(bytes)
        #expect(error?.kind == .embeddedCertificate(index: 2, .encoding(.indefiniteLength)))
        // At the root copy's first octet, after the leaf and the intermediate.
        #expect(error.map { Array(bytes[$0.offset...].prefix(2)) } == [0x30, 0x80])
    }

    // MARK: SignerInfo

    static func signerInfoEdited(_ transform: (inout [[UInt8]]) -> Void) -> [UInt8] {
        Self.edited(Self.signerInfoPath) { info in
            var parts = DERParts.children(info)
            transform(&parts)
            return DERParts.wrap(0x30, parts)
        }
    }

    @Test func signerInfoVersionMustMatchIdentifier() {
        let v3 = Self.signerInfoEdited { $0[0] = [0x02, 0x01, 0x03] }
        #expect(Self.parseError(v3)?.kind == .signerIdentifierMismatch)
        let keyID = Self.signerInfoEdited { $0[1] = [0x80, 0x04, 0x01, 0x02, 0x03, 0x04] }
        #expect(Self.parseError(keyID)?.kind == .signerIdentifierMismatch)
    }

    /// A v3 SignerInfo naming a subjectKeyIdentifier that no certificate carries.
    @Test func unknownSubjectKeyIdentifierFindsNoSigner() throws {
        let bytes = Self.signerInfoEdited { parts in
            parts[0] = [0x02, 0x01, 0x03]
            parts[1] = [0x80, 0x04, 0x01, 0x02, 0x03, 0x04]
        }
        let signedData = try SignedData(berEncoded: bytes)
        #expect(signedData.signerInfos[0].version == 3)
        #expect(throws: VerificationError.signerCertificateNotFound) {
            _ = try SignedDataVerifier(policy: S.policy).verify(signedData, at: S.time)
        }
    }

    static let contentTypeAttribute = encode { der in
        der.appendSequence { a in
            a.appendObjectIdentifier(OIDs.contentType)
            a.appendSetOf { $0.appendObjectIdentifier(OIDs.data) }
        }
    }
    static let messageDigestAttribute = encode { der in
        der.appendSequence { a in
            a.appendObjectIdentifier(OIDs.messageDigest)
            a.appendSetOf { $0.appendOctetString(SHA256.hash(S.payload).bytes) }
        }
    }
    static let signingTimeAttribute = encode { der in
        der.appendSequence { a in
            a.appendObjectIdentifier(ASN1ObjectIdentifier("1.2.840.113549.1.9.5"))
            a.appendSetOf { $0.appendUTCTime(S.time) }
        }
    }

    /// The receipt with `[0] IMPLICIT` signed attributes holding `attributes` in the order given
    /// (the signature is not redone: these are parsing tests).
    static func withSignedAttributes(_ attributes: [[UInt8]]) -> [UInt8] {
        signerInfoEdited { $0.insert(DERParts.wrap(0xA0, attributes), at: 3) }
    }

    @Test func wellFormedSignedAttributesParse() throws {
        #expect(Self.contentTypeAttribute.lexicographicallyPrecedes(Self.messageDigestAttribute))
        // DER order: contentType (30 18 …), signingTime (30 1C …), messageDigest (30 2F …).
        let signedData = try SignedData(
            berEncoded: Self.withSignedAttributes(
                [Self.contentTypeAttribute, Self.signingTimeAttribute, Self.messageDigestAttribute]))
        let attributes = try #require(signedData.signerInfos[0].signedAttributes)
        #expect(Array(signedData.storage[attributes.messageDigestRange]) == SHA256.hash(S.payload).bytes)
        #expect(Array(signedData.storage[attributes.contentTypeRange]) == OIDs.data.encodedContent)
        // Parsed, but the signature covers the content digest, not these attributes.
        #expect(throws: VerificationError.signatureInvalid(subject: name(S.chain.leaf))) {
            _ = try SignedDataVerifier(policy: S.policy).verify(signedData, at: S.time)
        }
    }

    @Test func signedAttributesWithoutMessageDigestAreRejected() {
        let bytes = Self.withSignedAttributes([Self.contentTypeAttribute, Self.signingTimeAttribute])
        #expect(Self.parseError(bytes)?.kind == .invalidSignedAttributes)
    }

    @Test func signedAttributesWithoutContentTypeAreRejected() {
        let bytes = Self.withSignedAttributes([Self.messageDigestAttribute])
        #expect(Self.parseError(bytes)?.kind == .invalidSignedAttributes)
    }

    @Test func signedAttributesWithTwoContentTypesAreRejected() {
        let bytes = Self.withSignedAttributes([Self.contentTypeAttribute, Self.contentTypeAttribute, Self.messageDigestAttribute])
        #expect(Self.parseError(bytes)?.kind == .invalidSignedAttributes)
    }

    @Test func contentTypeAttributeWithTwoValuesIsRejected() {
        let twoValues = Self.encode { der in
            der.appendSequence { a in
                a.appendObjectIdentifier(OIDs.contentType)
                a.appendSetOf { set in
                    set.appendObjectIdentifier(OIDs.data)
                    set.appendObjectIdentifier(OIDs.signedData)
                }
            }
        }
        #expect(Self.parseError(Self.withSignedAttributes([twoValues, Self.messageDigestAttribute]))?.kind == .invalidSignedAttributes)
    }

    /// The signature covers the attributes' DER, so they must be in DER (sorted) order.
    @Test func unsortedSignedAttributesAreRejected() {
        let bytes = Self.withSignedAttributes([Self.messageDigestAttribute, Self.contentTypeAttribute])
        #expect(Self.parseError(bytes)?.kind == .encoding(.setNotSorted))
    }

    @Test func signatureAlgorithmOtherThanRSAIsRejected() {
        let dsa = ASN1ObjectIdentifier("1.2.840.10040.4.3")
        let bytes = Self.signerInfoEdited { $0[3] = Self.encode { der in der.appendSequence { $0.appendObjectIdentifier(dsa) } } }
        #expect(Self.parseError(bytes)?.kind == .unsupportedAlgorithm(dsa))
    }

    /// An ECDSA signature algorithm never runs with the signer's RSA key: the key is unusable for it.
    @Test func ecdsaSignerInfoWithAnRSASignerIsRefused() throws {
        let bytes = Self.signerInfoEdited { $0[3] = Self.encode { der in der.appendSequence { $0.appendObjectIdentifier(OIDs.ecdsaWithSHA256) } } }
        let signedData = try SignedData(berEncoded: bytes)
        #expect(signedData.signerInfos[0].signatureAlgorithm == .ecdsaWithHash(.sha256))
        #expect(throws: VerificationError.invalidPublicKey(subject: name(S.chain.leaf))) {
            _ = try SignedDataVerifier(policy: S.policy).verify(signedData, at: S.time)
        }
    }
}

/// Certificates (RFC 5280 §4.1) parsed strictly: DEFAULT values, duplicates, algorithm
/// agreement, keys.
@Suite struct CertificateParsingTests {
    typealias S = Synthetic

    static func certificate(_ edit: (inout [[UInt8]]) -> Void, outerAlgorithm: [UInt8]? = nil) -> [UInt8] {
        S.chain.leaf.assembled(issuerName: S.chain.intermediate.subjectName, issuerKey: nil, outerAlgorithm: outerAlgorithm, edit: edit)
    }

    static func parseError(_ der: [UInt8]) -> CertificateError? {
        #expect(throws: CertificateError.self) { try Certificate(derEncoded: der) }
    }

    static func withExtensions(_ entries: [[UInt8]]) -> [UInt8] {
        certificate { $0[TBSField.extensions] = DERParts.extensionsField(entries) }
    }

    static let keyUsageValue: [UInt8] = [0x03, 0x02, 0x07, 0x80]   // digitalSignature

    @Test func syntheticCertificatesParse() throws {
        let leaf = try Certificate(derEncoded: S.leafDER)
        #expect(leaf.version == 3)
        #expect(Array(leaf.serialNumber) == [0x15, 0xE7, 0x9F])
        #expect(leaf.signatureAlgorithm == .rsaWithHash(.sha256))
        #expect(Array(leaf.issuer) == S.chain.intermediate.subjectName)
        #expect(leaf.extensions.keyUsage == .digitalSignature)
        #expect(leaf.extensions.basicConstraints?.isCA == false)
        #expect(leaf.extensions.basicConstraints?.pathLength == nil)
        #expect(leaf.extensions.policies == [OIDs.appleReceiptSigningPolicy])
        #expect(leaf.extensions.unhandledCritical.isEmpty)
        #expect(Array(leaf.tbsCertificate) == S.chain.leaf.tbsCertificate(issuerName: S.chain.intermediate.subjectName))
        #expect(leaf.notBefore == TestCertificate.defaultNotBefore && leaf.notAfter == TestCertificate.defaultNotAfter)
        let intermediate = try Certificate(derEncoded: S.intermediateDER)
        #expect(intermediate.extensions.basicConstraints?.isCA == true)
        #expect(intermediate.extensions.basicConstraints?.pathLength == 0)
        #expect(intermediate.extensions.keyUsage == [.keyCertSign, .cRLSign])
        // The edit helper is neutral.
        #expect(Self.certificate { _ in }.count == S.leafDER.count)
    }

    @Test func explicitCriticalFalseIsRejected() {
        let der = Self.withExtensions([DERParts.rawExtension(OIDs.keyUsage, critical: false, value: Self.keyUsageValue)])
        #expect(Self.parseError(der)?.kind == .defaultValueEncoded)
        // The same extension with critical absent or TRUE is fine.
        #expect(
            (try? Certificate(derEncoded: Self.withExtensions([DERParts.rawExtension(OIDs.keyUsage, critical: nil, value: Self.keyUsageValue)])))
                != nil)
        #expect(
            (try? Certificate(derEncoded: Self.withExtensions([DERParts.rawExtension(OIDs.keyUsage, critical: true, value: Self.keyUsageValue)])))
                != nil)
    }

    @Test func explicitCAFalseIsRejected() {
        let value = DERParts.encode { der in der.appendSequence { $0.appendBool(false) } }
        let der = Self.withExtensions([DERParts.rawExtension(OIDs.basicConstraints, critical: true, value: value)])
        #expect(Self.parseError(der)?.kind == .defaultValueEncoded)
    }

    @Test func explicitVersionOneIsRejected() {
        let der = Self.certificate {
            $0[TBSField.version] = DERParts.encode { w in w.appendConstructed(.contextSpecific(0)) { $0.appendInteger(0) } }
        }
        #expect(Self.parseError(der)?.kind == .defaultValueEncoded)
        let v4 = Self.certificate { $0[TBSField.version] = DERParts.encode { w in w.appendConstructed(.contextSpecific(0)) { $0.appendInteger(3) } } }
        #expect(Self.parseError(v4)?.kind == .unsupportedVersion(3))
    }

    @Test func duplicateExtensionIsRejected() {
        let entry = DERParts.rawExtension(OIDs.keyUsage, critical: true, value: Self.keyUsageValue)
        #expect(Self.parseError(Self.withExtensions([entry, entry]))?.kind == .duplicateExtension(OIDs.keyUsage))
        // Also an unknown one.
        let marker = DERParts.rawExtension(OIDs.appleReceiptSigningExtension, critical: nil, value: [0x05, 0x00])
        #expect(Self.parseError(Self.withExtensions([marker, entry, marker]))?.kind == .duplicateExtension(OIDs.appleReceiptSigningExtension))
    }

    @Test func emptyExtensionsListIsRejected() {
        let der = Self.withExtensions([])
        #expect(Self.parseError(der)?.kind == .emptyList)
    }

    @Test func undecodableKnownExtensionIsRejected() {
        let der = Self.withExtensions([DERParts.rawExtension(OIDs.keyUsage, critical: true, value: [0x04, 0x01, 0x00])])
        #expect(Self.parseError(der)?.kind == .invalidExtension(OIDs.keyUsage))
    }

    @Test func innerAndOuterSignatureAlgorithmsMustAgree() {
        let der = Self.certificate({ _ in }, outerAlgorithm: TestCertificate.algorithmIdentifier(.sha1))
        #expect(Self.parseError(der)?.kind == .signatureAlgorithmMismatch)
        // Same algorithm, parameters absent outside and NULL inside: not byte-identical either.
        let absent = DERParts.encode { der in der.appendSequence { $0.appendObjectIdentifier(OIDs.sha256WithRSAEncryption) } }
        #expect(Self.parseError(Self.certificate({ _ in }, outerAlgorithm: absent))?.kind == .signatureAlgorithmMismatch)
    }

    /// SubjectPublicKeyInfo with an RSAPublicKey whose fields are given as INTEGER contents.
    static func spki(
        modulusContent: [UInt8], exponentContent: [UInt8] = [0x01, 0x00, 0x01],
        parameters: [UInt8] = [0x05, 0x00], trailing: [UInt8] = []
    ) -> [UInt8] {
        let key = rsaPublicKey(modulusContent: modulusContent, exponentContent: exponentContent) + trailing
        return DERParts.encode { der in
            der.appendSequence { spki in
                spki.appendSequence { algorithm in
                    algorithm.appendObjectIdentifier(OIDs.rsaEncryption)
                    algorithm.appendEncoded(parameters)
                }
                spki.appendBitString(key)
            }
        }
    }

    static func rsaPublicKey(modulusContent: [UInt8], exponentContent: [UInt8] = [0x01, 0x00, 0x01]) -> [UInt8] {
        DERParts.encode { der in
            der.appendSequence { key in
                key.append(.integer, content: modulusContent)
                key.append(.integer, content: exponentContent)
            }
        }
    }

    static let modulus = TestKeys.rsa2048[0].modulus   // 256 octets, top bit set

    @Test func negativeModulusIsRejected() {
        #expect(Self.modulus.count == 256 && Self.modulus[0] & 0x80 != 0)
        // The modulus without its 00 sign octet reads as a negative INTEGER.
        let der = Self.certificate { $0[TBSField.publicKey] = Self.spki(modulusContent: Self.modulus) }
        #expect(Self.parseError(der)?.kind == .encoding(.negativeInteger))
        #expect(throws: CertificateError(.encoding(.negativeInteger), at: 4)) {
            try RSAPublicKey(rsaPublicKeyDER: Self.rsaPublicKey(modulusContent: Self.modulus))
        }
        let negativeExponent = Self.rsaPublicKey(modulusContent: [0] + Self.modulus, exponentContent: [0xFF, 0xFF])
        #expect(throws: CertificateError.self) { try RSAPublicKey(rsaPublicKeyDER: negativeExponent) }
    }

    /// The 00 sign octet in front of a modulus with its top bit set is the DER encoding, not an
    /// anomaly; a redundant one is not DER.
    @Test func modulusWithLeadingZeroOctetIsAccepted() throws {
        let key = try RSAPublicKey(rsaPublicKeyDER: Self.rsaPublicKey(modulusContent: [0] + Self.modulus))
        #expect(key.modulus == Self.modulus)
        #expect(key.exponent == [0x01, 0x00, 0x01])
        #expect(key.modulusBitCount == 2048)
        let spkiKey = try RSAPublicKey(subjectPublicKeyInfoDER: Self.spki(modulusContent: [0] + Self.modulus))
        #expect(spkiKey == key)
        #expect(try Certificate(derEncoded: S.leafDER).rsaPublicKey() == TestKeys.rsa2048[2].publicKey)

        #expect(throws: CertificateError(.encoding(.nonMinimalInteger), at: 4)) {
            try RSAPublicKey(rsaPublicKeyDER: Self.rsaPublicKey(modulusContent: [0, 0] + Self.modulus))
        }
    }

    @Test func unusableRSAKeysAreRejected() {
        func kind(_ der: [UInt8]) -> CertificateError.Kind? {
            #expect(throws: CertificateError.self) { try RSAPublicKey(rsaPublicKeyDER: der) }?.kind
        }
        #expect(kind(Self.rsaPublicKey(modulusContent: [0x00])) == .invalidPublicKey)   // zero
        var even = [0] + Self.modulus
        even[even.count - 1] &= 0xFE
        #expect(kind(Self.rsaPublicKey(modulusContent: even)) == .invalidPublicKey)   // even
        #expect(kind(Self.rsaPublicKey(modulusContent: [0] + Array(Self.modulus.prefix(64)))) == .invalidPublicKey)   // 512 bits
        #expect(kind(Self.rsaPublicKey(modulusContent: [0] + Self.modulus, exponentContent: [0x01])) == .invalidPublicKey)   // e = 1
        #expect(kind(Self.rsaPublicKey(modulusContent: [0] + Self.modulus) + [0x00]) == .encoding(.trailingBytes))
        // NULL parameters are required in the SubjectPublicKeyInfo.
        #expect(throws: CertificateError.self) {
            try RSAPublicKey(subjectPublicKeyInfoDER: Self.spki(modulusContent: [0] + Self.modulus, parameters: [0x02, 0x01, 0x00]))
        }
        let spkiError = #expect(throws: CertificateError.self) {
            try RSAPublicKey(subjectPublicKeyInfoDER: Self.spki(modulusContent: [0] + Self.modulus, parameters: [0x02, 0x01, 0x00]))
        }
        #expect(spkiError?.kind == .invalidAlgorithmParameters)
    }

    /// An EC key parses in a certificate but is not an RSA key.
    @Test func ecKeyIsNotAnRSAKey() throws {
        let point: [UInt8] = [0x04] + Array(repeating: 0x11, count: 64)
        let p256 = ASN1ObjectIdentifier("1.2.840.10045.3.1.7")
        let ecSPKI = DERParts.encode { der in
            der.appendSequence { spki in
                spki.appendSequence { algorithm in
                    algorithm.appendObjectIdentifier(OIDs.ecPublicKey)
                    algorithm.appendObjectIdentifier(p256)
                }
                spki.appendBitString(point)
            }
        }
        let certificate = try Certificate(derEncoded: Self.certificate { $0[TBSField.publicKey] = ecSPKI })
        guard case .ec(let curve, let pointRange) = certificate.publicKey else {
            Issue.record("expected an EC key, got \(certificate.publicKey)")
            return
        }
        #expect(curve == p256)
        #expect(Array(certificate.storage[pointRange]) == point)
        #expect(throws: CertificateError.self) { try certificate.rsaPublicKey() }
        let error = #expect(throws: CertificateError.self) { try RSAPublicKey(subjectPublicKeyInfoDER: ecSPKI) }
        #expect(error?.kind == .invalidPublicKey)
    }

    // MARK: Wycheproof keys

    struct WycheproofGroup: Sendable {
        let index: Int
        let rsaPublicKey: [UInt8]
        let subjectPublicKeyInfo: [UInt8]
        let modulus: [UInt8]
        let exponent: [UInt8]
    }

    static func wycheproofGroups() throws -> [WycheproofGroup] {
        let data = try Fixtures.bytes("vectors/wycheproof/rsa_signature_2048_sha256_test.json")
        let json = try JSONSerialization.jsonObject(with: Data(data)) as! [String: Any]
        let groups = json["testGroups"] as! [[String: Any]]
        return groups.enumerated().map { index, group in
            let key = group["publicKey"] as! [String: String]
            return WycheproofGroup(
                index: index, rsaPublicKey: Hex.bytes(group["publicKeyAsn"] as! String),
                subjectPublicKeyInfo: Hex.bytes(group["publicKeyDer"] as! String),
                modulus: Array(Hex.bytes(key["modulus"]!).drop { $0 == 0 }),
                exponent: Array(Hex.bytes(key["publicExponent"]!).drop { $0 == 0 }))
        }
    }

    /// Each group's `publicKeyAsn` (RSAPublicKey) and `publicKeyDer` (SubjectPublicKeyInfo)
    /// parse to the group's modulus and exponent.
    @Test(.enabled(if: Fixtures.shouldRun))
    func wycheproofKeysParse() throws {
        let groups = try Self.wycheproofGroups()
        #expect(groups.count == 3)
        #expect(Set(groups.map(\.exponent)) == [[0x01, 0x00, 0x01], [0x03]])
        for group in groups {
            let fromASN = try RSAPublicKey(rsaPublicKeyDER: group.rsaPublicKey)
            let fromSPKI = try RSAPublicKey(subjectPublicKeyInfoDER: group.subjectPublicKeyInfo)
            #expect(fromASN.modulus == group.modulus, "group \(group.index)")
            #expect(fromASN.exponent == group.exponent, "group \(group.index)")
            #expect(fromASN.modulusBitCount == 2048, "group \(group.index)")
            #expect(fromSPKI == fromASN, "group \(group.index)")
            // Each is exactly one element: a trailing byte is refused.
            #expect(throws: CertificateError.self) { try RSAPublicKey(rsaPublicKeyDER: group.rsaPublicKey + [0]) }
            #expect(throws: CertificateError.self) { try RSAPublicKey(subjectPublicKeyInfoDER: group.subjectPublicKeyInfo + [0]) }
        }
    }
}
