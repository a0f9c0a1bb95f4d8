import AppReceipt
import CryptoPrimitives
import LegacyReceipt
import X509Certificates

/// Which policies a verification may use: the App Store's for every receipt, or, at the sandbox
/// endpoint with `--allow-xcode`, Xcode's StoreKit testing policy for receipts whose environment is
/// `Xcode`. A verdict depends only on the receipt bytes and this context, so it keys the cache.
enum VerificationContext: Sendable, Hashable {
    case appStoreOnly, xcodeAllowed
}

/// The outcome of decoding and verifying receipt bytes.
enum Verdict: Sendable {
    /// Not a receipt (21002).
    case malformed
    /// A receipt that could not be authenticated (21003).
    case notAuthentic
    case authentic(VerifiedReceipt)
}

/// Decodes and verifies receipts with the root library (`AppReceipt.validate`), the App Store
/// rules at the receipt's creation date, and one link cache shared by every request, so Apple's
/// intermediate is verified once per process. Transaction receipts (iOS 6 style, text starting
/// with `{`) go to `LegacyReceipt`, judged at their purchase date.
struct ReceiptVerifier: Sendable {
    /// The App Store rules; anchors are Apple Root CA or `--root`.
    let appStore: TrustPolicy
    /// The transaction receipts' App Store rules: the same anchors, the embedded intermediates
    /// or `--legacy-intermediate`.
    let legacy: LegacyTrustPolicy
    let linkCache: VerifiedLinkCache

    init(roots: [TrustAnchor]?, legacyIntermediates: [Certificate]? = nil, linkCache: VerifiedLinkCache = VerifiedLinkCache()) {
        (appStore, legacy) = Self.policies(roots: roots, legacyIntermediates: legacyIntermediates)
        self.linkCache = linkCache
    }

    /// The App Store rules with `roots` as anchors (nil: Apple Root CA), and the transaction
    /// receipts' rules with the same anchors and `legacyIntermediates` (nil: the embedded ones).
    /// The inspector judges by the same two.
    static func policies(roots: [TrustAnchor]?, legacyIntermediates: [Certificate]?) -> (TrustPolicy, LegacyTrustPolicy) {
        let appStore = roots.map { TrustPolicy.appStore(anchors: $0) } ?? .appStore
        let legacy = LegacyTrustPolicy.appStore(
            anchors: appStore.anchors,
            intermediates: legacyIntermediates ?? LegacyTrustPolicy.embeddedIntermediates)
        return (appStore, legacy)
    }

    func verify(_ bytes: [UInt8], context: VerificationContext) -> Verdict {
        if TransactionReceipt.recognises(bytes) { return verifyTransactionReceipt(bytes) }
        guard let receipt = try? AppReceipt(bytes) else { return .malformed }
        let policy = context == .xcodeAllowed && receipt.environment == .xcode ? TrustPolicy.xcodeTesting : appStore
        let chain: [Certificate]
        do {
            chain = try receipt.validate(policy: policy, at: .receiptCreation, linkStore: linkCache).chain
        } catch .untrusted(.malformedCertificate) {
            return .malformed   // as `receipt verify`: an embedded certificate that does not parse
        } catch {
            return .notAuthentic
        }
        return .authentic(VerifiedReceipt(receipt, bytes: bytes, chain: chain))
    }

    /// A transaction receipt: malformed text (or signature blob) is 21002, any refusal of the
    /// signature or chain 21003. Xcode never signed these, so the context does not matter.
    func verifyTransactionReceipt(_ bytes: [UInt8]) -> Verdict {
        guard let receipt = try? TransactionReceipt(bytes) else { return .malformed }
        let chain: [Certificate]
        do {
            chain = try receipt.verify(policy: legacy, linkStore: linkCache).chain
        } catch {
            return .notAuthentic
        }
        return .authentic(VerifiedReceipt(receipt, chain: chain))
    }

    /// SHA-256 of `bytes`: of a request's receipt bytes, the verification cache's key; of a
    /// receipt's signed content, the database's (`VerifiedReceipt.record`).
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update($0) }
        return Array(hasher.finalize())
    }
}
