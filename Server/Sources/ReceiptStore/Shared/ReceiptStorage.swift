import ServiceLifecycle

/// Where receipt-server keeps what it has seen. Two backends share one schema (`Schema`): SQLite
/// (one process) and PostgreSQL (any number of processes).
///
/// A store is a `Service`: `run()` applies nothing (migrations run in `open`) but drives the
/// group-commit writer (and, for PostgreSQL, the connection pool) until graceful shutdown, then
/// finishes the writes already submitted and closes the database.
public protocol ReceiptStorage:
    Service, CredentialStore, SignedDataStore, AppTransactionStore, IAPKeyStore, ImportProgressStore,
    WebhookStore, EntitlementStore, SubscriptionMetricsStore, DashboardTokenStore
{
    /// Stores a receipt once (by SHA-256) and each of its transactions once (by bundle id,
    /// environment, transaction id); returns when the write is durable. A receipt already stored
    /// changes nothing. Fails with `StoreError` when the database cannot be written.
    func save(_ receipt: ReceiptRecord) async throws

    /// Stores a verified notification once (by notificationUUID), the transaction it tells of
    /// and the renewal info (each kept when its `signedDate` is the latest); returns when the
    /// write is durable. The same notification again changes nothing.
    func save(_ notification: NotificationRecord) async throws

    /// Every stored transaction whose original transaction id is in `originalTransactionIDs`
    /// (for one app and environment), from receipts and notifications merged by key
    /// (`TransactionMerge`), newest purchase first; the newest stored receipt holding any of
    /// them; and the subscriptions' latest renewal infos.
    func history(bundleID: String, environment: String, originalTransactionIDs: [String]) async throws -> PurchaseHistory

    /// The app registry.
    func apps() async throws -> [AppRegistration]

    /// Adds or replaces apps in the registry (by bundle id).
    func register(_ apps: [AppRegistration]) async throws

    /// Row counts.
    func counts() async throws -> StoreCounts

    /// Succeeds when the database answers a query.
    func ping() async throws
}
