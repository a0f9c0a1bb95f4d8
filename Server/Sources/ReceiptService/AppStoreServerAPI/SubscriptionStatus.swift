import ReceiptStore

/// Apple's `status` of an auto-renewable subscription at a time T (DESIGN §13), from what the
/// server holds of one original transaction.
///
/// The last transaction is the known transaction with the latest `purchaseDate` (an upgrade's new
/// transaction supersedes the old one; a refund of an older one does not revoke a newer one).
/// Then, in order: 5 revoked if its `revocationDate` ≤ T; 1 active if its `expiresDate` > T;
/// 4 billing grace period if the renewal info says `isInBillingRetryPeriod` and its
/// `gracePeriodExpiresDate` > T; 3 billing retry if `isInBillingRetryPeriod`; else 2 expired.
enum SubscriptionStatus: Int, Sendable, CaseIterable {
    case active = 1, expired = 2, billingRetry = 3, billingGracePeriod = 4, revoked = 5

    /// The status of `last` with its subscription's renewal info at `time` (ms since 1970).
    init(last: SignedTransactionFacts, renewal: SignedRenewalFacts?, at time: Int64) {
        if let revoked = last.revocationMilliseconds, revoked <= time {
            self = .revoked
        } else if let expires = last.expiresMilliseconds, expires > time {
            self = .active
        } else if let renewal, renewal.isInBillingRetryPeriod {
            if let grace = renewal.gracePeriodExpiresMilliseconds, grace > time {
                self = .billingGracePeriod
            } else {
                self = .billingRetry
            }
        } else {
            self = .expired
        }
    }

    /// The last transaction of one original transaction: the latest `purchaseDate` (on equal
    /// dates, the greater transaction id, so that the choice never depends on order).
    static func last(of transactions: [StoredSignedTransaction]) -> StoredSignedTransaction? {
        transactions.max { a, b in
            (a.purchaseMilliseconds, a.transactionID.count, a.transactionID) < (b.purchaseMilliseconds, b.transactionID.count, b.transactionID)
        }
    }
}
