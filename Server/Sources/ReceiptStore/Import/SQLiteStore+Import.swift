import GRDB

/// The import's progress in SQLite: each record its own write transaction, outside the
/// group-commit writers (an import records one per history page).
extension SQLiteStore {
    public func importProgress(_ key: ImportKey) async throws -> ImportProgress? {
        try await read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: ImportSchema.select), arguments: [key.bundleID, key.environment, key.transactionID]
            ).map { row in ImportProgress(revision: row[0], completedMilliseconds: row[1]) }
        }
    }

    public func recordImportProgress(_ key: ImportKey, _ progress: ImportProgress) async throws {
        let now = EpochMilliseconds.now()
        do {
            try await pool.write { db in
                try db.cachedStatement(sql: ImportSchema.upsert).execute(arguments: [
                    key.bundleID, key.environment, key.transactionID, progress.revision, progress.completedMilliseconds, now,
                ])
            }
        } catch {
            throw StoreError.database(String(describing: error))
        }
    }
}
