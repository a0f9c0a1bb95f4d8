import DER

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
    /// Keys a message's certificates may hold; checked on all of them before any signature is.
    public var keyRules: PublicKeyRules
    /// A receipt carries exactly one SignerInfo, naming exactly one certificate (Apple's always do).
    public var requiresSingleSigner: Bool
    /// Every certificate a message carries names an issuer found among the message's certificates
    /// and the anchors: one that cannot lead to an anchor is refused before any signature check.
    public var requiresKnownIssuers: Bool

    /// A critical extension a policy takes responsibility for.
    public struct ClaimedExtension: Sendable {
        /// The extension's identifier.
        public var oid: ASN1ObjectIdentifier
        /// Accepts or rejects the certificate carrying the extension.
        public var accepts: @Sendable (Certificate) -> Bool

        /// Claims the critical extension `oid`, accepting a certificate that carries it when `accepts`
        /// returns true.
        public init(oid: ASN1ObjectIdentifier, accepts: @escaping @Sendable (Certificate) -> Bool) {
            self.oid = oid
            self.accepts = accepts
        }
    }

    /// Makes a policy; each parameter sets the property of the same name. The defaults add no
    /// Apple-specific rule: any number of intermediates, no required policies or extensions, no
    /// claimed critical extension, `PublicKeyRules.general`, and no shape rules.
    public init(
        name: String, anchors: [TrustAnchor], requiredIntermediateCount: Int? = nil,
        leafRequiredPolicies: [ASN1ObjectIdentifier] = [], leafRequiredExtensions: [ASN1ObjectIdentifier] = [],
        intermediateRequiredExtensions: [ASN1ObjectIdentifier] = [], claimedCriticalExtensions: [ClaimedExtension] = [],
        keyRules: PublicKeyRules = .general, requiresSingleSigner: Bool = false, requiresKnownIssuers: Bool = false
    ) {
        self.name = name
        self.anchors = anchors
        self.requiredIntermediateCount = requiredIntermediateCount
        self.leafRequiredPolicies = leafRequiredPolicies
        self.leafRequiredExtensions = leafRequiredExtensions
        self.intermediateRequiredExtensions = intermediateRequiredExtensions
        self.claimedCriticalExtensions = claimedCriticalExtensions
        self.keyRules = keyRules
        self.requiresSingleSigner = requiresSingleSigner
        self.requiresKnownIssuers = requiresKnownIssuers
    }

    /// The App Store (default): anchor Apple Root CA (embedded, pinned); chain leaf ←
    /// intermediate ← root; the leaf carries certificate policy 1.2.840.113635.100.5.6.1 and
    /// extension 1.2.840.113635.100.6.11.1, the intermediate extension 1.2.840.113635.100.6.2.1.
    /// (Apple's old sample comment puts 100.5.6.1 on the intermediate; real chains have it on
    /// the leaf.)
    public static let appStore = appStore(anchors: [TrustAnchor.appleRootCA].compactMap { $0 })

    /// The App Store rules with other anchors (the command line's `--root`, tests). Hostile
    /// shapes cost no public-key operation: keys other than Apple's (`PublicKeyRules.appStoreReceipts`),
    /// more than one SignerInfo or signer certificate, and certificates whose issuer is nowhere in
    /// the message or the anchors are refused first.
    public static func appStore(anchors: [TrustAnchor]) -> TrustPolicy {
        TrustPolicy(
            name: "appstore", anchors: anchors, requiredIntermediateCount: 1,
            leafRequiredPolicies: [OIDs.appleReceiptSigningPolicy],
            leafRequiredExtensions: [OIDs.appleReceiptSigningExtension],
            intermediateRequiredExtensions: [OIDs.appleWWDRIntermediateExtension],
            keyRules: .appStoreReceipts, requiresSingleSigner: true, requiresKnownIssuers: true)
    }

    /// Xcode's StoreKit testing (explicit opt-in only): the self-signed StoreKit certificate signs
    /// receipts directly; its critical extended key usage is claimed and must include code
    /// signing. Every Xcode install shares that key: anyone can make such receipts.
    public static let xcodeTesting = TrustPolicy(
        name: "xcode", anchors: [TrustAnchor.storeKitTesting].compactMap { $0 }, requiredIntermediateCount: 0,
        claimedCriticalExtensions: [
            ClaimedExtension(oid: OIDs.extendedKeyUsage) { certificate in
                certificate.extensions.extendedKeyUsage?.contains(OIDs.codeSigning) ?? false
            }
        ],
        keyRules: .appStoreReceipts, requiresSingleSigner: true, requiresKnownIssuers: true)

    /// StoreKit 2 signed data (JWS) from the App Store: anchor Apple Root CA - G3 (embedded,
    /// pinned); chain leaf ← intermediate ← root; the leaf carries extension
    /// 1.2.840.113635.100.6.11.1, the intermediate 1.2.840.113635.100.6.2.1 (as Apple's
    /// app-store-server-library checks them; real leaves also list policy 1.2.840.113635.100.5.6.1,
    /// which Apple's library does not require, and neither do we).
    public static let appStoreSignedData = appStoreSignedData(anchors: [TrustAnchor.appleRootCAG3].compactMap { $0 })

    /// The App Store rules for signed data with other anchors (`--root`, tests).
    public static func appStoreSignedData(anchors: [TrustAnchor]) -> TrustPolicy {
        TrustPolicy(
            name: "appstore", anchors: anchors, requiredIntermediateCount: 1,
            leafRequiredExtensions: [OIDs.appleReceiptSigningExtension],
            intermediateRequiredExtensions: [OIDs.appleWWDRIntermediateExtension],
            keyRules: .appStoreSignedData, requiresSingleSigner: true, requiresKnownIssuers: true)
    }

    /// StoreKit 2 signed data made by Xcode's StoreKit testing (explicit opt-in only): the
    /// self-signed "StoreKit Testing in Xcode" certificate signs directly. Every Xcode install
    /// shares that key: anyone can make such data.
    public static let xcodeSignedData = TrustPolicy(
        name: "xcode", anchors: [TrustAnchor.storeKitTestingInXcode].compactMap { $0 }, requiredIntermediateCount: 0,
        keyRules: .appStoreSignedData, requiresSingleSigner: true, requiresKnownIssuers: true)

    /// Caller-supplied anchors and required identifiers (synthetic chains in tests). The key rules
    /// are the general ones; the per-message `VerificationBudget` holds as for every policy.
    public static func custom(
        anchors: [TrustAnchor], requiredIntermediateCount: Int? = nil,
        leafRequiredPolicies: [ASN1ObjectIdentifier] = [],
        leafRequiredExtensions: [ASN1ObjectIdentifier] = [],
        intermediateRequiredExtensions: [ASN1ObjectIdentifier] = [],
        claimedCriticalExtensions: [ClaimedExtension] = []
    ) -> TrustPolicy {
        TrustPolicy(
            name: "custom", anchors: anchors, requiredIntermediateCount: requiredIntermediateCount,
            leafRequiredPolicies: leafRequiredPolicies, leafRequiredExtensions: leafRequiredExtensions,
            intermediateRequiredExtensions: intermediateRequiredExtensions,
            claimedCriticalExtensions: claimedCriticalExtensions)
    }
}

extension TrustPolicy {
    /// Whether `certificate` is one of the policy's anchors, byte for byte.
    public func isAnchor(_ certificate: Certificate) -> Bool {
        TrustAnchor.contains(certificate, in: anchors)
    }
}

extension TrustAnchor {
    /// Whether `certificate` is one of `anchors`, byte for byte.
    package static func contains(_ certificate: Certificate, in anchors: [TrustAnchor]) -> Bool {
        let bytes = ExactBytes(certificate.encoded)
        return anchors.contains { ExactBytes($0.certificate.encoded) == bytes }
    }
}
