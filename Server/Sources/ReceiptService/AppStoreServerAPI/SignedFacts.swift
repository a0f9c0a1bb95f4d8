import AppStoreJWS
import ReceiptStore

/// What the App Store Server API keeps of a verified signed transaction or renewal info: the
/// token as received and the members its status and history rules read.
enum SignedFacts {
    static func transaction(_ t: JWSTransactionDecodedPayload, jws: String) -> SignedTransactionFacts {
        SignedTransactionFacts(
            jws: jws, type: t.type ?? "", subscriptionGroupIdentifier: t.subscriptionGroupIdentifier,
            expiresMilliseconds: t.expiresDate?.value, revocationMilliseconds: t.revocationDate?.value,
            inAppOwnershipType: t.inAppOwnershipType, appAccountToken: t.appAccountToken.flatMap { $0.isEmpty ? nil : $0 },
            commerce: SignedCommerceFacts(
                price: t.price, currency: t.currency, transactionReason: t.transactionReason, offerDiscountType: t.offerDiscountType))
    }

    static func renewal(_ r: JWSRenewalInfoDecodedPayload, jws: String) -> SignedRenewalFacts {
        SignedRenewalFacts(
            jws: jws, isInBillingRetryPeriod: r.isInBillingRetryPeriod ?? false,
            gracePeriodExpiresMilliseconds: r.gracePeriodExpiresDate?.value, autoRenewStatus: r.autoRenewStatus)
    }
}
