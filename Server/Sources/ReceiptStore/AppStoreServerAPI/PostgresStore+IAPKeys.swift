import PostgresNIO

/// In-App Purchase keys in PostgreSQL, each edit one statement, within the call deadline.
extension PostgresStore {
    public func iapKeys() async throws -> [IAPKeyRecord] {
        try await database { [client, logger] in
            var keys: [IAPKeyRecord] = []
            for try await (id, issuer, key, bundles, created, revoked) in try await client.query(
                PostgresQuery(unsafeSQL: IAPKeyColumns.select), logger: logger
            ).decode((String, String, ByteBuffer, String, Int64, Int64?).self) {
                keys.append(
                    IAPKeyColumns.record(
                        keyID: id, issuerID: issuer, publicKey: Array(buffer: key), bundleIDs: bundles, created: created,
                        revoked: revoked))
            }
            return keys
        }
    }

    public func putIAPKey(_ key: IAPKeyRecord) async throws {
        var binds = PostgresBindings()
        binds.append(key.keyID)
        binds.append(key.issuerID)
        binds.append(ByteBuffer(bytes: key.publicKey))
        binds.append(IAPKeyColumns.bundleIDs(key.bundleIDs))
        binds.append(key.createdMilliseconds)
        binds.append(key.revokedMilliseconds)
        _ = try await runEdit(IAPKeyColumns.put, binds)
    }

    public func revokeIAPKey(id: String, at milliseconds: Int64) async throws -> Bool {
        var binds = PostgresBindings()
        binds.append(milliseconds)
        binds.append(id)
        return try await runEdit(IAPKeyColumns.revoke, binds) > 0
    }

    /// Runs one statement (an edit by a command: keys, dashboard tokens); returns the number of
    /// rows it returned.
    func runEdit(_ sql: String, _ binds: PostgresBindings) async throws -> Int {
        try await database { [client, logger] in
            var count = 0
            for try await _ in try await client.query(PostgresQuery(unsafeSQL: StoreStatements.numbered(sql), binds: binds), logger: logger) {
                count += 1
            }
            return count
        }
    }
}
