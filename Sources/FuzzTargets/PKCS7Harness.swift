import CryptoPrimitives
import DER
import PKCS7
import X509Certificates

/// `pkcs7`: `SignedData(berEncoded:)` on any input.
///
/// - A failure reports an offset inside the input.
/// - A decoded SignedData: version 1 or 3; content range, certificate ranges, every SignerInfo
///   range (identifier, signature, signed attributes and their two values) inside the input;
///   certificates in order without overlap and at most `PKCS7Limits.maxCertificates`; 1 to
///   `PKCS7Limits.maxSignerInfos` SignerInfos whose version matches their identifier; the
///   content read in place, joined, segment by segment and hashed all agree.
/// - Signed attributes are strict DER (they are what the signature covers).
/// - Every embedded certificate is parsed while decoding and satisfies the `certificate`
///   harness's invariants; when one is malformed, the error names its index, and that element
///   parsed alone by `Certificate(derEncoded:)` fails with the same kind at the same place.
/// - Verification under a policy trusting every anchor (synthetic root, Apple Root CA, StoreKit)
///   succeeds only for genuinely signed content, through a chain of genuinely signed
///   certificates, and never finds a malformed certificate (decoding has parsed them all).
enum PKCS7Harness {
    static let check = Checker(harness: "pkcs7")

    static func check(_ input: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let bytes = Array(input)
        let signedData: SignedData
        do {
            signedData = try SignedData(berEncoded: bytes)
        } catch {
            _ = error.description
            try check.expect(offset: error.offset, within: 0 ..< bytes.count, "SignedData(berEncoded:)")
            if case .embeddedCertificate(let index, let kind) = error.kind {
                try checkCertificateError(index: index, kind: kind, at: error.offset, bytes, check: check)
            }
            return
        }
        try checkDecoded(signedData, bytes, check: check)
        try checkVerification(signedData, bytes)
    }

    /// Invariants of a decoded SignedData (shared with the receipt harness).
    static func checkDecoded(_ signedData: SignedData, _ bytes: [UInt8], check: Checker, certificates checksCertificates: Bool = true)
        throws(InvariantViolation)
    {
        let whole = 0 ..< bytes.count
        try check.expect(signedData.storage == bytes, "storage is not the input")
        try check.expect(signedData.version == 1 || signedData.version == 3, "version \(signedData.version)")

        // Content: in place, joined, by segment and hashed, all the same octets.
        let joined = signedData.contentBytes()
        try check.expect(joined.count == signedData.contentCount, "contentBytes count \(joined.count), contentCount \(signedData.contentCount)")
        if let range = signedData.contentRange {
            try check.expect(range, within: whole, "content")
            try check.expect(range.count == signedData.contentCount && joined.elementsEqual(bytes[range]), "contiguous content")
        }
        var segments: [UInt8] = []
        var inside = true
        bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress
            signedData.forEachContentSegment { segment in
                segments += segment
                if let start = segment.baseAddress, let base, segment.count > 0 {
                    inside = inside && start >= base && start + segment.count <= base + raw.count
                }
            }
        }
        try check.expect(inside, "a content segment lies outside the input")
        try check.expect(segments == joined, "content segments differ from contentBytes")
        let viaClosure = signedData.withContent { Array($0) }
        try check.expect(viaClosure == joined, "withContent differs from contentBytes")
        try check.expect(signedData.contentDigest(.sha256) == SHA256.hash(joined), "contentDigest")

        // Certificates: parsed, inside, in order, bounded.
        try check.expect(signedData.certificates.count <= PKCS7Limits.maxCertificates, "too many certificates accepted")
        try check.expect(signedData.certificateRanges == signedData.certificates.map(\.range), "certificateRanges")
        var end = 0
        for certificate in signedData.certificates {
            let range = certificate.range
            try check.expect(range, within: whole, "certificate")
            try check.expect(range.lowerBound >= end && !range.isEmpty, "certificates overlap or are empty")
            try check.expect(bytes[range.lowerBound] == 0x30, "certificate does not start with a SEQUENCE")
            end = range.upperBound
        }

