import AppStoreJWS
import X509Certificates

extension JWSVerifier {
    /// The App Store signed-data verifier every surface uses: Apple Root CA - G3, or `anchors`
    /// under the same rules (`--root-g3`); `linkCache` and a header cache of its own shared by
    /// every token it verifies; `revocation`'s checker asked about each verified path
    /// (`--revocation ocsp`), none without it.
    static func appStore(anchors: [TrustAnchor]?, revocation: RevocationGate?, linkCache: VerifiedLinkCache = VerifiedLinkCache()) -> JWSVerifier {
        JWSVerifier(
            policy: anchors.map(TrustPolicy.appStoreSignedData(anchors:)) ?? .appStoreSignedData, linkStore: linkCache,
            headerCache: JWSHeaderCache(), revocation: revocation?.checker)
    }
}
