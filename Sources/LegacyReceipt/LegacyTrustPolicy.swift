import CryptoPrimitives
import DER
import X509Certificates

/// Which anchors and Apple rules a transaction receipt is verified under, for each signature
/// version. Chosen by the caller, never by anything in the receipt.
///
/// Version 2: the signer ("PurchaseReceiptCertificate") holds an RSA-1024 key and marker extension
/// 1.2.840.113635.100.6.5.1; its issuer is Apple iTunes Store Certification Authority (marker
/// 1.2.840.113635.100.6.2.2). Version 3: the signer ("Mac App Store and iTunes Store Receipt
/// Signing") holds RSA-2048, policy 1.2.840.113635.100.5.6.1 and extension
/// 1.2.840.113635.100.6.11.1, as app-receipt signers do; its issuer is the 2013 WWDR CA (marker
/// 1.2.840.113635.100.6.2.1). Both intermediates are under Apple Root CA and are not carried in
/// receipts: they come from `intermediates`.
public struct LegacyTrustPolicy: Sendable {
    /// A short name for messages.
    public var name: String
    /// The chain rules (anchors, leaf and intermediate markers, key rules of the chain's
    /// certificates) for version 2 signers.
    public var version2: TrustPolicy
    /// The chain rules for version 3 signers.
    public var version3: TrustPolicy
    /// Certificates paths may go through (receipts carry only their signer).
    public var intermediates: [Certificate]

    /// A policy from its parts; `appStore` and `appStore(anchors:intermediates:)` build Apple's.
    public init(name: String, version2: TrustPolicy, version3: TrustPolicy, intermediates: [Certificate]) {
        self.name = name
        self.version2 = version2
        self.version3 = version3
        self.intermediates = intermediates
    }

    /// Pinned SHA-256 of Apple iTunes Store Certification Authority.
    public static let iTunesStoreCAFingerprint = "447ad65484610f20fdc33804c8597a1e208fbe4ef9c5653485cc7d3df730c016"
    /// Pinned SHA-256 of the 2013 Apple Worldwide Developer Relations Certification Authority.
    public static let worldwideDeveloperRelationsCAFingerprint = "ce057691d730f89ca25e916f7335f4c8a15713dcd273a658c024023f8eb809c2"

    /// The two embedded intermediates, each only if its bytes match the pinned fingerprint (a
    /// corrupted copy leaves its version with no path, so nothing of it verifies).
    public static let embeddedIntermediates: [Certificate] = [
        Certificate.pinned(EmbeddedIntermediates.iTunesStoreCA, iTunesStoreCAFingerprint),
        Certificate.pinned(EmbeddedIntermediates.worldwideDeveloperRelationsCA2013, worldwideDeveloperRelationsCAFingerprint),
    ].compactMap { $0 }

    /// Marker extension on version 2 signers ("PurchaseReceiptCertificate").
    public static let version2SignerExtension = ASN1ObjectIdentifier("1.2.840.113635.100.6.5.1")
    /// Marker extension on Apple iTunes Store Certification Authority.
    public static let iTunesStoreIntermediateExtension = ASN1ObjectIdentifier("1.2.840.113635.100.6.2.2")

    /// The App Store (default): anchor Apple Root CA, the embedded intermediates, the markers above.
    public static let appStore = appStore(anchors: [TrustAnchor.appleRootCA].compactMap { $0 })

    /// The App Store rules with other anchors and, for synthetic chains, other intermediates
    /// (the command line's `--root`, tests). Every rule other than the anchors is the same.
    public static func appStore(anchors: [TrustAnchor], intermediates: [Certificate] = embeddedIntermediates) -> LegacyTrustPolicy {
        LegacyTrustPolicy(
            name: "appstore",
            version2: TrustPolicy(
                name: "appstore", anchors: anchors, requiredIntermediateCount: 1,
                leafRequiredExtensions: [version2SignerExtension],
                intermediateRequiredExtensions: [iTunesStoreIntermediateExtension],
                keyRules: .appStoreReceipts, requiresSingleSigner: true, requiresKnownIssuers: true),
            version3: TrustPolicy(
                name: "appstore", anchors: anchors, requiredIntermediateCount: 1,
                leafRequiredPolicies: [OIDs.appleReceiptSigningPolicy],
                leafRequiredExtensions: [OIDs.appleReceiptSigningExtension],
                intermediateRequiredExtensions: [OIDs.appleWWDRIntermediateExtension],
                keyRules: .appStoreReceipts, requiresSingleSigner: true, requiresKnownIssuers: true),
            intermediates: intermediates)
    }

    /// The chain rules for `version`.
    public func chainPolicy(for version: LegacyReceiptVersion) -> TrustPolicy {
        version == .v2 ? version2 : version3
    }

    /// The keys a signer of `version` may hold, checked before any RSA operation: RSA-1024 with
    /// e = 65537 for version 2 (the only place a 1024-bit key is allowed: Apple's 2009 signers),
    /// Apple's RSA 2048–4096 with e = 65537 for version 3. A key of the other version's size is
    /// refused (`VerificationError.rsaKeySizeNotAllowed`), whatever the signature would say.
    public static func signerKeyRules(for version: LegacyReceiptVersion) -> PublicKeyRules {
        switch version {
        case .v2: return PublicKeyRules(rsaModulusBits: 1024 ... 1024, rsaExponent: 65_537, curves: [])
        case .v3: return PublicKeyRules(rsaModulusBits: PublicKeyRules.appStoreReceipts.rsaModulusBits, rsaExponent: 65_537, curves: [])
        }
    }
}
