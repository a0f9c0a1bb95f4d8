import X509Certificates

/// The three parts of a compact JWS (RFC 7515 §7.1).
public enum JWSPart: String, Sendable, Hashable {
    /// The JOSE header, the payload and the signature, in token order.
    case header, payload, signature
}

/// Why a token is not accepted. Each case names the rule; `category` tells a malformed token
/// (exit 2, HTTP 400) from one that is well-formed but not authentic (exit 1, HTTP 401) and from
/// an authentic one that is not for this caller.
public indirect enum JWSError: Error, Sendable, Hashable, CustomStringConvertible {
    // Malformed.
    /// The token is longer than `JWSLimits.maxTokenSize`.
    case tooLarge(count: Int)
    /// Not three base64url parts separated by two dots (RFC 7515 §7.1).
    case notCompactSerialization
    /// A part that is not unpadded base64url (RFC 7515 §2): padding, `+`, `/`, whitespace, or a
    /// non-canonical last character.
    case invalidBase64URL(JWSPart)
    /// The header or payload is not JSON.
    case invalidJSON(JWSPart, JSONError)
    /// The header is JSON but not an object (RFC 7515 §4).
    case headerNotObject
    /// A header parameter of the wrong type (`alg` not a string, `x5c` not an array of strings, …).
    case invalidHeaderParameter(String)
    /// An `x5c` entry that is not padded standard base64 (RFC 7515 §4.1.6).
    case invalidCertificateEncoding(index: Int)
    /// An `x5c` entry that is not a DER X.509 certificate read to its grammar.
    case malformedCertificate(index: Int, CertificateError)
    /// More `x5c` entries than `JWSLimits.maxCertificates`.
    case tooManyCertificates(count: Int)
    /// An ES256 signature is r ‖ s, exactly 64 bytes (RFC 7518 §3.4).
    case invalidSignatureLength(Int)
    /// The payload is not what the typed decoder reads.
    case payload(JWSPayloadError)

    // Not authentic.
    /// `alg` is not `ES256` (`nil`: absent). Checked before anything else; no other algorithm is
    /// ever chosen by the token.
    case unsupportedAlgorithm(String?)
    /// The header lists critical extensions (RFC 7515 §4.1.11), none of which this verifier knows.
    case unsupportedCriticalHeader
    /// The header has no `x5c` chain.
    case missingCertificateChain
    /// `x5c` does not hold the number of certificates the policy requires (App Store: leaf,
    /// intermediate, root).
    case unexpectedChainLength(expected: Int, found: Int)
    /// The last `x5c` certificate is not byte for byte one of the policy's anchors;
    /// `certificate.fingerprint` is its SHA-256.
    case rootNotTrusted(certificate: EncodedCertificate)
    /// The signing certificate's key is not an ECDSA P-256 key (ES256, RFC 7518 §3.4).
    case signingKeyNotP256(subject: CertificateName)
    /// The signature does not verify with the signing certificate's key.
    case signatureInvalid(subject: CertificateName)
    /// No validation time: the payload has no `signedDate` (or, for an app transaction,
    /// `receiptCreationDate`) and the caller gave none.
    case missingSignedDate
    /// The certificate path fails the policy (expired at the signing date, an Apple OID missing, …).
    case untrusted(VerificationError)

    /// The token comes from an origin the policy does not trust (`policy` is its name): Xcode's
    /// StoreKit testing under the App Store policy, or the App Store under the Xcode policy.
    /// `rule` is the precise check that refused it (see `TrustPolicy.foreignOrigin`).
    case untrustedOrigin(SignerOrigin, policy: String, rule: JWSError)
    /// A token nested in a notification (`data.signedTransactionInfo`, …) fails; its category is
    /// the nested failure's.
    case nested(member: String, JWSError)
    /// The verifier's `RevocationChecker` (`JWSVerifier.revocation`) found a certificate of the
    /// path revoked or named no responder (not authentic), or could not get a status now
    /// (`Category.revocationUnavailable`: retry later).
    case revocation(RevocationCheckError)

    // Authentic, but not for this caller.
    /// The payload's `bundleId` is not the expected one.
    case unexpectedBundleId(expected: String, found: String?)
    /// The payload's `appAppleId` is not the expected one (checked in production).
    case unexpectedAppAppleId(expected: Int64, found: Int64?)
    /// The payload's `environment` is not the expected one.
    case unexpectedEnvironment(expected: String, found: String?)

    /// The three outcomes callers act on.
    public enum Category: Sendable, Hashable {
        /// The bytes are not a token this toolkit reads.
        case malformed
        /// A well-formed token that is not authentic under the policy.
        case notAuthentic
        /// An authentic token for another app or environment.
        case unexpectedValue
        /// A token whose path verified but whose revocation status could not be had now (a
        /// responder unreachable, slow, or answering badly): a later attempt may succeed. Only a
        /// verifier given a `RevocationChecker` answers this.
        case revocationUnavailable
    }

    /// Which of the three outcomes this error is.
    public var category: Category {
        switch self {
        case .tooLarge, .notCompactSerialization, .invalidBase64URL, .invalidJSON, .headerNotObject, .invalidHeaderParameter,
            .invalidCertificateEncoding, .malformedCertificate, .tooManyCertificates, .invalidSignatureLength, .payload:
            .malformed
        case .unsupportedAlgorithm, .unsupportedCriticalHeader, .missingCertificateChain, .unexpectedChainLength,
            .rootNotTrusted, .signingKeyNotP256, .signatureInvalid, .missingSignedDate, .untrusted, .untrustedOrigin:
            .notAuthentic
        case .unexpectedBundleId, .unexpectedAppAppleId, .unexpectedEnvironment:
            .unexpectedValue
        case .nested(_, let error):
            error.category
        case .revocation(.revoked), .revocation(.noResponder), .revocation(.unknownCertificate):
            .notAuthentic
        case .revocation(.unavailable), .revocation(.responseRefused):
            .revocationUnavailable
        }
    }

    public var description: String {
        switch self {
        case .tooLarge(let count): "token of \(count) bytes exceeds \(JWSLimits.maxTokenSize)"
        case .notCompactSerialization: "not a compact JWS: expected three base64url parts separated by dots"
        case .invalidBase64URL(let part): "\(part.rawValue) is not unpadded base64url"
        case .invalidJSON(let part, let error): "\(part.rawValue) is not JSON: \(error)"
        case .headerNotObject: "header is not a JSON object"
        case .invalidHeaderParameter(let name): "header parameter \"\(name)\" has the wrong type"
        case .invalidCertificateEncoding(let index): "x5c[\(index)] is not padded base64"
        case .malformedCertificate(let index, let error): "x5c[\(index)] is not a valid certificate: \(error)"
        case .tooManyCertificates(let count): "x5c holds \(count) certificates, more than \(JWSLimits.maxCertificates)"
        case .invalidSignatureLength(let count): "ES256 signature of \(count) bytes, expected 64"
        case .payload(let error): "payload: \(error)"
        case .unsupportedAlgorithm(let name): "algorithm \(name.map { "\"\($0)\"" } ?? "absent"): only ES256 is accepted"
        case .unsupportedCriticalHeader: "header lists critical extensions (crit) this verifier does not process"
        case .missingCertificateChain: "header has no x5c certificate chain"
        case .unexpectedChainLength(let expected, let found): "x5c holds \(found) certificate(s), the policy requires \(expected)"
        case .rootNotTrusted(let certificate): "not trusted: x5c ends at certificate SHA-256 \(certificate.fingerprint)"
        case .signingKeyNotP256(let subject): "signing key is not ECDSA P-256 (\(subject))"
        case .signatureInvalid(let subject): "signature invalid (\(subject))"
        case .missingSignedDate: "payload has no signedDate: give a validation time"
        case .untrusted(let error): "not valid: \(error)"
        case .untrustedOrigin(let origin, let policy, let rule): "\(origin.refusal(byPolicyNamed: policy)) (\(rule))"
        case .nested(let member, let error): "\(member): \(error)"
        case .revocation(let error): "\(error)"
        case .unexpectedBundleId(let expected, let found): "bundle id \(found ?? "absent"), expected \(expected)"
        case .unexpectedAppAppleId(let expected, let found): "app Apple id \(found.map(String.init) ?? "absent"), expected \(expected)"
        case .unexpectedEnvironment(let expected, let found): "environment \(found ?? "absent"), expected \(expected)"
        }
    }
}

