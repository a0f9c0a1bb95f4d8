/// Schema version 10: how far `receipt-server import` got with each transaction id it was asked
/// to import (`ImportProgress`), so that a re-run resumes where an interrupted one stopped and
/// skips what is complete.
///
/// - `import_progress`: one row per (bundle id, environment, transaction id asked about);
///   `revision` is the last Get Transaction History page's revision whose transactions are
///   durable; `completed_ms` is set once the history and the subscription statuses are stored
///   (the importer's clock); `updated_ms` when the row last changed.
///
/// Self-contained: no other table refers to it, and it refers to none.
enum ImportSchema {
    static let migration = Migration(version: 10, name: "import progress") { d in
        [
            """
            CREATE TABLE import_progress (
                bundle_id TEXT NOT NULL,
                environment TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                revision TEXT,
                completed_ms \(d.int64),
                updated_ms \(d.int64) NOT NULL,
                PRIMARY KEY (bundle_id, environment, transaction_id)
            )
            """
        ]
    }

    /// The progress of one transaction id: (revision, completed_ms).
    static let select = """
        SELECT revision, completed_ms FROM import_progress WHERE bundle_id = ? AND environment = ? AND transaction_id = ?
        """

    /// Records the progress of one transaction id, replacing what was recorded.
    static let upsert = """
        INSERT INTO import_progress (bundle_id, environment, transaction_id, revision, completed_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (bundle_id, environment, transaction_id) DO UPDATE SET
            revision = excluded.revision, completed_ms = excluded.completed_ms, updated_ms = excluded.updated_ms
        """
}
