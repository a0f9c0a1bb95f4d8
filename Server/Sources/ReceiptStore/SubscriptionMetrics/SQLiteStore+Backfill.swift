import GRDB

extension SQLiteStore {
    /// `SignedTransactionBackfill` in the migration's transaction.
    static func fillSignedTransactionFacts(_ db: Database) throws {
        var after: (String, String, String)?
        while true {
            let statement = SignedTransactionBackfill.next(after: after, .sqlite)
            let rows = try rows(db, statement) { row -> ((String, String, String), String) in ((row[0], row[1], row[2]), row[3]) }
            for (key, jws) in rows {
                let update = SignedTransactionBackfill.update(SignedTransactionBackfill.facts(jws), key: key, .sqlite)
                try db.execute(sql: update.text, arguments: arguments(update))
            }
            guard rows.count == SignedTransactionBackfill.batch, let last = rows.last else { return }
            after = last.0
        }
    }
}
