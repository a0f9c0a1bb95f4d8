import ReceiptStore

/// The query of Get Transaction History (v1 and v2), checked as Apple's (DESIGN §13): every
/// filter is optional; a repeatable filter matches any of its values; different filters must all
/// match.
struct HistoryRequest: Sendable, Hashable {
    var revision: PageToken?
    /// `startDate` ≤ `purchaseDate` < `endDate` (milliseconds).
    var startDate: Int64?
    var endDate: Int64?
    var productIDs: Set<String> = []
    /// Transaction `type`s (`productType` mapped by `productTypes`).
    var types: Set<String> = []
    var groups: Set<String> = []
    var ownership: String?
    var descending = false
    var revoked: Bool?

    /// `productType` values and the transaction `type` each names.
    static let productTypes = [
        "AUTO_RENEWABLE": "Auto-Renewable Subscription", "NON_RENEWABLE": "Non-Renewing Subscription",
        "CONSUMABLE": "Consumable", "NON_CONSUMABLE": "Non-Consumable",
    ]

    /// Reads the query's parameters (in order; unknown names are ignored; a parameter that is not
    /// repeatable takes its first value).
    init(query: [(name: String, value: String)]) throws(AppStoreAPIError) {
        func first(_ name: String) -> String? { query.first { $0.name == name }?.value }
        func all(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }
        revision = try PageToken.revision(in: query, .history)
        startDate = try first("startDate").map { text throws(AppStoreAPIError) in try Self.milliseconds(text, or: .invalidStartDate) }
        endDate = try first("endDate").map { text throws(AppStoreAPIError) in try Self.milliseconds(text, or: .invalidEndDate) }
        if let start = startDate, let end = endDate, end <= start { throw .invalidDateRange }
        productIDs = Set(all("productId"))
        for value in all("productType") {
            guard let type = Self.productTypes[value] else { throw .invalidProductType }
            types.insert(type)
        }
        groups = Set(all("subscriptionGroupIdentifier"))
        if let value = first("inAppOwnershipType") {
            guard value == "PURCHASED" || value == "FAMILY_SHARED" else { throw .invalidOwnershipType }
            ownership = value
        }
        switch first("sort") {
        case nil, "ASCENDING": descending = false
        case "DESCENDING": descending = true
        default: throw .invalidSort
        }
        if let value = first("revoked") {
            // Apple's Python client sends `True`/`False`.
            switch value.lowercased() {
            case "true": revoked = true
            case "false": revoked = false
            default: throw .invalidRevoked
            }
        }
    }

    /// A date parameter: milliseconds since 1970, digits only (at most 15: year 33658).
    static func milliseconds(_ text: String, or error: AppStoreAPIError) throws(AppStoreAPIError) -> Int64 {
        guard let value = DecimalText.integer(text, maxDigits: 15) else { throw error }
        return value
    }

    /// Whether a transaction passes every filter.
    func matches(_ t: StoredSignedTransaction) -> Bool {
        if let startDate, t.purchaseMilliseconds < startDate { return false }
        if let endDate, t.purchaseMilliseconds >= endDate { return false }
        if !productIDs.isEmpty, !productIDs.contains(t.productID) { return false }
        if !types.isEmpty, !types.contains(t.facts.type) { return false }
        if !groups.isEmpty, !groups.contains(t.facts.subscriptionGroupIdentifier ?? "") { return false }
        if let ownership, t.facts.inAppOwnershipType != ownership { return false }
        if let revoked, (t.facts.revocationMilliseconds != nil) != revoked { return false }
        return true
    }

    /// The matching transactions in the requested order (by the time the server last changed
    /// them, then transaction id) and the page after `revision`.
    func page(_ transactions: [StoredSignedTransaction], size: Int) -> Page<StoredSignedTransaction> {
        let key = { (t: StoredSignedTransaction) in PageToken(milliseconds: t.changedMilliseconds, id: t.transactionID) }
        // Each key made once, not twice per comparison.
        let keyed = transactions.filter(matches).map { (key: key($0), item: $0) }
        let sorted = keyed.sorted { descending ? $1.key < $0.key : $0.key < $1.key }.map(\.item)
        return Page(sorted, after: revision, descending: descending, size: size, key: key)
    }
}
