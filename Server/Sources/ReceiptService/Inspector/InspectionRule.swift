import AppReceipt
import AppStoreJWS
import X509Certificates

/// The rule a refusal names, as the case of the library's error (`signatureInvalid`, `expired`,
/// `messageDigestMismatch`, …), and the certificate it failed on when the error names one (by
/// subject, or for an untrusted root by its encoding, whose SHA-256 the page shows). For the
/// inspector page; the words a person reads are the error's own description.
struct InspectionRule: Sendable, Equatable {
    let rule: String
    var subject: CertificateName? = nil
    var root: EncodedCertificate? = nil

    init(rule: String, subject: CertificateName? = nil, root: EncodedCertificate? = nil) {
        self.rule = rule
        self.subject = subject
        self.root = root
    }

    init(_ error: ReceiptValidationError) {
        switch error {
        case .untrusted(let reason): self.init(reason)
        case .bundleIdentifierMismatch: self.init(rule: "bundleIdentifierMismatch")
        case .appVersionMismatch: self.init(rule: "appVersionMismatch")
        case .deviceHashMismatch: self.init(rule: "deviceHashMismatch")
        }
    }

    /// The precise rule (for `untrustedOrigin`, the check that refused the data).
    init(_ error: VerificationError) {
        switch error {
        case .malformedCertificate: self.init(rule: "malformedCertificate")
        case .signerCertificateNotFound: self.init(rule: "signerCertificateNotFound")
        case .unsupportedSignatureAlgorithm: self.init(rule: "unsupportedSignatureAlgorithm")
        case .digestAlgorithmMismatch: self.init(rule: "digestAlgorithmMismatch")
        case .contentTypeMismatch: self.init(rule: "contentTypeMismatch")
        case .messageDigestMismatch: self.init(rule: "messageDigestMismatch")
        case .signatureInvalid(let subject): self.init(rule: "signatureInvalid", subject: subject)
        case .invalidPublicKey(let subject): self.init(rule: "invalidPublicKey", subject: subject)
        case .chainIncomplete(let subject): self.init(rule: "chainIncomplete", subject: subject)
        case .notTrusted(let certificate): self.init(rule: "notTrusted", root: certificate)
        case .expired(let subject, _, _): self.init(rule: "expired", subject: subject)
        case .notYetValid(let subject, _, _): self.init(rule: "notYetValid", subject: subject)
        case .notCA(let subject): self.init(rule: "notCA", subject: subject)
        case .pathLengthConstraintExceeded(let subject): self.init(rule: "pathLengthConstraintExceeded", subject: subject)
        case .missingKeyUsage(let subject, _): self.init(rule: "missingKeyUsage", subject: subject)
        case .unhandledCriticalExtension(let subject, _): self.init(rule: "unhandledCriticalExtension", subject: subject)
        case .extensionNotAccepted(let subject, _): self.init(rule: "extensionNotAccepted", subject: subject)
        case .missingAppleExtension(let subject, _): self.init(rule: "missingAppleExtension", subject: subject)
        case .missingCertificatePolicy(let subject, _): self.init(rule: "missingCertificatePolicy", subject: subject)
        case .unexpectedChainLength: self.init(rule: "unexpectedChainLength")
        case .certificateLoop(let subject): self.init(rule: "certificateLoop", subject: subject)
        case .pathTooLong: self.init(rule: "pathTooLong")
        case .budgetExceeded: self.init(rule: "budgetExceeded")
        case .rsaKeySizeNotAllowed(let subject, _): self.init(rule: "rsaKeySizeNotAllowed", subject: subject)
        case .rsaExponentNotAllowed(let subject): self.init(rule: "rsaExponentNotAllowed", subject: subject)
        case .keyTypeNotAllowed(let subject): self.init(rule: "keyTypeNotAllowed", subject: subject)
        case .issuerNotPresent(let subject): self.init(rule: "issuerNotPresent", subject: subject)
        case .multipleSignerInfos: self.init(rule: "multipleSignerInfos")
        case .ambiguousSignerCertificate: self.init(rule: "ambiguousSignerCertificate")
        case .untrustedOrigin(_, _, let rule): self.init(rule)
        }
    }

    init(_ error: JWSError) {
        switch error {
        case .tooLarge: self.init(rule: "tooLarge")
        case .notCompactSerialization: self.init(rule: "notCompactSerialization")
        case .invalidBase64URL: self.init(rule: "invalidBase64URL")
        case .invalidJSON: self.init(rule: "invalidJSON")
        case .headerNotObject: self.init(rule: "headerNotObject")
        case .invalidHeaderParameter: self.init(rule: "invalidHeaderParameter")
        case .invalidCertificateEncoding: self.init(rule: "invalidCertificateEncoding")
        case .malformedCertificate: self.init(rule: "malformedCertificate")
        case .tooManyCertificates: self.init(rule: "tooManyCertificates")
        case .invalidSignatureLength: self.init(rule: "invalidSignatureLength")
        case .payload: self.init(rule: "payload")
        case .unsupportedAlgorithm: self.init(rule: "unsupportedAlgorithm")
        case .unsupportedCriticalHeader: self.init(rule: "unsupportedCriticalHeader")
        case .missingCertificateChain: self.init(rule: "missingCertificateChain")
        case .unexpectedChainLength: self.init(rule: "unexpectedChainLength")
        case .rootNotTrusted(let certificate): self.init(rule: "rootNotTrusted", root: certificate)
        case .signingKeyNotP256(let subject): self.init(rule: "signingKeyNotP256", subject: subject)
        case .signatureInvalid(let subject): self.init(rule: "signatureInvalid", subject: subject)
        case .missingSignedDate: self.init(rule: "missingSignedDate")
        case .untrusted(let reason): self.init(reason)
        case .untrustedOrigin(_, _, let rule): self.init(rule)
        case .nested(_, let inner): self.init(inner)
        case .unexpectedBundleId: self.init(rule: "unexpectedBundleId")
        case .unexpectedAppAppleId: self.init(rule: "unexpectedAppAppleId")
        case .unexpectedEnvironment: self.init(rule: "unexpectedEnvironment")
        case .revocation: self.init(rule: "revocation")
        }
    }
}
