import CryptoPrimitives
import DER
import X509Certificates

/// The outcome of a successful verification.
public struct VerifiedSignature: Sendable {
    /// Index of the SignerInfo that verified.
    public let signerIndex: Int
    /// The certificate path, signer first and trust anchor last.
    public let chain: [Certificate]
    /// Public-key operations spent on the message (`VerificationBudget`): 3 for an App Store
    /// receipt, 1 once its chain's links are in the link store.
    public let publicKeyOperations: Int
}

/// Verifies a SignedData's signature and its signer's certificate path under a trust policy.
public struct SignedDataVerifier: Sendable {
    /// The anchors and rules the signer's path must satisfy.
    public var policy: TrustPolicy
    /// Where verified certificate links are remembered (e.g. a shared `VerifiedLinkCache`).
    public var linkStore: AnyVerifiedLinkStore?

    /// Makes a verifier for `policy` (by default the App Store's) that remembers verified
    /// certificate links in `linkStore`, if one is given.
    public init(policy: TrustPolicy = .appStore, linkStore: AnyVerifiedLinkStore? = nil) {
        self.policy = policy
        self.linkStore = linkStore
    }

    /// Verifies at `time` (seconds since 1970; for receipts, by default their creation date):
    /// first the signature over the content (RFC 5652 §5.4–5.6), then the path from the signer's
    /// certificate to an anchor, through the certificates parsed when `signedData` was decoded.
    /// One SignerInfo that verifies suffices; otherwise the first SignerInfo's failure is thrown,
    /// worded by `TrustPolicy.explainingRefusal` when the data comes from an origin the policy
    /// does not trust (an Xcode receipt under the App Store policy, or the reverse).
    ///
    /// Before any public-key operation the policy's shape rules run (`TrustPolicy.keyRules`,
    /// `requiresSingleSigner`, `requiresKnownIssuers`), and every operation after them, for all
    /// SignerInfos and candidates together, is drawn from one `VerificationBudget`.
    public func verify(_ signedData: SignedData, at time: Int64) throws(VerificationError) -> VerifiedSignature {
        let embedded = signedData.certificates
        let candidates = signedData.signerInfos.map { signer in
            SignerSignature.certificates(matching: signer, in: signedData.storage, among: embedded + policy.anchors.map { $0.certificate })
        }
        do throws(VerificationError) {
            try checkShape(signedData, candidates: candidates)
            return try verifyWithinBudget(signedData, candidates: candidates, at: time)
        } catch {
            throw policy.explainingRefusal(error, signer: candidates.first?.first, certificates: embedded)
        }
    }

    /// The policy's rules that need no public-key operation.
    private func checkShape(_ signedData: SignedData, candidates: [[Certificate]]) throws(VerificationError) {
        if policy.requiresSingleSigner {
            guard signedData.signerInfos.count == 1 else { throw .multipleSignerInfos(count: signedData.signerInfos.count) }
            guard candidates[0].count <= 1 else { throw .ambiguousSignerCertificate(count: candidates[0].count) }
        }
        try MessageCertificates.check(signedData.certificates, policy: policy)
    }

    /// Each SignerInfo in turn until one verifies; the first one's failure otherwise. A spent
    /// budget ends the search and is the failure.
    private func verifyWithinBudget(
        _ signedData: SignedData, candidates: [[Certificate]],
        at time: Int64
    ) throws(VerificationError) -> VerifiedSignature {
        var budget = VerificationBudget()
        var firstFailure: VerificationError? = nil
        for (index, signer) in signedData.signerInfos.enumerated() {
            do throws(VerificationError) {
                let chain = try verify(signer, of: signedData, candidates: candidates[index], at: time, budget: &budget)
                return VerifiedSignature(signerIndex: index, chain: chain, publicKeyOperations: budget.spent)
            } catch {
                if error == .budgetExceeded { throw error }
                if firstFailure == nil { firstFailure = error }
            }
        }
        throw firstFailure!
    }

    private func verify(
        _ signer: SignerInfo, of signedData: SignedData, candidates: [Certificate], at time: Int64,
        budget: inout VerificationBudget
    ) throws(VerificationError) -> [Certificate] {
        guard !candidates.isEmpty else { throw .signerCertificateNotFound }
        var best: VerificationError? = nil
        for certificate in candidates {
            do throws(VerificationError) {
                try budget.spend()
                try SignerSignature.check(signer, of: signedData, with: certificate)
                var builder = ChainBuilder(
                    policy: policy, time: time, embedded: signedData.certificates,
                    linkStore: linkStore, budget: budget)
                defer { budget = builder.budget }
                return try builder.build(from: certificate)
            } catch {
                if error == .budgetExceeded { throw error }
                if best == nil || error.rank > best!.rank { best = error }
            }
        }
        throw best!
    }
}
