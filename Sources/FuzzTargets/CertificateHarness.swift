import CryptoPrimitives
import DER
import PKCS7
import X509Certificates

/// `certificate`: `Certificate(derEncoded:)` on any input.
///
/// - A failure reports an offset inside the input.
/// - A parsed certificate fills the input; its fields lie inside `tbsCertificate` in the order
///   RFC 5280 §4.1 gives (serial, issuer, subject, subjectPublicKeyInfo), the signature after it;
///   a v1/v2 certificate has no extensions; extensions are unique and the unhandled critical ones
///   are among them; key ranges lie inside the SubjectPublicKeyInfo.
/// - It is strict DER throughout (DESIGN §3: the bytes a signature covers have exactly one
///   reading): the input walks under DER and rebuilds byte for byte.
/// - Issuer and subject keep to the Name grammar, read here independently of the library's
///   parser: a SEQUENCE of non-empty SETs in DER order of SEQUENCE { OID, one element }, the issuer
///   non-empty, countryName a two-character PrintableString, commonName, organizationName and
///   organizationalUnitName a valid DirectoryString; both describe as text, never as malformed.
/// - `rsaPublicKey()` agrees with `RSAPublicKey(subjectPublicKeyInfoDER:)`; the fingerprint is
///   the SHA-256 of the input.
/// - Its signature, checked with its own key and with the synthetic chain's, Apple Root CA's
///   and the StoreKit certificate's keys, verifies only over a `tbsCertificate` someone signed.
enum CertificateHarness {
    static let check = Checker(harness: "certificate")

    static func check(_ input: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let bytes = Array(input)
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: bytes)
        } catch {
            _ = error.description
            try check.expect(offset: error.offset, within: 0 ..< bytes.count, "Certificate(derEncoded:)")
            return
        }
        try checkParsed(certificate, storage: bytes, range: 0 ..< bytes.count, check: check)
        if !SkippableCheck.strictDER.isSkipped { try checkStrict(certificate, check: check) }
    }

    /// Invariants of a certificate parsed from `storage[range]`.
    static func checkParsed(_ certificate: Certificate, storage: [UInt8], range: Range<Int>, check: Checker) throws(InvariantViolation) {
        try check.expect(certificate.storage == storage, "certificate storage is not the input")
        try check.expect(certificate.range == range, "certificate range \(certificate.range), expected \(range)")
        let tbs = certificate.tbsRange
        try check.expect(tbs, within: range, "tbsCertificate")
        try check.expect(tbs.lowerBound > range.lowerBound && tbs.upperBound < range.upperBound, "tbsCertificate fills the certificate")
        for (name, field) in [
            ("serial", certificate.serialRange), ("issuer", certificate.issuerRange),
            ("subject", certificate.subjectRange), ("subjectPublicKeyInfo", certificate.publicKeyInfoRange),
        ] {
            try check.expect(field, within: tbs, name)
        }
        try check.expect(
            certificate.serialRange.upperBound <= certificate.issuerRange.lowerBound
                && certificate.issuerRange.upperBound < certificate.subjectRange.lowerBound
                && certificate.subjectRange.upperBound == certificate.publicKeyInfoRange.lowerBound,
            "tbsCertificate fields out of order")
        try check.expect(certificate.signatureRange, within: tbs.upperBound ..< range.upperBound, "signature")
        try check.expect(certificate.signatureRange.upperBound == range.upperBound, "signature does not end the certificate")
        try check.expect((1 ... 3).contains(certificate.version), "version \(certificate.version)")
        let extensions = certificate.extensions
        if certificate.version < 3 {
            try check.expect(extensions.identifiers.isEmpty, "extensions in a v\(certificate.version) certificate")
        }
        try check.expect(Set(extensions.identifiers).count == extensions.identifiers.count, "duplicate extension accepted")
        try check.expect(extensions.unhandledCritical.allSatisfy(extensions.identifiers.contains), "unhandled critical extension not listed")
        if let path = extensions.basicConstraints?.pathLength { try check.expect(path >= 0, "negative pathLenConstraint") }
        for list in [extensions.extendedKeyUsage, extensions.policies].compactMap({ $0 }) {
            try check.expect(!list.isEmpty, "empty extension list accepted")
        }

        switch certificate.publicKey {
        case .rsa(let modulus, let exponent):
            try check.expect(modulus, within: certificate.publicKeyInfoRange, "RSA modulus")
            try check.expect(exponent, within: certificate.publicKeyInfoRange, "RSA exponent")
            try check.expect(modulus.upperBound <= exponent.lowerBound, "RSA modulus after exponent")
        case .ec(_, let point):
            try check.expect(point, within: certificate.publicKeyInfoRange, "EC point")
        case .other:
            break
        }
        let key = try? certificate.rsaPublicKey()
        let again = try? RSAPublicKey(subjectPublicKeyInfoDER: Array(certificate.publicKeyInfo))
        try check.expect(key == again, "rsaPublicKey() disagrees with RSAPublicKey(subjectPublicKeyInfoDER:)")
        if let key, case .rsa(let modulus, let exponent) = certificate.publicKey {
            try check.expect(key.modulus.elementsEqual(storage[modulus].drop { $0 == 0 }), "RSA modulus value")
            try check.expect(key.exponent.elementsEqual(storage[exponent].drop { $0 == 0 }), "RSA exponent value")
        }

        try check.expect(certificate.fingerprint == SHA256.hash(Array(storage[range])), "fingerprint")
        try check.expect(
            certificate.isValid(at: certificate.notBefore) == (certificate.notBefore <= certificate.notAfter)
                && !certificate.isValid(at: certificate.notAfter &+ 1) || certificate.notAfter == Int64.max,
            "isValid at the ends of the validity period")
        try check.expect(certificate.isSelfIssued == (certificate.issuer == certificate.subject), "isSelfIssued")
        try NameInvariants.check(certificate.issuer, "issuer", check: check)
        try NameInvariants.check(certificate.subject, "subject", check: check)
        try check.expect(certificate.issuer.count > 2, "empty issuer accepted")
        try check.expect(
            certificate.subjectDescription != "<malformed name>" && certificate.issuerDescription != "<malformed name>",
            "a parsed name does not describe")
        _ = TrustAnchor(certificate: certificate).fingerprint

        // The signature verifies only over a tbsCertificate someone signed.
        guard case .rsaWithHash(let hash) = certificate.signatureAlgorithm else { return }
        let digest = hash.hash(Array(certificate.tbsCertificate))
        let signature = Array(certificate.signature)
        for issuerKey in [key].compactMap({ $0 }) + FuzzPolicies.issuerKeys
        where issuerKey.isValidSignature(signature, digest: digest, algorithm: hash) {
            try check.expect(
                KnownGood.isKnownTBS(SHA256.hash(Array(certificate.tbsCertificate)).bytes),
                "a signature verifies over a tbsCertificate nobody signed")
        }
    }

    /// A certificate is read as strict DER: every element of it, nested ones included (names,
    /// policy qualifiers, parameters it does not interpret), is DER and rebuilds to the same bytes.
    static func checkStrict(_ certificate: Certificate, check: Checker) throws(InvariantViolation) {
        try DERHarness.checkStrictDER(certificate.storage, certificate.range, "certificate", check: check)
    }
}
