/// SQL both backends run, written once with `?` placeholders (PostgreSQL's are numbered by
/// `numbered`).
enum StoreStatements {
    static let receiptColumns = "(sha256, bundle_id, environment, created_ms, data, stored_ms)"
    static let transactionColumns = """
        (bundle_id, environment, transaction_id, original_transaction_id, product_id, purchase_date_ms, \
        info, as_of_ms, receipt_sha256, receipt_created_ms)
        """

    /// A receipt already stored is left as it is (and its transactions are not touched again).
    static func insertReceipts(rows: Int) -> String {
        "INSERT INTO receipts \(receiptColumns) VALUES \(placeholders(rows: rows, columns: 6)) ON CONFLICT (sha256) DO NOTHING"
    }

    /// One row per transaction key; a newer source (`as_of_ms`) replaces the stored facts and the
    /// pointer to the newest receipt holding it, an older or equal one changes nothing.
    static func upsertTransactions(rows: Int) -> String {
        """
        INSERT INTO transactions \(transactionColumns) VALUES \(placeholders(rows: rows, columns: 10))
        ON CONFLICT (bundle_id, environment, transaction_id) DO UPDATE SET
            original_transaction_id = excluded.original_transaction_id, product_id = excluded.product_id,
            purchase_date_ms = excluded.purchase_date_ms, info = excluded.info, as_of_ms = excluded.as_of_ms,
            receipt_sha256 = excluded.receipt_sha256, receipt_created_ms = excluded.receipt_created_ms
        WHERE excluded.as_of_ms > transactions.as_of_ms
        """
    }

    static let upsertApp = """
        INSERT INTO apps (bundle_id, shared_secret_hash, apple_id) VALUES (?, ?, ?)
        ON CONFLICT (bundle_id) DO UPDATE SET shared_secret_hash = excluded.shared_secret_hash, apple_id = excluded.apple_id
        """
    static let selectApps = "SELECT bundle_id, shared_secret_hash, apple_id, unproven_legacy_production FROM apps ORDER BY bundle_id"
    /// Transactions are counted once per key, whether receipts, notifications or both told of them.
    static let counts = """
        SELECT (SELECT COUNT(*) FROM receipts), (SELECT COUNT(*) FROM (SELECT bundle_id, environment, transaction_id FROM transactions \
        UNION SELECT bundle_id, environment, transaction_id FROM notification_transactions) AS keys), (SELECT COUNT(*) FROM notifications)
        """
    static let selectReceiptData = "SELECT data FROM receipts WHERE sha256 = ?"
    static let appliedVersion = "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"
    static let recordMigration = "INSERT INTO schema_migrations (version, name, applied_ms) VALUES (?, ?, ?)"

    /// `ids` for an SQLite `IN (?, …)` list whose statement is cached (`cachedStatement`): padded
    /// to the next power of two by repeating the last id, which `IN` ignores, so that a
    /// connection's statement cache (which GRDB never trims) holds at most one text per power of
    /// two, 15 for the largest customer, however many sizes the lists take. Compiling a
    /// statement costs more than running it (about 30 % of a statuses request when each was
    /// compiled anew). Not empty when `ids` is not.
    static func paddedList(_ ids: [String]) -> [String] {
        guard let last = ids.last else { return ids }
        return ids + repeatElement(last, count: paddedCount(ids.count) - ids.count)
    }

    /// An SQLite `IN` list of `ids` (not empty) as a cached statement takes it: `(?, …)` and the
    /// values to bind, padded by `paddedList`.
    static func inList(_ ids: [String]) -> (placeholders: String, ids: [String]) {
        let padded = paddedList(ids)
        return (placeholders(rows: 1, columns: padded.count), padded)
    }

    /// The least power of two ≥ `count` (1 for 0 and 1).
    static func paddedCount(_ count: Int) -> Int {
        count <= 1 ? 1 : 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount)
    }

    /// `(?, ?), (?, ?)` for rows × columns.
    static func placeholders(rows: Int, columns: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// `?` → `$1`, `$2`, … (PostgreSQL). The statements above hold no `?` inside literals.
    static func numbered(_ sql: String) -> String {
        var out = ""
        out.reserveCapacity(sql.utf8.count + sql.utf8.count / 2)
        var index = 0
        for character in sql {
            if character == "?" {
                index += 1
                out += "$\(index)"
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// Rows of a batch, each key once: receipts by SHA-256, transactions by key keeping the newest
    /// source; both sorted by key so that concurrent writers lock rows in one order.
    static func uniqueRows(_ batch: [ReceiptRecord]) -> [ReceiptRecord] {
        var seen = Set<[UInt8]>()
        return batch.filter { seen.insert($0.sha256).inserted }.sorted { $0.sha256.lexicographicallyPrecedes($1.sha256) }
    }

    /// The transaction rows of `receipts`, one per key (the newest receipt's), sorted by key.
    static func transactionRows(_ receipts: [ReceiptRecord]) -> [TransactionRow] {
        var rows: [TransactionRow.Key: TransactionRow] = [:]
        for receipt in receipts {
            for transaction in receipt.transactions {
                let row = TransactionRow(receipt: receipt, transaction: transaction)
                if let existing = rows[row.key], existing.receipt.createdMilliseconds >= receipt.createdMilliseconds { continue }
                rows[row.key] = row
            }
        }
        return rows.values.sorted { $0.key < $1.key }
    }

    /// A transaction with the receipt it comes from (its key and its source date).
    struct TransactionRow {
        struct Key: Hashable, Comparable {
            let bundleID: String, environment: String, transactionID: String
            static func < (a: Key, b: Key) -> Bool {
                (a.bundleID, a.environment, a.transactionID) < (b.bundleID, b.environment, b.transactionID)
            }
        }
        let receipt: ReceiptRecord
        let transaction: TransactionRecord
        var key: Key { Key(bundleID: receipt.bundleID, environment: receipt.environment, transactionID: transaction.transactionID) }
    }
}
