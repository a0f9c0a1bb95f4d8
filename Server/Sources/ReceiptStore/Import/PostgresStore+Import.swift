import PostgresNIO

/// The import's progress in PostgreSQL, each record its own statement within the call deadline.
extension PostgresStore {
    public func importProgress(_ key: ImportKey) async throws -> ImportProgress? {
        var binds = PostgresBindings(capacity: 3)
        binds.append(key.bundleID)
        binds.append(key.environment)
        binds.append(key.transactionID)
        let query = PostgresQuery(unsafeSQL: StoreStatements.numbered(ImportSchema.select), binds: binds)
        return try await database { [client, logger] in
            try await client.query(query, logger: logger).decode((String?, Int64?).self).all().first.map {
                ImportProgress(revision: $0.0, completedMilliseconds: $0.1)
            }
        }
    }

    public func recordImportProgress(_ key: ImportKey, _ progress: ImportProgress) async throws {
        var binds = PostgresBindings(capacity: 6)
        binds.append(key.bundleID)
        binds.append(key.environment)
        binds.append(key.transactionID)
        binds.append(progress.revision)
        binds.append(progress.completedMilliseconds)
        binds.append(EpochMilliseconds.now())
        let query = PostgresQuery(unsafeSQL: StoreStatements.numbered(ImportSchema.upsert), binds: binds)
        try await database { [client, logger] in
            for try await _ in try await client.query(query, logger: logger) {}
        }
    }
}
