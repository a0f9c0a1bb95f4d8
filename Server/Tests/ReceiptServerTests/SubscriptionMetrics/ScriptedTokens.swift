import Foundation

/// The script as the server learns it: each customer's subscription periods and non-consumable
/// as signed transactions posted by the app's back end (`POST /inApps/v1/transactions`), and its
/// last period with its renewal info in a signed notification (`DID_RENEW` or, once it has
/// stopped, `DID_CHANGE_RENEWAL_STATUS` / `DID_FAIL_TO_RENEW`), all under the synthetic G3 chain.
struct ScriptedTokens: Sendable {
    typealias N = SyntheticNotifications
    typealias S = SignedAPIData

    /// Tokens to post, and notifications to send.
    let posted: [String]
    let notifications: [String]

    init(_ script: ScriptedCustomers) {
        var posted: [String] = []
        var notifications: [String] = []
        let signed = script.now - 60_000
        for c in script.customers {
            if let p = c.lifetime {
                var changes = Self.commerce(p, c)
                changes["revocationDate"] = p.revoked
                posted.append(
                    S.transaction(
                        Self.transaction(p, c, signed: signed),
                        changes.merging(["type": "Non-Consumable", "expiresDate": nil, "subscriptionGroupIdentifier": nil]) { _, b in b }))
            }
            for (k, p) in c.periods.enumerated() {
                let token = S.transaction(Self.transaction(p, c, signed: signed), Self.commerce(p, c))
                guard k == c.periods.count - 1 else {
                    posted.append(token)
                    continue
                }
                var renewal: [String: Any?] = ["autoRenewStatus": c.autoRenew ? 1 : 0]
                if c.billingRetry {
                    renewal["isInBillingRetryPeriod"] = true
                    renewal["gracePeriodExpiresDate"] = c.grace
                }
                let info = S.renewal(
                    N.Renewal(originalTransactionId: c.original, productId: p.product, autoRenewProductId: p.product, signedDate: signed), renewal)
                let type = c.billingRetry ? "DID_FAIL_TO_RENEW" : c.autoRenew ? "DID_RENEW" : "DID_CHANGE_RENEWAL_STATUS"
                notifications.append(S.notification(type, signedDate: signed, transaction: token, renewal: info))
            }
        }
        self.posted = posted
        self.notifications = notifications
    }

    static func transaction(_ p: ScriptedCustomers.Purchase, _ c: ScriptedCustomers.Customer, signed: Int64) -> N.Transaction {
        N.Transaction(
            transactionId: p.transactionID, originalTransactionId: p.expires == nil ? p.transactionID : c.original, productId: p.product,
            purchaseDate: p.purchased, expiresDate: p.expires ?? 0, signedDate: signed, revocationDate: p.revoked,
            revocationReason: p.revoked == nil ? nil : 0, offerType: p.trial ? 1 : nil, offerDiscountType: p.trial ? "FREE_TRIAL" : nil)
    }

    static func commerce(_ p: ScriptedCustomers.Purchase, _ c: ScriptedCustomers.Customer) -> [String: Any?] {
        [
            "price": p.price, "currency": p.currency, "transactionReason": p.reason, "appAccountToken": c.token,
            "subscriptionGroupIdentifier": ScriptedCustomers.group,
        ]
    }
}
