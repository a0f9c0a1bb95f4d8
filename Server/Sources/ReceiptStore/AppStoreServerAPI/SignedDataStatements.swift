/// A value bound to a statement, for SQL both backends run from one text (`SignedDataStatements`,
/// `NotificationStatements`): each backend converts it to its own binding.
enum SQLValue: Sendable, Hashable {
    case text(String?)
    case integer(Int64?)
    /// A list: one `?` per element in SQLite (`IN (?, …)`), one array `?` in PostgreSQL (`= ANY(?)`).
    case texts([String])
}

/// A statement being built: SQL text with `?` placeholders (numbered for PostgreSQL by
/// `StoreStatements.numbered`) and its values in order.
struct SQLStatement: Sendable {
    let dialect: SQLDialect
    var sql = ""
    var values: [SQLValue] = []

    init(_ dialect: SQLDialect, _ sql: String = "", _ values: SQLValue...) {
        self.dialect = dialect
        append(sql, values)
    }

    mutating func append(_ sql: String, _ values: SQLValue...) { append(sql, values) }

    private mutating func append(_ sql: String, _ values: [SQLValue]) {
        self.sql += sql
        self.values += values
    }

    /// `column IN (?, …)` (SQLite, the list padded by `StoreStatements.paddedList` so that its
    /// statements can be cached) or `column = ANY(?)` (PostgreSQL), for `ids` (not empty).
    mutating func among(_ column: String, _ ids: [String]) {
        switch dialect {
        case .sqlite:
            let (placeholders, padded) = StoreStatements.inList(ids)
            append("\(column) IN \(placeholders)", padded.map { .text($0) })
        case .postgres: append("\(column) = ANY(?)", .texts(ids))
        }
    }

    /// The text as the backend runs it.
    var text: String { dialect == .postgres ? StoreStatements.numbered(sql) : sql }
}

/// What the notification writer (`GroupCommit<SignedDataWrite>`) stores: a verified
/// notification (its row, its transaction, its renewal info and its app transaction), a
/// transaction an app's backend posted or `receipt-server import` read (its transaction and, when
/// imported, its renewal info, by the notifications' rule: the latest `signedDate` wins), or an app
/// transaction an app's backend posted.
enum SignedDataWrite: Sendable {
    case notification(NotificationRecord)
    case posted(PostedTransaction)
    case appTransaction(AppTransactionRecord)

    var bundleID: String {
        switch self {
        case .notification(let n): n.bundleID
        case .posted(let p): p.bundleID
        case .appTransaction(let a): a.bundleID
        }
    }

    var environment: String {
        switch self {
        case .notification(let n): n.environment
        case .posted(let p): p.environment
        case .appTransaction(let a): a.environment
        }
    }

    var transaction: NotificationTransaction? {
        switch self {
        case .notification(let n): n.transaction
        case .posted(let p): p.transaction
        case .appTransaction: nil
        }
    }

    var renewalInfo: RenewalInfoRecord? {
        switch self {
        case .notification(let n): n.renewalInfo
        case .posted(let p): p.renewalInfo
        case .appTransaction: nil
        }
    }

    var appTransaction: AppTransactionRecord? {
        switch self {
        case .notification(let n): n.appTransaction
        case .posted: nil
        case .appTransaction(let a): a
        }
    }
}

/// The App Store Server API's reads, one SQL text for both backends (DESIGN §13). Only rows that
/// hold a JWS (stored since version 6) are seen.
enum SignedDataStatements {
    /// How many transactions one customer read returns at most (newest purchases first).
    static let maxCustomerRows = 10_000

    /// The original transaction ids of the customer of `id` (DESIGN §13, Server/README "Who is one
    /// customer"): the original of the signed transaction `id`, and `id` itself when signed
    /// transactions name it as their original. Only facts Apple signed and the client cannot
    /// choose link transactions: an `appAccountToken`, which the app sets, never does. Both halves
    /// are read by an index (the primary key; `notification_transactions_by_original`, one row).
    static func originalsOf(_ id: String, bundleID: String, environment: String, _ d: SQLDialect) -> SQLStatement {
        SQLStatement(
            d,
            """
            SELECT original_transaction_id FROM notification_transactions \
            WHERE bundle_id = ? AND environment = ? AND transaction_id = ? AND signed_transaction IS NOT NULL \
            UNION SELECT original_transaction_id FROM (SELECT original_transaction_id FROM notification_transactions \
            WHERE bundle_id = ? AND environment = ? AND original_transaction_id = ? AND signed_transaction IS NOT NULL LIMIT 1) AS named
            """, .text(bundleID), .text(environment), .text(id), .text(bundleID), .text(environment), .text(id))
    }

    /// The columns `transaction(_:)` reads, of the signed transactions of an app and environment
    /// (the first two values bound).
    private static let selectSignedTransactions = """
        SELECT transaction_id, original_transaction_id, product_id, purchase_date_ms, signed_date_ms, \
        COALESCE(changed_ms, signed_date_ms), signed_transaction, COALESCE(product_type, ''), subscription_group, expires_date_ms, \
        revocation_date_ms, ownership_type, app_account_token
        FROM notification_transactions WHERE bundle_id = ? AND environment = ? AND signed_transaction IS NOT NULL AND 
        """

