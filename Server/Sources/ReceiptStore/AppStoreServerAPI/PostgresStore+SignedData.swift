import PostgresNIO

/// The App Store Server API's reads and the posted transactions' writes in PostgreSQL.
extension PostgresStore {
    public func save(_ posted: PostedTransaction) async throws { throw StoreError.database("not implemented") }
    public func customer(bundleID: String, environment: String, transactionID: String) async throws -> CustomerRecords? { nil }
    public func notificationHistory(bundleID: String, environment: String, query: NotificationHistoryQuery) async throws -> [StoredNotificationEntry] { [] }
}
