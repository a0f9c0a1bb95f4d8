/// The SQL and the batch preparation of notification writes, for both backends (`?`
/// placeholders, numbered for PostgreSQL by `StoreStatements.numbered`).
enum NotificationStatements {
    static let notificationColumns = """
        (notification_uuid, bundle_id, environment, notification_type, subtype, signed_date_ms, signed_payload, received_ms, \
        original_transaction_id)
        """
    static let transactionColumns = """
        (bundle_id, environment, transaction_id, original_transaction_id, product_id, purchase_date_ms, signed_date_ms, \
        info, server_members, signed_transaction, product_type, subscription_group, expires_date_ms, revocation_date_ms, \
        ownership_type, app_account_token, changed_ms, price, currency, transaction_reason, offer_discount_type)
        """
    /// The number of `transactionColumns`.
    static let transactionColumnCount = 21
    static let renewalColumns = """
        (bundle_id, environment, original_transaction_id, signed_date_ms, info, signed_renewal_info, billing_retry, \
        grace_period_expires_ms, auto_renew_status)
        """
    /// The number of `renewalColumns`.
    static let renewalColumnCount = 9

    /// A notificationUUID already stored is left as it is: Apple's retries are stored once.
    static func insertNotifications(rows: Int) -> String {
        """
        INSERT INTO notifications \(notificationColumns) VALUES \(StoreStatements.placeholders(rows: rows, columns: 9))
        ON CONFLICT (notification_uuid) DO NOTHING
        """
    }

    /// One row per transaction key; the later `signedDate` replaces the stored facts, an earlier
    /// one changes nothing (`later(_:than:)` is the same rule for rows of one batch). The JWS
    /// columns (version 6) change with the row; `changed_ms` is when it last changed.
    static func upsertTransactions(rows: Int, _ d: SQLDialect) -> String {
        """
        INSERT INTO notification_transactions \(transactionColumns) VALUES \(StoreStatements.placeholders(rows: rows, columns: transactionColumnCount))
        ON CONFLICT (bundle_id, environment, transaction_id) DO UPDATE SET
            original_transaction_id = excluded.original_transaction_id, product_id = excluded.product_id,
            purchase_date_ms = excluded.purchase_date_ms, signed_date_ms = excluded.signed_date_ms, info = excluded.info,
            server_members = excluded.server_members, signed_transaction = excluded.signed_transaction,
            product_type = excluded.product_type, subscription_group = excluded.subscription_group,
            expires_date_ms = excluded.expires_date_ms, revocation_date_ms = excluded.revocation_date_ms,
            ownership_type = excluded.ownership_type, app_account_token = excluded.app_account_token,
            changed_ms = excluded.changed_ms, price = excluded.price, currency = excluded.currency,
            transaction_reason = excluded.transaction_reason, offer_discount_type = excluded.offer_discount_type
        WHERE \(laterCondition("notification_transactions", d, token: "signed_transaction"))
        """
    }

    /// One row per subscription (original transaction id); the later `signedDate` wins.
    static func upsertRenewals(rows: Int, _ d: SQLDialect) -> String {
        """
        INSERT INTO renewal_infos \(renewalColumns) VALUES \(StoreStatements.placeholders(rows: rows, columns: renewalColumnCount))
        ON CONFLICT (bundle_id, environment, original_transaction_id) DO UPDATE SET
            signed_date_ms = excluded.signed_date_ms, info = excluded.info, signed_renewal_info = excluded.signed_renewal_info,
            billing_retry = excluded.billing_retry, grace_period_expires_ms = excluded.grace_period_expires_ms,
            auto_renew_status = excluded.auto_renew_status
        WHERE \(laterCondition("renewal_infos", d, token: "signed_renewal_info"))
        """
    }

    /// The incoming row is later: a later `signed_date_ms`, or the same one and a greater `info`
    /// in byte order, so that the stored row never depends on the order of arrival.
    ///
    /// A row stored before version 6 kept no token (`token` is its column): the same facts again
    /// with their token (`receipt-server ingest` of an old notification) fill it in.
    static func laterCondition(_ table: String, _ d: SQLDialect, token: String? = nil) -> String {
        let bytewise = d == .postgres ? #" COLLATE "C""# : ""   // SQLite compares TEXT with memcmp (BINARY)
        let filled = token.map { column in
            """
             OR (\(table).\(column) IS NULL AND excluded.\(column) IS NOT NULL AND excluded.signed_date_ms = \(table).signed_date_ms \
            AND excluded.info = \(table).info)
            """
        }
        return """
            excluded.signed_date_ms > \(table).signed_date_ms OR (excluded.signed_date_ms = \(table).signed_date_ms \
            AND excluded.info\(bytewise) > \(table).info\(bytewise))\(filled ?? "")
            """
    }

