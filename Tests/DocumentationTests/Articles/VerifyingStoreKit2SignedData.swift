// The code of Sources/AppStoreJWS/AppStoreJWS.docc/VerifyingStoreKit2SignedData.md, verbatim
// (ArticleSnippetTests checks it); VerifyingStoreKit2SignedDataTests runs it.

import AppStoreJWS
import Foundation
import X509Certificates

/// The subscription a StoreKit 2 `Transaction.jwsRepresentation` proves, if it is active `now`.
func activeSubscription(
    signedTransaction: String, verifier: JWSVerifier = JWSVerifier(), now: Date = Date()
) throws(JWSError) -> JWSTransactionDecodedPayload? {
    let expected = JWSExpectation(bundleId: "com.example.app", environment: "Production")
    let transaction = try verifier.verifyTransaction(signedTransaction, expecting: expected)
    guard transaction.revocationDate == nil, let expiry = transaction.expiresDate?.date, expiry > now else {
        return nil
    }
    return transaction
}

/// A server's verifier: one link cache and one header cache for the process, so that after the
/// first token each costs one P-256 verification (Apple's certificate links are remembered, the
/// signing key keeps its verification table, the `x5c` header is decoded once).
func serverVerifier(policy: TrustPolicy = .appStoreSignedData) -> JWSVerifier {
    JWSVerifier(policy: policy, linkStore: VerifiedLinkCache(), headerCache: JWSHeaderCache())
}

/// An App Store Server Notification V2, posted as `{"signedPayload": …}`: verified with its
/// nested transaction and renewal info, or the HTTP status that refuses it.
func receiveNotification(
    body: Data, verifier: JWSVerifier
) -> (status: Int, notification: VerifiedNotification?) {
    guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
        let signedPayload = object["signedPayload"] as? String
    else { return (400, nil) }
    do {
        let expected = JWSExpectation(bundleId: "com.example.app")
        return (200, try verifier.verifyNotification(signedPayload, expecting: expected))
    } catch {
        switch error.category {
        case .malformed: return (400, nil)
        case .notAuthentic: return (401, nil)
        case .unexpectedValue: return (403, nil)
        case .revocationUnavailable: return (503, nil)   // only with a revocation checker
        }
    }
}
