import ReceiptStore

/// Get All Subscription Statuses (`StatusResponse`): the customer's auto-renewable subscriptions
/// by subscription group, each original transaction's last transaction and latest renewal info
/// passed through as stored, with its `status` at the request's time.
enum StatusAnswer {
    static let autoRenewable = "Auto-Renewable Subscription"

    /// One original transaction's entry of `lastTransactions`.
    struct Item: Sendable, Hashable {
        let group: String
        let originalTransactionID: String
        let status: SubscriptionStatus
        let last: StoredSignedTransaction
        let renewal: StoredSignedRenewal?
    }

    /// Every auto-renewable original transaction of `customer` with its status at `time`, by
    /// group and original transaction id.
    static func items(_ customer: CustomerRecords, at time: Int64) -> [Item] {
        let renewals = Dictionary(customer.renewals.map { ($0.originalTransactionID, $0) }, uniquingKeysWith: { a, _ in a })
        let subscriptions = Dictionary(grouping: customer.transactions.filter { $0.facts.type == autoRenewable }) { $0.originalTransactionID }
        return subscriptions.compactMap { original, transactions in
            guard let last = SubscriptionStatus.last(of: transactions) else { return nil }
            let renewal = renewals[original]
            return Item(
                group: last.facts.subscriptionGroupIdentifier ?? "", originalTransactionID: original,
                status: SubscriptionStatus(last: last.facts, renewal: renewal?.facts, at: time), last: last, renewal: renewal)
        }
        .sorted { ($0.group, $0.originalTransactionID) < ($1.group, $1.originalTransactionID) }
    }

    /// The body; `statuses` (the `status` query parameter) keeps only items in it, and groups
    /// left with none are left out. Written into one string sized beforehand: the body is
    /// mostly the tokens, copied once.
    static func json(
        _ customer: CustomerRecords, scope: APIScope, statuses: Set<SubscriptionStatus>?, at time: Int64
    ) -> String {
        let kept = items(customer, at: time).filter { statuses?.contains($0.status) ?? true }
        var text = ""
        text.reserveCapacity(kept.reduce(256) { $0 + 192 + $1.last.facts.jws.utf8.count + ($1.renewal?.facts.jws.utf8.count ?? 0) })
        text += #"{"environment":"#
        APIJSON.append(quoted: scope.environment, to: &text)
        text += #","bundleId":"#
        APIJSON.append(quoted: scope.bundleID, to: &text)
        if let appAppleID = scope.appAppleID { text += #","appAppleId":"# + String(appAppleID) }
        text += #","data":["#
        for (index, item) in kept.enumerated() {
            let opensGroup = index == 0 || kept[index - 1].group != item.group
            if opensGroup {
                if index > 0 { text += "]}," }
                text += #"{"subscriptionGroupIdentifier":"#
                APIJSON.append(quoted: item.group, to: &text)
                text += #","lastTransactions":["#
            } else {
                text += ","
            }
            text += #"{"originalTransactionId":"#
            APIJSON.append(quoted: item.originalTransactionID, to: &text)
            text += #","status":"# + String(item.status.rawValue) + #","signedTransactionInfo":"#
            APIJSON.append(quoted: item.last.facts.jws, to: &text)
            if let renewal = item.renewal {
                text += #","signedRenewalInfo":"#
                APIJSON.append(quoted: renewal.facts.jws, to: &text)
            }
            text += "}"
        }
        text += kept.isEmpty ? "]}" : "]}]}"
        return text
    }
}

/// Whom an App Store Server API request is about: the caller's app (the JWT's `bid`), the
/// environment of the path prefix (or of the stored data, for Xcode), and the app's Apple id when
/// the registry knows it.
public struct APIScope: Sendable, Hashable {
    public let bundleID: String
    public let environment: String
    public let appAppleID: Int64?

    public init(bundleID: String, environment: String, appAppleID: Int64?) {
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
    }
}