    /// Whether (signed, info) `a` is later than `b`: the rule of `laterCondition`.
    static func later(_ a: (signed: Int64, info: String), than b: (signed: Int64, info: String)) -> Bool {
        a.signed != b.signed ? a.signed > b.signed : b.info.utf8.lexicographicallyPrecedes(a.info.utf8)
    }

    /// The values of a transaction row after the key (`transactionColumns` from
    /// `original_transaction_id` on), `changed` being the server's clock.
    static func transactionValues(_ t: NotificationTransaction, changed: Int64) -> [SQLValue] {
        let s = t.signed
        return [
            .text(t.originalTransactionID), .text(t.productID), .integer(t.purchaseMilliseconds), .integer(t.signedMilliseconds),
            .text(t.json), .text(t.serverMembers), .text(s?.jws), .text(s?.type), .text(s?.subscriptionGroupIdentifier),
            .integer(s?.expiresMilliseconds), .integer(s?.revocationMilliseconds), .text(s?.inAppOwnershipType),
            .text(s?.appAccountToken), .integer(changed), .integer(s?.commerce.price), .text(s?.commerce.currency),
            .text(s?.commerce.transactionReason), .text(s?.commerce.offerDiscountType),
        ]
    }

    /// The values of a renewal row after the key (`renewalColumns` from `signed_date_ms` on).
    static func renewalValues(_ r: RenewalInfoRecord) -> [SQLValue] {
        [
            .integer(r.signedMilliseconds), .text(r.json),
            .text(r.signed?.jws), .integer(r.signed.map { $0.isInBillingRetryPeriod ? 1 : 0 }),
            .integer(r.signed?.gracePeriodExpiresMilliseconds), .integer(r.signed?.autoRenewStatus),
        ]
    }

    /// The values of a notification row (`notificationColumns`), `received` being the server's clock.
    static func notificationValues(_ n: NotificationRecord, received: Int64) -> [SQLValue] {
        [
            .text(n.uuid), .text(n.bundleID), .text(n.environment), .text(n.type), .text(n.subtype), .integer(n.signedMilliseconds),
            .text(n.signedPayload), .integer(received),
            .text(n.transaction?.originalTransactionID ?? n.renewalInfo?.originalTransactionID),
        ]
    }

    /// A batch's rows, each key once (the later by `later(_:than:)`), sorted by key so that
    /// concurrent writers lock rows in one order.
    struct Rows {
        var notifications: [NotificationRecord] = []
        var transactions: [(key: Key, value: NotificationTransaction)] = []
        var renewals: [(key: Key, value: RenewalInfoRecord)] = []
        /// Keyed by `appTransactionId`; the later by `AppTransactionStatements.later(_:than:)`.
        var appTransactions: [(key: Key, value: AppTransactionRecord)] = []

        /// (bundle id, environment, transaction id or original transaction id).
        struct Key: Hashable, Comparable {
            let bundleID: String, environment: String, id: String
            static func < (a: Key, b: Key) -> Bool { (a.bundleID, a.environment, a.id) < (b.bundleID, b.environment, b.id) }
        }

        init(_ batch: [SignedDataWrite]) {
            var seen = Set<String>()
            var transactions: [Key: NotificationTransaction] = [:]
            var renewals: [Key: RenewalInfoRecord] = [:]
            var appTransactions: [Key: AppTransactionRecord] = [:]
            for record in batch {
                if case .notification(let notification) = record, seen.insert(notification.uuid).inserted { notifications.append(notification) }
                if let t = record.transaction {
                    Self.keepLater(
                        t, Key(bundleID: record.bundleID, environment: record.environment, id: t.transactionID),
                        in: &transactions
                    ) { ($0.signedMilliseconds, $0.json) }
                }
                if let r = record.renewalInfo {
                    Self.keepLater(
                        r, Key(bundleID: record.bundleID, environment: record.environment, id: r.originalTransactionID),
                        in: &renewals
                    ) { ($0.signedMilliseconds, $0.json) }
                }
                if let a = record.appTransaction {
                    let key = Key(bundleID: a.bundleID, environment: a.environment, id: a.appTransactionID)
                    if let kept = appTransactions[key], !AppTransactionStatements.later(a, than: kept) { continue }
                    appTransactions[key] = a
                }
            }
            notifications.sort { $0.uuid < $1.uuid }
            self.transactions = transactions.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
            self.renewals = renewals.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
            self.appTransactions = appTransactions.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
        }

        /// Puts `value` under `key` unless the value there is later.
        static func keepLater<V>(_ value: V, _ key: Key, in table: inout [Key: V], _ order: (V) -> (signed: Int64, info: String)) {
            if let kept = table[key], !NotificationStatements.later(order(value), than: order(kept)) { return }
            table[key] = value
        }
    }
}
