/// The statement that keeps `next_purchase_ms` and `previous_offer_discount_type` (version 13,
/// `SubscriptionOrderSchema`) true: the subscription's auto-renewable transactions ordered by the
/// status rule (DESIGN §13: purchase date, then the longer, then the greater transaction id), each
/// given its successor's purchase date and its predecessor's discount. Only rows whose values
/// change are written.
enum SubscriptionOrderStatements {
    /// The UPDATE for `subscriptions` (bundle id, environment, original transaction id) triples,
    /// three `?` each, or for every subscription when nil (the migration).
    static func refresh(subscriptions: Int?, _ d: SQLDialect) -> String {
        let byID = d == .postgres ? #"transaction_id COLLATE "C""# : "transaction_id"
        let only = subscriptions.map { count in
            "("
                + Array(repeating: "(bundle_id = ? AND environment = ? AND original_transaction_id = ?)", count: count)
                .joined(separator: " OR ") + ") AND "
        }
        return """
            UPDATE notification_transactions
            SET next_purchase_ms = o.next_purchase_ms, previous_offer_discount_type = o.previous_offer_discount_type
            FROM (
                SELECT bundle_id, environment, transaction_id,
                    LEAD(purchase_date_ms) OVER w AS next_purchase_ms, LAG(offer_discount_type) OVER w AS previous_offer_discount_type
                FROM notification_transactions WHERE \(only ?? "")product_type = \(SubscriptionMetricsStatements.autoRenewable)
                WINDOW w AS (PARTITION BY bundle_id, environment, original_transaction_id
                    ORDER BY purchase_date_ms, LENGTH(transaction_id), \(byID))
            ) AS o
            WHERE notification_transactions.bundle_id = o.bundle_id AND notification_transactions.environment = o.environment
                AND notification_transactions.transaction_id = o.transaction_id
                AND (notification_transactions.next_purchase_ms IS DISTINCT FROM o.next_purchase_ms
                    OR notification_transactions.previous_offer_discount_type IS DISTINCT FROM o.previous_offer_discount_type)
            """
    }

    /// The subscriptions a batch's auto-renewable transactions belong to (no other row has
    /// neighbours), each once, sorted (so that concurrent writers lock rows in one order):
    /// (bundle id, environment, original id).
    static func subscriptions(_ transactions: [(key: NotificationStatements.Rows.Key, value: NotificationTransaction)]) -> [SQLValue] {
        let keys = Set(
            transactions.filter { $0.value.signed?.type == SubscriptionMetricsStatements.autoRenewableType }.map {
                NotificationStatements.Rows.Key(bundleID: $0.key.bundleID, environment: $0.key.environment, id: $0.value.originalTransactionID)
            })
        return keys.sorted().flatMap { [SQLValue.text($0.bundleID), .text($0.environment), .text($0.id)] }
    }
}
