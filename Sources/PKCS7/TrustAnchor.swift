import CryptoPrimitives
import DER

/// A certificate trusted by configuration, not by anything a receipt carries. Paths end at an
/// anchor; its own signature is not checked (RFC 5280 §6.1: the trust anchor is an input to path
/// validation), but its validity period, critical extensions and CA constraints are, as most
/// verifiers do (a root with pathLenConstraint 0 cannot sign through two intermediates).
public struct TrustAnchor: Sendable {
    public let certificate: Certificate
    /// SHA-256 of the certificate's DER.
    public let fingerprint: Digest

    public init(certificate: Certificate) {
        self.certificate = certificate
        fingerprint = certificate.fingerprint
    }

    /// Parses a DER certificate to use as an anchor.
    public init(derEncoded der: [UInt8]) throws(PKCS7Error) {
        self.init(certificate: try Certificate(derEncoded: der))
    }

    /// Pinned SHA-256 of Apple Root CA.
    public static let appleRootCAFingerprint = "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024"
    /// Pinned SHA-256 of the StoreKit testing certificate.
    public static let storeKitTestingFingerprint = "ff0ba36e721d2db741d2aa11e6112ef78bf7131b46c7f035b00891d045c864fe"

    /// Apple Root CA, embedded; `nil` if the embedded bytes do not match the pinned fingerprint
    /// (then the App Store policy has no anchor and trusts nothing).
    public static let appleRootCA: TrustAnchor? = pinned(EmbeddedCertificates.appleRootCA, appleRootCAFingerprint)

    /// The StoreKit testing certificate, embedded and pinned like `appleRootCA`.
    public static let storeKitTesting: TrustAnchor? = pinned(EmbeddedCertificates.storeKitTesting, storeKitTestingFingerprint)

    private static func pinned(_ der: [UInt8], _ fingerprint: String) -> TrustAnchor? {
        guard let anchor = try? TrustAnchor(derEncoded: der), anchor.fingerprint.description == fingerprint else { return nil }
        return anchor
    }
}

/// Which anchors a verifier trusts and which Apple-specific rules it enforces. Chosen by the
/// caller, never by anything inside the receipt.
public struct TrustPolicy: Sendable {
    /// A short name for messages (`appstore`, `xcode`, `custom`).
    public var name: String
    /// Where paths may end.
    public var anchors: [TrustAnchor]
    /// How many intermediates must sit between signer and anchor (`nil`: any number).
    public var requiredIntermediateCount: Int?
    /// Certificate policies the signing (leaf) certificate must list.
    public var leafRequiredPolicies: [ASN1ObjectIdentifier]
    /// Extensions the signing certificate must carry.
    public var leafRequiredExtensions: [ASN1ObjectIdentifier]
    /// Extensions every intermediate must carry.
    public var intermediateRequiredExtensions: [ASN1ObjectIdentifier]
    /// Critical extensions this policy processes, with the check it applies to each.
    public var claimedCriticalExtensions: [ClaimedExtension]

    /// A critical extension a policy takes responsibility for.
    public struct ClaimedExtension: Sendable {
        public var oid: ASN1ObjectIdentifier
        /// Accepts or rejects the certificate carrying the extension.
        public var accepts: @Sendable (Certificate) -> Bool

        public init(oid: ASN1ObjectIdentifier, accepts: @escaping @Sendable (Certificate) -> Bool) {
            self.oid = oid
            self.accepts = accepts
        }
    }

    public init(name: String, anchors: [TrustAnchor], requiredIntermediateCount: Int? = nil,
                leafRequiredPolicies: [ASN1ObjectIdentifier] = [], leafRequiredExtensions: [ASN1ObjectIdentifier] = [],
                intermediateRequiredExtensions: [ASN1ObjectIdentifier] = [], claimedCriticalExtensions: [ClaimedExtension] = []) {
        self.name = name
        self.anchors = anchors
        self.requiredIntermediateCount = requiredIntermediateCount
        self.leafRequiredPolicies = leafRequiredPolicies
        self.leafRequiredExtensions = leafRequiredExtensions
        self.intermediateRequiredExtensions = intermediateRequiredExtensions
        self.claimedCriticalExtensions = claimedCriticalExtensions
    }

    /// The App Store (default): anchor Apple Root CA (embedded, pinned); chain leaf ←
    /// intermediate ← root; the leaf carries certificate policy 1.2.840.113635.100.5.6.1 and
    /// extension 1.2.840.113635.100.6.11.1, the intermediate extension 1.2.840.113635.100.6.2.1.
    /// (Apple's old sample comment puts 100.5.6.1 on the intermediate; real chains have it on
    /// the leaf.)
    public static let appStore = appStore(anchors: [TrustAnchor.appleRootCA].compactMap { $0 })

    /// The App Store rules with other anchors (the command line's `--root`, tests).
    public static func appStore(anchors: [TrustAnchor]) -> TrustPolicy {
        TrustPolicy(name: "appstore", anchors: anchors, requiredIntermediateCount: 1,
                    leafRequiredPolicies: [OIDs.appleReceiptSigningPolicy],
                    leafRequiredExtensions: [OIDs.appleReceiptSigningExtension],
                    intermediateRequiredExtensions: [OIDs.appleWWDRIntermediateExtension])
    }

    /// Xcode's StoreKit testing (explicit opt-in only): the self-signed StoreKit certificate signs
    /// receipts directly; its critical extended key usage is claimed and must include code
    /// signing. Every Xcode install shares that key: anyone can make such receipts.
    public static let xcodeTesting = TrustPolicy(
        name: "xcode", anchors: [TrustAnchor.storeKitTesting].compactMap { $0 }, requiredIntermediateCount: 0,
        claimedCriticalExtensions: [ClaimedExtension(oid: OIDs.extendedKeyUsage) { certificate in
            certificate.extensions.extendedKeyUsage?.contains(OIDs.codeSigning) ?? false
        }])

    /// Caller-supplied anchors and required identifiers (synthetic chains in tests).
    public static func custom(anchors: [TrustAnchor], requiredIntermediateCount: Int? = nil,
                              leafRequiredPolicies: [ASN1ObjectIdentifier] = [],
                              leafRequiredExtensions: [ASN1ObjectIdentifier] = [],
                              intermediateRequiredExtensions: [ASN1ObjectIdentifier] = [],
                              claimedCriticalExtensions: [ClaimedExtension] = []) -> TrustPolicy {
        TrustPolicy(name: "custom", anchors: anchors, requiredIntermediateCount: requiredIntermediateCount,
                    leafRequiredPolicies: leafRequiredPolicies, leafRequiredExtensions: leafRequiredExtensions,
                    intermediateRequiredExtensions: intermediateRequiredExtensions,
                    claimedCriticalExtensions: claimedCriticalExtensions)
    }
}