    /// The newest purchases first, at most `limit`. In SQLite the order is `+purchase_date_ms`: a
    /// bare column lets its planner (no statistics) walk the app's whole
    /// `notification_transactions_by_purchase` index to skip one small sort, 0.3 s per customer
    /// of an app with 270,000 transactions instead of an index look-up per original id.
    private static func newestFirst(_ statement: inout SQLStatement, limit: Int) {
        let purchase = statement.dialect == .sqlite ? "+purchase_date_ms" : "purchase_date_ms"
        statement.append(" ORDER BY \(purchase) DESC, transaction_id DESC LIMIT ?", .integer(Int64(limit)))
    }

    /// The signed transactions of `originals`, newest purchase first, at most `limit`; columns as
    /// `transaction(_:)` reads them.
    static func transactionsOf(_ originals: [String], limit: Int, bundleID: String, environment: String, _ d: SQLDialect) -> SQLStatement {
        var statement = SQLStatement(d, selectSignedTransactions, .text(bundleID), .text(environment))
        statement.among("original_transaction_id", originals)
        newestFirst(&statement, limit: limit)
        return statement
    }

    /// The signed renewal infos of `originals`; columns as `renewal(_:)` reads them.
    static func renewalsOf(_ originals: [String], bundleID: String, environment: String, _ d: SQLDialect) -> SQLStatement {
        var statement = SQLStatement(
            d,
            """
            SELECT original_transaction_id, signed_date_ms, signed_renewal_info, COALESCE(billing_retry, 0), grace_period_expires_ms, \
            auto_renew_status FROM renewal_infos WHERE bundle_id = ? AND environment = ? AND signed_renewal_info IS NOT NULL AND 
            """, .text(bundleID), .text(environment))
        statement.among("original_transaction_id", originals)
        return statement
    }

    /// A row of `transactionsOf`.
    typealias TransactionColumns = (
        String, String, String, Int64, Int64, Int64, String, String, String?, Int64?, Int64?, String?, String?
    )

    static func transaction(_ c: TransactionColumns) -> StoredSignedTransaction {
        StoredSignedTransaction(
            transactionID: c.0, originalTransactionID: c.1, productID: c.2, purchaseMilliseconds: c.3, signedMilliseconds: c.4,
            changedMilliseconds: c.5,
            facts: SignedTransactionFacts(
                jws: c.6, type: c.7, subscriptionGroupIdentifier: c.8, expiresMilliseconds: c.9, revocationMilliseconds: c.10,
                inAppOwnershipType: c.11, appAccountToken: c.12))
    }

    /// A row of `renewalsOf`.
    typealias RenewalColumns = (String, Int64, String, Int64, Int64?, Int64?)

    static func renewal(_ c: RenewalColumns) -> StoredSignedRenewal {
        StoredSignedRenewal(
            originalTransactionID: c.0, signedMilliseconds: c.1,
            facts: SignedRenewalFacts(jws: c.2, isInBillingRetryPeriod: c.3 != 0, gracePeriodExpiresMilliseconds: c.4, autoRenewStatus: c.5))
    }

    /// The notifications of `query`: (notificationUUID, signedPayload, received_ms), ordered by
    /// received time then notificationUUID in byte order; nil when the query can match nothing.
    static func notificationHistory(
        bundleID: String, environment: String, _ query: NotificationHistoryQuery, _ d: SQLDialect
    ) -> SQLStatement? {
        guard query.limit > 0, query.startMilliseconds < query.endMilliseconds, query.originalTransactionIDs?.isEmpty != true else {
            return nil
        }
        let uuid = d == .postgres ? #"notification_uuid COLLATE "C""# : "notification_uuid"   // SQLite: BINARY
        var statement = SQLStatement(
            d,
            """
            SELECT notification_uuid, signed_payload, received_ms FROM notifications
            WHERE bundle_id = ? AND environment = ? AND received_ms >= ? AND received_ms < ?
            """, .text(bundleID), .text(environment), .integer(query.startMilliseconds), .integer(query.endMilliseconds))
        if let type = query.type { statement.append(" AND notification_type = ?", .text(type)) }
        if let subtype = query.subtype { statement.append(" AND subtype = ?", .text(subtype)) }
        if let originals = query.originalTransactionIDs {
            statement.append(" AND original_transaction_id IS NOT NULL AND ")
            statement.among("original_transaction_id", originals)
        }
        if let cursor = query.cursor {
            statement.append(
                " AND (received_ms > ? OR (received_ms = ? AND \(uuid) > ?))",
                .integer(cursor.receivedMilliseconds), .integer(cursor.receivedMilliseconds), .text(cursor.uuid))
        }
        statement.append(" ORDER BY received_ms, \(uuid) LIMIT ?", .integer(Int64(query.limit)))
        return statement
    }
}
