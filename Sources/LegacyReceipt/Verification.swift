import CryptoPrimitives
import X509Certificates

/// The outcome of a successful verification.
public struct VerifiedTransactionReceipt: Sendable {
    /// The certificate path, signer first and trust anchor last.
    public let chain: [Certificate]
    /// The instant certificate validity was judged at, seconds since 1970.
    public let time: Int64
    /// Public-key operations spent (`VerificationBudget`): 3 cold, 1 once the chain's links are
    /// in the link store.
    public let publicKeyOperations: Int
}

/// Why a decodable transaction receipt is not authentic.
public enum TransactionReceiptValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The signature or the chain fails under the policy: a key the version does not allow, a
    /// signature that does not verify over (version byte ‖ purchase-info), an expired or missing
    /// link, a missing Apple marker, … (the `VerificationError` names the rule and certificate).
    case untrusted(VerificationError)
    /// The signature verifies with the signer's key over another hash than SHA-1, which both
    /// versions use: refused, since nothing but SHA-1 was ever signed.
    case signatureHashNotSHA1(HashAlgorithm)

    public var description: String {
        switch self {
        case .untrusted(let error): return error.description
        case .signatureHashNotSHA1(let hash): return "signature is over \(hash), not SHA-1"
        }
    }
}

extension TransactionReceipt {
    /// The bytes the signature covers: the version byte, then the purchase-info bytes.
    public var signedBytes: [UInt8] { [signature.version.rawValue] + purchaseInfoBytes }

    /// Verifies the receipt under `policy` at `time`, in whole seconds since 1970 (nil: the purchase
    /// date, `purchase-date-ms`, as app receipts are judged at their creation date; every signer
    /// of these receipts has expired since).
    ///
    /// Before any RSA operation: the signer's key must fit its version
    /// (`LegacyTrustPolicy.signerKeyRules`), every intermediate's the chain's key rules, and the
    /// signer's issuer must be one of the intermediates or anchors. Then, each operation drawn
    /// from one `VerificationBudget`: RSASSA-PKCS1-v1_5 with SHA-1 over `signedBytes` by the
    /// signer's key (on failure, one more operation tells a SHA-256 signature apart), then the
    /// path signer ← intermediate ← anchor through `ChainBuilder`, with the version's markers.
    @discardableResult
    public func verify(
        policy: LegacyTrustPolicy = .appStore, atSecondsSince1970 time: Int64?,
        linkStore: AnyVerifiedLinkStore? = nil
    ) throws(TransactionReceiptValidationError) -> VerifiedTransactionReceipt {
        let seconds = time ?? purchaseDate.seconds
        let chainPolicy = policy.chainPolicy(for: signature.version)
        let signer = signature.certificate
        var budget = VerificationBudget()
        var otherHash: HashAlgorithm? = nil
        do throws(VerificationError) {
            try LegacyTrustPolicy.signerKeyRules(for: signature.version).check(signer)
            for intermediate in policy.intermediates { try chainPolicy.keyRules.check(intermediate) }
            let issuers = policy.intermediates + chainPolicy.anchors.map { $0.certificate }
            guard issuers.contains(where: { $0.subject == signer.issuer }) else {
                throw .issuerNotPresent(subject: signer.subjectName)
            }
            try budget.spend()
            let key: RSAPublicKey
            do {
                key = try signer.rsaPublicKey()
            } catch {
                throw .invalidPublicKey(subject: signer.subjectName)
            }
            let message = signedBytes
            if !key.isValidSignature(signature.signature, digest: SHA1.hash(message), algorithm: .sha1) {
                try budget.spend()
                if key.isValidSignature(signature.signature, digest: SHA256.hash(message), algorithm: .sha256) {
                    otherHash = .sha256
                }
                throw .signatureInvalid(subject: signer.subjectName)
            }
            var builder = ChainBuilder(
                policy: chainPolicy, time: seconds, embedded: policy.intermediates,
                linkStore: linkStore, budget: budget)
            defer { budget = builder.budget }
            let chain = try builder.build(from: signer)
            return VerifiedTransactionReceipt(chain: chain, time: seconds, publicKeyOperations: builder.budget.spent)
        } catch {
            if let otherHash { throw .signatureHashNotSHA1(otherHash) }
            throw .untrusted(error)
        }
    }
}
