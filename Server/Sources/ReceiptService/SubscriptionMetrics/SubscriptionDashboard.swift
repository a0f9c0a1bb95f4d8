import ReceiptStore

/// One day of subscription metrics, as the server layer names it (it imports this module only).
public typealias SubscriptionMetricsDay = MetricsDay

/// What the dashboard page (`/dashboard`) reads: who may see it (`DashboardAccess`), the metrics
/// (`SubscriptionMetricsService`, the endpoint's figures) and the apps to offer.
public struct SubscriptionDashboard: Sendable {
    public let access: DashboardAccess
    public let metrics: SubscriptionMetricsService
    let apps: @Sendable () async throws -> [String]

    /// A dashboard over `store`'s tokens and metrics; `apps` lists the bundle ids to offer.
    public init(access: DashboardAccess, metrics: SubscriptionMetricsService, apps: @escaping @Sendable () async throws -> [String]) {
        self.access = access
        self.metrics = metrics
        self.apps = apps
    }

    /// Today, in days since 1970-01-01 (UTC).
    public func today() -> Int64 { UTCDay.of(milliseconds: EpochMilliseconds.now()) }

    /// The bundle ids the registry holds (none when it cannot be read).
    public func registeredApps() async -> [String] {
        (try? await apps()) ?? []
    }
}
