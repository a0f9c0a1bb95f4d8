import CryptoPrimitives
import DER
import X509Certificates

/// The outcome of a successful verification.
public struct VerifiedSignature: Sendable {
    /// Index of the SignerInfo that verified.
    public let signerIndex: Int
    /// The certificate path, signer first and trust anchor last.
    public let chain: [Certificate]
}

/// Verifies a SignedData's signature and its signer's certificate path under a trust policy.
public struct SignedDataVerifier: Sendable {
    public var policy: TrustPolicy
    /// Where verified certificate links are remembered (e.g. a shared `VerifiedLinkCache`).
    public var linkStore: (any VerifiedLinkStore)?

    public init(policy: TrustPolicy = .appStore, linkStore: (any VerifiedLinkStore)? = nil) {
        self.policy = policy
        self.linkStore = linkStore
    }

    /// Verifies at `time` (seconds since 1970; for receipts, by default their creation date):
    /// first the signature over the content (RFC 5652 §5.4–5.6), then the path from the signer's
    /// certificate to an anchor, through the certificates parsed when `signedData` was decoded.
    /// One SignerInfo that verifies suffices; otherwise the first SignerInfo's failure is thrown,
    /// worded by `TrustPolicy.explainingRefusal` when the data comes from an origin the policy
    /// does not trust (an Xcode receipt under the App Store policy, or the reverse).
    public func verify(_ signedData: SignedData, at time: Int64) throws(VerificationError) -> VerifiedSignature {
        let embedded = signedData.certificates
        var firstFailure: VerificationError? = nil
        for (index, signer) in signedData.signerInfos.enumerated() {
            let candidates = SignerSignature.certificates(matching: signer, in: signedData.storage,
                                                          among: embedded + policy.anchors.map(\.certificate))
            do throws(VerificationError) {
                let chain = try verify(signer, of: signedData, candidates: candidates, embedded: embedded, at: time)
                return VerifiedSignature(signerIndex: index, chain: chain)
            } catch {
                if firstFailure == nil {
                    firstFailure = policy.explainingRefusal(error, signer: candidates.first, certificates: embedded)
                }
            }
        }
        throw firstFailure!
    }

    private func verify(_ signer: SignerInfo, of signedData: SignedData, candidates: [Certificate], embedded: [Certificate],
                        at time: Int64) throws(VerificationError) -> [Certificate] {
        guard !candidates.isEmpty else { throw .signerCertificateNotFound }
        var best: VerificationError? = nil
        for certificate in candidates {
            do throws(VerificationError) {
                try SignerSignature.check(signer, of: signedData, with: certificate)
                var builder = ChainBuilder(policy: policy, time: time, embedded: embedded, linkStore: linkStore)
                return try builder.build(from: certificate)
            } catch {
                if best == nil || error.rank > best!.rank { best = error }
            }
        }
        throw best!
    }
}
