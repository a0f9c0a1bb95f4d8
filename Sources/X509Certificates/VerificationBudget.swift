/// One message's allowance of public-key operations: every RSA or ECDSA verification made for it,
/// the signer's signature and every certificate link together, whatever the number of SignerInfos,
/// signer candidates or candidate paths (the bound rustls-webpki puts on path building, DESIGN §9).
/// Links found in a `VerifiedLinkStore` cost nothing.
///
/// A genuine App Store message needs three operations (signer, leaf ← intermediate, intermediate ←
/// root), one (the signer) with a warm link cache. `maxPublicKeyOperations` leaves room for Apple's re-issued
/// intermediates tried beside their predecessors and for a custom anchor's deeper paths (a leaf
/// under six intermediates needs eight), while a crafted message can cost at most eight
/// verifications with keys its policy allows. Past the limit verification fails with
/// `VerificationError.budgetExceeded`.
public struct VerificationBudget: Sendable, Hashable {
    /// Most public-key operations spent on one message.
    public static let maxPublicKeyOperations = 8

    /// Operations spent so far.
    public private(set) var spent = 0

    /// A fresh budget, for one message.
    public init() {}

    /// Takes one operation from the budget, or throws `budgetExceeded` when none is left.
    package mutating func spend() throws(VerificationError) {
        guard spent < Self.maxPublicKeyOperations else { throw .budgetExceeded }
        spent += 1
    }
}
