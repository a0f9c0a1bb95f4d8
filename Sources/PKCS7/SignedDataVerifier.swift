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
    /// certificate to an anchor. One SignerInfo that verifies suffices; otherwise the first
    /// SignerInfo's failure is thrown.
    public func verify(_ signedData: SignedData, at time: Int64) throws(VerificationError) -> VerifiedSignature {
        let embedded: [Certificate]
        do {
            embedded = try signedData.certificates(reusing: policy.anchors.map(\.certificate))
        } catch {
            throw .malformedCertificate(error)
        }
        var firstFailure: VerificationError? = nil
        for (index, signer) in signedData.signerInfos.enumerated() {
            do throws(VerificationError) {
                let chain = try verify(signer, of: signedData, embedded: embedded, at: time)
                return VerifiedSignature(signerIndex: index, chain: chain)
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        throw firstFailure!
    }

    private func verify(_ signer: SignerInfo, of signedData: SignedData, embedded: [Certificate], at time: Int64) throws(VerificationError) -> [Certificate] {
        let candidates = SignerSignature.certificates(matching: signer, in: signedData.storage,
                                                      among: embedded + policy.anchors.map(\.certificate))
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
