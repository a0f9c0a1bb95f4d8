import CryptoPrimitives
import DER

/// Why a well-formed SignedData is not trusted. Each case names the rule that failed and, where
/// one is involved, the certificate: by subject (`CertificateName`, its DER bytes) or, for a chain
/// that ends at an untrusted certificate, by its encoding (`EncodedCertificate`). No text is
/// built and nothing is hashed when an error is made, only when it is described, so the
/// verifier's failed candidates cost no formatting. Malformed input is `CertificateError`
/// instead (a SignedData's certificates are parsed, and a malformed one refused, when it is decoded).
public enum VerificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A certificate handed to a verifier as bytes is not valid DER X.509.
    case malformedCertificate(CertificateError)
    /// No embedded certificate (or policy anchor) matches the SignerInfo's identifier.
    case signerCertificateNotFound
    /// The signature algorithm cannot sign this structure (bare `rsaEncryption` on a certificate).
    case unsupportedSignatureAlgorithm
    /// `shaNWithRSAEncryption` names a hash other than the SignerInfo's digest algorithm.
    case digestAlgorithmMismatch
    /// The content-type signed attribute is not the eContentType (RFC 5652 §11.1).
    case contentTypeMismatch
    /// The message-digest signed attribute is not the content's digest (RFC 5652 §11.2).
    case messageDigestMismatch
    /// A signature (over the content or over a certificate) does not verify; `subject` is the
    /// certificate whose signature failed (for the content: the signer).
    case signatureInvalid(subject: CertificateName)
    /// The public key that must check a signature is unusable: broken, of another family than the
    /// signature algorithm (RSA for ECDSA or the reverse), or on a curve this toolkit does not implement.
    case invalidPublicKey(subject: CertificateName)
    /// No certificate (embedded or anchor) is named as this certificate's issuer.
    case chainIncomplete(subject: CertificateName)
    /// The path ends at a self-issued certificate that is not one of the policy's anchors;
    /// `certificate.fingerprint` is its SHA-256.
    case notTrusted(certificate: EncodedCertificate)
    /// The validation time is after the certificate's notAfter.
    case expired(subject: CertificateName, notAfter: Int64, at: Int64)
    /// The validation time is before the certificate's notBefore.
    case notYetValid(subject: CertificateName, notBefore: Int64, at: Int64)
    /// An issuing certificate is not a CA (basicConstraints cA absent or false, RFC 5280 §4.2.1.9).
    case notCA(subject: CertificateName)
    /// An issuing certificate's pathLenConstraint is exceeded (RFC 5280 §4.2.1.9).
    case pathLengthConstraintExceeded(subject: CertificateName)
    /// keyUsage is present without the bit the certificate's role needs (RFC 5280 §4.2.1.3).
    case missingKeyUsage(subject: CertificateName, required: KeyUsage)
    /// A critical extension that neither this verifier nor the policy processes (RFC 5280 §4.2).
    case unhandledCriticalExtension(subject: CertificateName, oid: ASN1ObjectIdentifier)
    /// A claimed critical extension whose value the policy does not accept.
    case extensionNotAccepted(subject: CertificateName, oid: ASN1ObjectIdentifier)
    /// A marker extension the policy requires is absent (e.g. Apple's 1.2.840.113635.100.6.11.1).
    case missingAppleExtension(subject: CertificateName, oid: ASN1ObjectIdentifier)
    /// A certificate policy the policy requires is absent (e.g. 1.2.840.113635.100.5.6.1).
    case missingCertificatePolicy(subject: CertificateName, oid: ASN1ObjectIdentifier)
    /// The number of intermediates differs from what the policy requires.
    case unexpectedChainLength(expectedIntermediates: Int, found: Int)
    /// Every candidate path loops back to a certificate already in it.
    case certificateLoop(subject: CertificateName)
    /// Paths longer than `ChainBuilder.maxIntermediates` are not followed.
    case pathTooLong
    /// The message used up its `VerificationBudget` of public-key operations.
    case budgetExceeded
    /// An RSA key whose size the policy's genuine chains never use (`PublicKeyRules.rsaModulusBits`).
    case rsaKeySizeNotAllowed(subject: CertificateName, bits: Int)
    /// An RSA key whose public exponent is not the one the policy allows (`PublicKeyRules.rsaExponent`).
    case rsaExponentNotAllowed(subject: CertificateName)
    /// A key of a type or on a curve the policy does not allow (RSA under a signed-data policy,
    /// an unimplemented curve, an unknown algorithm).
    case keyTypeNotAllowed(subject: CertificateName)
    /// A certificate whose issuer is neither among the message's certificates nor an anchor: it
    /// cannot lead to an anchor (`TrustPolicy.requiresKnownIssuers`).
    case issuerNotPresent(subject: CertificateName)
    /// More than one SignerInfo where the policy wants one (`TrustPolicy.requiresSingleSigner`).
    case multipleSignerInfos(count: Int)
    /// The SignerInfo's identifier names several different certificates (`TrustPolicy.requiresSingleSigner`).
    case ambiguousSignerCertificate(count: Int)
    /// The data comes from an origin the policy does not trust (`policy` is its name): Xcode's
    /// StoreKit testing under an App Store policy, or the App Store under an Xcode policy.
    /// `rule` is the precise check that refused it. See `TrustPolicy.explainingRefusal`.
    indirect case untrustedOrigin(SignerOrigin, policy: String, rule: VerificationError)

    public var description: String {
        switch self {
        case .malformedCertificate(let error): return "malformed certificate: \(error)"
        case .signerCertificateNotFound: return "signer certificate not found"
        case .unsupportedSignatureAlgorithm: return "unsupported signature algorithm"
        case .digestAlgorithmMismatch: return "digest algorithm does not match the signature algorithm"
        case .contentTypeMismatch: return "content-type attribute does not match the content"
        case .messageDigestMismatch: return "message-digest attribute does not match the content"
        case .signatureInvalid(let subject): return "signature invalid (\(subject))"
        case .invalidPublicKey(let subject): return "unusable public key (\(subject))"
        case .chainIncomplete(let subject): return "chain incomplete: no issuer for \(subject)"
        case .notTrusted(let certificate): return "not trusted: chain ends at certificate SHA-256 \(certificate.fingerprint)"
        case .expired(let subject, let notAfter, let at):
            return "certificate expired (\(subject)): notAfter \(Self.text(notAfter)) is before \(Self.text(at))"
        case .notYetValid(let subject, let notBefore, let at):
            return "certificate not yet valid (\(subject)): notBefore \(Self.text(notBefore)) is after \(Self.text(at))"
        case .notCA(let subject): return "issuer is not a CA (\(subject))"
        case .pathLengthConstraintExceeded(let subject): return "path length constraint exceeded (\(subject))"
        case .missingKeyUsage(let subject, let required): return "key usage \(required.rawValue) missing (\(subject))"
        case .unhandledCriticalExtension(let subject, let oid): return "unhandled critical extension \(oid) (\(subject))"
        case .extensionNotAccepted(let subject, let oid): return "extension \(oid) not accepted by the policy (\(subject))"
        case .missingAppleExtension(let subject, let oid): return "missing required extension \(oid) (\(subject))"
        case .missingCertificatePolicy(let subject, let oid): return "missing certificate policy \(oid) (\(subject))"
        case .unexpectedChainLength(let expected, let found): return "expected \(expected) intermediate certificate(s), found \(found)"
        case .certificateLoop(let subject): return "certificate loop at \(subject)"
        case .pathTooLong: return "certificate path too long"
        case .budgetExceeded:
            return "more than \(VerificationBudget.maxPublicKeyOperations) public-key operations needed: verification budget exceeded"
        case .rsaKeySizeNotAllowed(let subject, let bits): return "RSA key of \(bits) bits not allowed by the policy (\(subject))"
        case .rsaExponentNotAllowed(let subject): return "RSA public exponent not allowed by the policy (\(subject))"
        case .keyTypeNotAllowed(let subject): return "key type or curve not allowed by the policy (\(subject))"
        case .issuerNotPresent(let subject): return "issuer of \(subject) is neither in the message nor an anchor"
        case .multipleSignerInfos(let count): return "\(count) SignerInfos where the policy allows one"
        case .ambiguousSignerCertificate(let count): return "the SignerInfo names \(count) different certificates"
        case .untrustedOrigin(let origin, let policy, _):
            return origin.refusal(byPolicyNamed: policy)
        }
    }

    static func text(_ seconds: Int64) -> String { CivilTime.text(secondsSince1970: seconds) }

    /// How specific the error is when several candidate paths fail: the search reports the
    /// failure of highest rank (the path that got furthest wins ties of depth).
    package var rank: Int {
        switch self {
        case .unexpectedChainLength, .missingAppleExtension, .missingCertificatePolicy, .extensionNotAccepted,
            .unhandledCriticalExtension, .missingKeyUsage, .notCA, .pathLengthConstraintExceeded:
            return 9
        case .expired, .notYetValid: return 8
        case .notTrusted: return 7
        case .signatureInvalid, .invalidPublicKey: return 6
        case .unsupportedSignatureAlgorithm: return 5
        case .certificateLoop: return 4
        case .pathTooLong: return 3
        case .chainIncomplete: return 2
        // Every other case, named so that a new one must be ranked here.
        case .malformedCertificate, .signerCertificateNotFound, .digestAlgorithmMismatch, .contentTypeMismatch,
            .messageDigestMismatch, .budgetExceeded, .rsaKeySizeNotAllowed, .rsaExponentNotAllowed, .keyTypeNotAllowed,
            .issuerNotPresent, .multipleSignerInfos, .ambiguousSignerCertificate, .untrustedOrigin:
            return 1
        }
    }
}