extension JWSError {
    /// The line a person reads for a refused token: `malformed signed data: REASON`, or
    /// `not valid: REASON` with, for data from the other world than the policy's, the advice
    /// `SignerOrigin.hint(for:switches:)` gives (the `receipt` tool's stderr line; the inspector
    /// page's text). With the `policy` it was verified under, a last certificate that is no
    /// anchor says which anchors were in use (`TrustExplanation`). `switches` are the program's
    /// own, which the advice names.
    public func refusalMessage(policy: TrustPolicy?, switches: HintSwitches) -> String {
        switch category {
        case .malformed: return "malformed signed data: \(self)"
        case .notAuthentic, .unexpectedValue, .revocationUnavailable:
            if case .untrustedOrigin(let origin, _, _) = self { return "not valid: \(self); \(origin.hint(for: "token", switches: switches))" }
            if let policy, let certificate = untrustedRoot {
                return "not valid: \(self); \(TrustExplanation.notTrustedHint(certificate: certificate, policy: policy, switches: switches))"
            }
            return "not valid: \(self)"
        }
    }

    /// The certificate a refused chain ended at, when that was the refusal.
    var untrustedRoot: EncodedCertificate? {
        switch self {
        case .rootNotTrusted(let certificate), .untrusted(.notTrusted(let certificate)): return certificate
        default: return nil
        }
    }
}

/// Bounds on tokens taken from outside.
public enum JWSLimits: Sendable {
    /// Longest token accepted. Apple's largest, a notification carrying two nested tokens, is
    /// about 16 KiB; the bound leaves room while keeping every check linear and small.
    public static let maxTokenSize = 256 << 10
    /// Most `x5c` entries (Apple's chains hold three; Xcode's one).
    public static let maxCertificates = 8
}
