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
/// - Embedded certificates parse as a whole or report an offset inside one of them, and each
///   satisfies the `certificate` harness's invariants.
/// - Verification under a policy trusting every anchor (synthetic root, Apple Root CA, StoreKit)
///   succeeds only for genuinely signed content, through a chain of genuinely signed certificates.
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
            return
        }
        try checkDecoded(signedData, bytes, check: check)
        try checkVerification(signedData, bytes)
    }

    /// Invariants of a decoded SignedData (shared with the receipt harness).
    static func checkDecoded(_ signedData: SignedData, _ bytes: [UInt8], check: Checker, certificates checksCertificates: Bool = true) throws(InvariantViolation) {
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

        // Certificates: inside, in order, bounded.
        try check.expect(signedData.certificateRanges.count <= PKCS7Limits.maxCertificates, "too many certificates accepted")
        var end = 0
        for range in signedData.certificateRanges {
            try check.expect(range, within: whole, "certificate")
            try check.expect(range.lowerBound >= end && !range.isEmpty, "certificates overlap or are empty")
            try check.expect(bytes[range.lowerBound] == 0x30, "certificate does not start with a SEQUENCE")
            end = range.upperBound
        }

        // SignerInfos.
        try check.expect((1 ... PKCS7Limits.maxSignerInfos).contains(signedData.signerInfos.count),
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

        // Certificates parse as a whole, or fail inside one of them.
        guard checksCertificates else { return }
        do {
            let certificates = try signedData.certificates()
            try check.expect(certificates.count == signedData.certificateRanges.count, "certificates() count")
            for (certificate, range) in zip(certificates, signedData.certificateRanges) {
                try CertificateHarness.checkParsed(certificate, storage: bytes, range: range, check: check)
                if !SkippableCheck.strictDER.isSkipped { try CertificateHarness.checkStrict(certificate, check: check) }
            }
        } catch let violation as InvariantViolation {
            throw violation
        } catch {
            guard let error = error as? PKCS7Error else { throw check.fail("certificates() threw \(error)") }
            try check.expect(signedData.certificateRanges.contains { $0.lowerBound <= error.offset && error.offset <= $0.upperBound },
                             "certificate error offset \(error.offset) outside every certificate")
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
            if case .malformedCertificate(let malformed) = error {
                try check.expect(offset: malformed.offset, within: 0 ..< bytes.count, "malformed certificate")
            }
        }
    }

    /// What verified is genuine: the content and every certificate of the chain were signed by
    /// someone, not made up by a mutation.
    static func checkGenuine(_ signedData: SignedData, chain: [Certificate], family: KnownGood.Family, check: Checker) throws(InvariantViolation) {
        try check.expect(!chain.isEmpty, "verified with an empty chain")
        try check.expect(KnownGood.isKnownContent(signedData.contentDigest(.sha256).bytes, family),
                         "content nobody signed verified (SHA-256 \(signedData.contentDigest(.sha256)))")
        for certificate in chain {
            try check.expect(KnownGood.isKnownTBS(SHA256.hash(Array(certificate.tbsCertificate)).bytes),
                             "a certificate nobody signed is in a verified chain: \(certificate.subjectDescription)")
        }
    }
}
