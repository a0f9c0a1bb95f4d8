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
    /// left with none are left out.
    static func json(
        _ customer: CustomerRecords, scope: APIScope, statuses: Set<SubscriptionStatus>?, at time: Int64
    ) -> String {
        let kept = items(customer, at: time).filter { statuses?.contains($0.status) ?? true }
        var groups: [String] = []
        var start = kept.startIndex
        while start < kept.endIndex {
            let group = kept[start].group
            let end = kept[start...].firstIndex { $0.group != group } ?? kept.endIndex
            let last = kept[start ..< end].map { item in
                APIJSON.object([
                    "originalTransactionId": APIJSON.quoted(item.originalTransactionID),
                    "status": String(item.status.rawValue),
                    "signedTransactionInfo": APIJSON.quoted(item.last.facts.jws),
                    "signedRenewalInfo": item.renewal.map { APIJSON.quoted($0.facts.jws) },
                ])
            }
            groups.append(
                APIJSON.object(["subscriptionGroupIdentifier": APIJSON.quoted(group), "lastTransactions": APIJSON.array(last)]))
            start = end
        }
        return APIJSON.object([
            "environment": APIJSON.quoted(scope.environment),
            "bundleId": APIJSON.quoted(scope.bundleID),
            "appAppleId": scope.appAppleID.map(String.init),
            "data": APIJSON.array(groups),
        ])
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
