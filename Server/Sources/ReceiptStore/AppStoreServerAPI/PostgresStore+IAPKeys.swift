import PostgresNIO

/// In-App Purchase keys in PostgreSQL.
extension PostgresStore {
    public func iapKeys() async throws -> [IAPKeyRecord] { [] }
    public func putIAPKey(_ key: IAPKeyRecord) async throws { throw StoreError.database("not implemented") }
    public func revokeIAPKey(id: String, at milliseconds: Int64) async throws -> Bool { false }
}
