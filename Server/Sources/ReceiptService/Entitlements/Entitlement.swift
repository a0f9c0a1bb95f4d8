import ReceiptStore

/// What one user of an app may use (DESIGN §18): per entitlement the app defines that the user
/// ever had, the purchase that best grants it now.
public struct Entitlement: Sendable, Hashable {
    public var name: String
    /// Status 1 or 4 for an auto-renewable subscription; a non-consumable not revoked.
    public var active: Bool
    public var productID: String
    public var originalTransactionID: String
    /// `expiresDate` (milliseconds) of the subscription's last transaction.
    public var expiresMilliseconds: Int64?
    /// Apple's status 1–5 for auto-renewable subscriptions (the server's status rule), nil otherwise.
    public var status: Int?
    /// The renewal info's `autoRenewStatus` for auto-renewable subscriptions, nil otherwise or unknown.
    public var willAutoRenew: Bool?
    /// The purchase date of the granting transaction (orders candidates; not answered).
    var purchaseMilliseconds: Int64

    /// The entitlements `definitions` grant with `customer`'s purchases at `time`, by name.
    ///
    /// A subscription grants the entitlements of its current product (its last transaction's),
    /// with its status at `time`; any other transaction those of its own product. When several
    /// grant one entitlement, the answer is an active one first, then the one lasting longest (a
    /// non-consumable outlasts any date), then the latest purchase.
    static func granted(by definitions: [EntitlementDefinition], _ customer: CustomerRecords, at time: Int64) -> [Entitlement] {
        let candidates = subscriptions(customer, at: time) + oneTimePurchases(customer, at: time)
        return definitions.sorted { $0.name < $1.name }.compactMap { definition in
            let products = Set(definition.productIDs)
            return candidates.filter { products.contains($0.productID) }.max(by: Self.weaker).map { best in
                var entitlement = best
                entitlement.name = definition.name
                return entitlement
            }
        }
    }

    static func subscriptions(_ customer: CustomerRecords, at time: Int64) -> [Entitlement] {
        StatusAnswer.items(customer, at: time).map { item in
            Entitlement(
                name: "", active: item.status == .active || item.status == .billingGracePeriod, productID: item.last.productID,
                originalTransactionID: item.originalTransactionID, expiresMilliseconds: item.last.facts.expiresMilliseconds,
                status: item.status.rawValue, willAutoRenew: item.renewal?.facts.autoRenewStatus.map { $0 == 1 },
                purchaseMilliseconds: item.last.purchaseMilliseconds)
        }
    }

    static func oneTimePurchases(_ customer: CustomerRecords, at time: Int64) -> [Entitlement] {
        customer.transactions.filter { $0.facts.type != StatusAnswer.autoRenewable }.map { t in
            let revoked = t.facts.revocationMilliseconds.map { $0 <= time } ?? false
            return Entitlement(
                name: "", active: t.facts.type == "Non-Consumable" && !revoked, productID: t.productID,
                originalTransactionID: t.originalTransactionID, expiresMilliseconds: t.facts.expiresMilliseconds, status: nil,
                willAutoRenew: nil, purchaseMilliseconds: t.purchaseMilliseconds)
        }
    }

    /// Whether `a` grants less than `b`: inactive before active, then sooner expiry (none lasts
    /// longest), then earlier purchase, then original transaction id.
    static func weaker(_ a: Entitlement, _ b: Entitlement) -> Bool {
        func lasting(_ e: Entitlement) -> Int64 { e.expiresMilliseconds ?? .max }
        if a.active != b.active { return !a.active }
        if lasting(a) != lasting(b) { return lasting(a) < lasting(b) }
        if a.purchaseMilliseconds != b.purchaseMilliseconds { return a.purchaseMilliseconds < b.purchaseMilliseconds }
        return a.originalTransactionID < b.originalTransactionID
    }
}
