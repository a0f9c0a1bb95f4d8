import CryptoPrimitives

/// Where signed data comes from, as its certificates show it: the App Store or Xcode's StoreKit
/// testing. Used to explain a refusal in words ("signed by Xcode's StoreKit Testing certificate,
/// which the App Store policy does not trust"); never to decide one.
public enum SignerOrigin: Sendable, Hashable {
    /// Xcode's StoreKit testing: its self-signed certificates, `TrustAnchor.storeKitTesting`
    /// (receipts, RSA) and `TrustAnchor.storeKitTestingInXcode` (JWS, ECDSA P-256).
    case xcodeTesting
    /// The App Store: a chain to Apple Root CA (receipts) or Apple Root CA - G3 (JWS).
    case appStore

    /// The embedded anchors that mark this origin.
    public var anchors: [TrustAnchor] {
        switch self {
        case .xcodeTesting: return [TrustAnchor.storeKitTesting, TrustAnchor.storeKitTestingInXcode].compactMap { $0 }
        case .appStore: return [TrustAnchor.appleRootCA, TrustAnchor.appleRootCAG3].compactMap { $0 }
        }
    }

    /// The origin of the chain that starts at `signer`, by names and bytes alone: issuers are
    /// followed by name (and key identifier, as `ChainBuilder` matches them) through
    /// `certificates` to the certificate the chain ends at. The chain is of an origin when that
    /// certificate is one of the origin's anchors byte for byte, or, when the chain's last
    /// certificate is not self-issued, when an anchor of the origin is named as its issuer. A
    /// self-issued certificate that is no anchor (a self-made "Apple Root CA") ends the chain
    /// with no origin. No signature is checked: the answer labels data, it proves nothing.
    public static func recognize(signer: Certificate, among certificates: [Certificate]) -> SignerOrigin? {
        var current = signer
        // A path holds at most maxIntermediates certificates between signer and anchor.
        for _ in 0 ... ChainBuilder.maxIntermediates + 1 {
            if let origin = anchorOrigin(current) { return origin }
            if let issuer = certificates.first(where: { $0.encoded != current.encoded && ChainBuilder.mayHaveIssued($0, current) }) {
                current = issuer
                continue
            }
            guard !current.isSelfIssued else { return nil }
            return issuerOrigin(current)
        }
        return nil
    }

    /// The origin `certificate` is an anchor of, byte for byte.
    private static func anchorOrigin(_ certificate: Certificate) -> SignerOrigin? {
        [SignerOrigin.xcodeTesting, .appStore].first { TrustAnchor.contains(certificate, in: $0.anchors) }
    }

    /// The origin one of whose anchors is named as `certificate`'s issuer.
    private static func issuerOrigin(_ certificate: Certificate) -> SignerOrigin? {
        [SignerOrigin.xcodeTesting, .appStore].first { origin in
            origin.anchors.contains { ChainBuilder.mayHaveIssued($0.certificate, certificate) }
        }
    }

    /// The origin a policy for the other world trusts.
    public var other: SignerOrigin {
        switch self {
        case .xcodeTesting: return .appStore
        case .appStore: return .xcodeTesting
        }
    }

    /// Why a policy named `policy` refuses data of this origin, in words: "signed by …, which the
    /// App Store policy does not trust".
    public func refusal(byPolicyNamed policy: String) -> String {
        "\(description), which \(TrustPolicy.text(forName: policy)) does not trust"
    }

    /// What to do with `data` ("receipt", "token") of this origin, which a policy for the other
    /// world refused, in the words of the program that prints it: `switches.otherOrigin`.
    public func hint(for data: String, switches: HintSwitches) -> String {
        switches.otherOrigin(self, data)
    }

    /// How a message names data of this origin.
    var description: String {
        switch self {
        case .xcodeTesting: return "signed by Xcode's StoreKit Testing certificate"
        case .appStore: return "signed by the App Store (its chain ends at Apple's root certificate)"
        }
    }
}

extension TrustPolicy {
    /// Whether one of this policy's anchors is one of `origin`'s.
    public func trusts(_ origin: SignerOrigin) -> Bool {
        let marks = origin.anchors.map { $0.fingerprint }
        return anchors.contains { marks.contains($0.fingerprint) }
    }

    /// The refusal to report for data signed by `signer` (carried with `certificates`) that this
    /// policy refused with `error`: when the data comes from the other world than the one this
    /// policy trusts (an Xcode-signed receipt or JWS under an App Store policy, App Store data
    /// under an Xcode policy), `.untrustedOrigin(origin, policy:, rule: error)`, which says so in
    /// words and keeps `error` as the precise rule; otherwise `error` itself. A policy whose
    /// anchors were replaced (by the operator's own) is of the world its name says (`world`), so Xcode data
    /// under an App Store policy with other anchors is still explained; custom policies are left
    /// alone. Only the words change: the data is refused either way.
    public func explainingRefusal(
        _ error: VerificationError, signer: Certificate?,
        certificates: [Certificate]
    ) -> VerificationError {
        guard let signer, let origin = foreignOrigin(of: signer, among: certificates) else { return error }
        return .untrustedOrigin(origin, policy: name, rule: error)
    }

    /// The origin of data signed by `signer` (carried with `certificates`) when it is the other
    /// world than the one this policy trusts: Xcode's StoreKit testing for a policy that trusts
    /// the App Store's roots, the App Store for one that trusts Xcode's certificates; otherwise
    /// `nil` (same world, or a custom policy: `world`). For verifiers whose errors are not
    /// `VerificationError`s (StoreKit 2 signed data) to word their refusal the same way.
    public func foreignOrigin(of signer: Certificate, among certificates: [Certificate]) -> SignerOrigin? {
        guard let origin = SignerOrigin.recognize(signer: signer, among: certificates), !trusts(origin),
            let world, world != origin
        else { return nil }
        return origin
    }

    /// `the App Store policy`, `the Xcode testing policy`, or `the NAME policy`, for a policy's name.
    static func text(forName name: String) -> String {
        switch name {
        case "appstore": return "the App Store policy"
        case "xcode": return "the Xcode testing policy"
        default: return "the \(name) policy"
        }
    }
}
