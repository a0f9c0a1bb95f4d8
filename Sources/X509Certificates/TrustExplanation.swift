import CryptoPrimitives

/// The words for which anchors a policy trusts, so that a chain refused for ending elsewhere says
/// where it had to end: "Apple Root CA", or "the ROOT certificate SHA-256 1a2b3c4d…, which
/// replaces Apple's root certificate" when the operator replaced it (ROOT being the program's
/// switch for that, `HintSwitches.root`).
public enum TrustExplanation: Sendable {
    /// The embedded anchors by name.
    static let names: [(anchor: TrustAnchor?, name: String)] = [
        (TrustAnchor.appleRootCA, "Apple Root CA"), (TrustAnchor.appleRootCAG3, "Apple Root CA - G3"),
        (TrustAnchor.storeKitTesting, "Xcode's StoreKit Testing certificate"),
        (TrustAnchor.storeKitTestingInXcode, "Xcode's StoreKit Testing certificate"),
    ]

    /// The name of the embedded anchor `certificate` is, byte for byte by its SHA-256, if it is one.
    public static func embeddedName(of certificate: EncodedCertificate) -> String? {
        embeddedName(fingerprint: certificate.fingerprint)
    }

    /// The name of the embedded anchor with this SHA-256, if it is one.
    static func embeddedName(fingerprint: Digest) -> String? {
        names.first { $0.anchor?.fingerprint == fingerprint }?.name
    }

    /// The anchors `policy` trusts, in words: the embedded ones by name; any other (the operator's
    /// own, given with `switches.root`) by the first 16 hex digits of its SHA-256, said to replace
    /// the root of the policy's world.
    public static func anchors(of policy: TrustPolicy, switches: HintSwitches) -> String {
        let prints = policy.anchors.map { $0.fingerprint }
        let named = prints.compactMap { embeddedName(fingerprint: $0) }
        if !prints.isEmpty, named.count == prints.count {
            return unique(named).joined(separator: " or ")
        }
        let replaced = policy.world == .xcodeTesting ? "Xcode's StoreKit Testing certificate" : "Apple's root certificate"
        let list = prints.map { String($0.description.prefix(16)) + "…" }.joined(separator: ", ")
        return prints.count == 1
            ? "the \(switches.root) certificate SHA-256 \(list), which replaces \(replaced)"
            : "the \(switches.root) certificates SHA-256 \(list), which replace \(replaced)"
    }

    /// The advice for a chain that ends at `certificate`, which is not one of `policy`'s anchors:
    /// where it had to end, which embedded root it ends at if it is one, and, when certificates
    /// of the operator's own replaced the embedded ones, that running the program without
    /// `switches.root` would trust it.
    public static func notTrustedHint(certificate: EncodedCertificate, policy: TrustPolicy, switches: HintSwitches) -> String {
        var hint = "the chain must end at \(anchors(of: policy, switches: switches))"
        guard let name = embeddedName(of: certificate) else { return hint }
        hint += "; it ends at \(name)"
        if policy.anchors.contains(where: { embeddedName(fingerprint: $0.fingerprint) == nil }) {
            hint += ": \(switches.rerun) without \(switches.root) to trust it"
        }
        return hint
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}

extension TrustPolicy {
    /// The world this policy is for: the origin whose embedded anchors it trusts, or, for one
    /// whose anchors were replaced (by the operator's own), the one its name says (`appstore`, `xcode`); nil
    /// for a custom policy.
    public var world: SignerOrigin? {
        if trusts(.appStore) { return .appStore }
        if trusts(.xcodeTesting) { return .xcodeTesting }
        switch name {
        case "appstore": return .appStore
        case "xcode": return .xcodeTesting
        default: return nil
        }
    }
}