        // SignerInfos.
        try check.expect(
            (1 ... PKCS7Limits.maxSignerInfos).contains(signedData.signerInfos.count),
            "\(signedData.signerInfos.count) SignerInfos accepted")
        for signer in signedData.signerInfos {
            try check.expect(signer.signatureRange, within: whole, "signature")
            switch signer.identifier {
            case .issuerAndSerialNumber(let issuer, let serial):
                try check.expect(signer.version == 1, "issuerAndSerialNumber with version \(signer.version)")
                try check.expect(issuer, within: whole, "signer issuer")
                try check.expect(serial, within: whole, "signer serial")
                try check.expect(issuer.upperBound <= serial.lowerBound, "signer serial before issuer")
            case .subjectKeyIdentifier(let identifier):
                try check.expect(signer.version == 3, "subjectKeyIdentifier with version \(signer.version)")
                try check.expect(identifier, within: whole, "signer key identifier")
            }
            if let attributes = signer.signedAttributes {
                try check.expect(attributes.range, within: whole, "signed attributes")
                try check.expect(attributes.contentTypeRange, within: attributes.range, "content-type attribute")
                try check.expect(attributes.messageDigestRange, within: attributes.range, "message-digest attribute")
                try check.expect(bytes[attributes.range.lowerBound] == 0xA0, "signed attributes not tagged [0]")
                try check.expect(attributes.range.upperBound <= signer.signatureRange.lowerBound, "signed attributes after the signature")
                if !SkippableCheck.strictDER.isSkipped { try DERHarness.checkStrictDER(bytes, attributes.range, "signed attributes", check: check) }
            }
        }

        // Each certificate as the certificate harness sees it.
        guard checksCertificates else { return }
        for certificate in signedData.certificates {
            try CertificateHarness.checkParsed(certificate, storage: bytes, range: certificate.range, check: check)
            if !SkippableCheck.strictDER.isSkipped { try CertificateHarness.checkStrict(certificate, check: check) }
        }
    }

    /// A malformed embedded certificate: `index` is a certificate of the set, and that element
    /// parsed alone fails with the same kind at the same place within it.
    static func checkCertificateError(
        index: Int, kind: CertificateError.Kind, at offset: Int, _ bytes: [UInt8],
        check: Checker
    ) throws(InvariantViolation) {
        try check.expect(index >= 0 && index < PKCS7Limits.maxCertificates, "certificate index \(index)")
        guard let range = certificateElement(index, in: bytes) else {
            throw check.fail("certificate \(index) named by the error is not in the input's certificates set")
        }
        try check.expect(offset: offset, within: range, "certificate \(index) error")
        let alone = Result { () throws(CertificateError) in try Certificate(derEncoded: Array(bytes[range])) }
        guard case .failure(let error) = alone else { throw check.fail("certificate \(index) parses alone but not in the envelope") }
        try check.expect(
            error.kind == kind && error.offset == offset - range.lowerBound,
            "certificate \(index): \(kind) at \(offset) in the envelope, \(error.kind) at \(error.offset) alone")
    }

    /// Where element `index` of the SignedData's `certificates` set lies, found with the plain
    /// BER reader (ContentInfo → [0] → SignedData → after version, digestAlgorithms and
    /// encapContentInfo, the `[0]` set).
    static func certificateElement(_ index: Int, in bytes: [UInt8]) -> Range<Int>? {
        bytes.withUnsafeBytes { raw -> Range<Int>? in
            do throws(ASN1Error) {
                var outer = ASN1Reader(raw, rules: .ber)
                var contentInfo = try outer.readSequence()
                _ = try contentInfo.readElement()
                var explicit = try contentInfo.read(.contextSpecific(0)).children()
                var fields = try explicit.readSequence()
                for _ in 0 ..< 3 { _ = try fields.readElement() }
                guard let set = try fields.readOptional(.contextSpecific(0)) else { return nil }
                var entries = try set.children()
                for _ in 0 ..< index { _ = try entries.readElement() }
                return try entries.readElement().range
            } catch {
                return nil
            }
        }
    }

    /// Verification under every anchor at once: success only for genuine content and chains.
    static func checkVerification(_ signedData: SignedData, _ bytes: [UInt8]) throws(InvariantViolation) {
        let verifier = SignedDataVerifier(policy: FuzzPolicies.permissive)
        let result = Result { () throws(VerificationError) in try verifier.verify(signedData, at: 1_700_000_000) }
        switch result {
        case .success(let verified):
            try check.expect(signedData.signerInfos.indices.contains(verified.signerIndex), "signer index")
            try checkGenuine(signedData, chain: verified.chain, family: .any, check: check)
        case .failure(let error):
            _ = error.description
            if case .malformedCertificate = error { throw check.fail("verification found a malformed certificate decoding let through: \(error)") }
        }
    }

    /// What verified is genuine: the content and every certificate of the chain were signed by
    /// someone, not made up by a mutation.
    static func checkGenuine(_ signedData: SignedData, chain: [Certificate], family: KnownGood.Family, check: Checker) throws(InvariantViolation) {
        try check.expect(!chain.isEmpty, "verified with an empty chain")
        try check.expect(
            KnownGood.isKnownContent(signedData.contentDigest(.sha256).bytes, family),
            "content nobody signed verified (SHA-256 \(signedData.contentDigest(.sha256)))")
        for certificate in chain {
            try check.expect(
                KnownGood.isKnownTBS(SHA256.hash(Array(certificate.tbsCertificate)).bytes),
                "a certificate nobody signed is in a verified chain: \(certificate.subjectDescription)")
        }
    }
}
