import Hummingbird
import Metrics
import ReceiptService

/// The services the routes answer with, one per surface, built by the composition root
/// (`receipt-server`'s `ServerApplication`).
public struct ServerServices: Sendable {
    public var verifyReceipt: VerifyReceiptService
    public var notifications: NotificationService
    public var retention: RetentionService
    public var hosted: HostedService
    public var appStoreAPI: AppStoreAPIService
    public var appStoreAPIGate: AppStoreAPIGate
    /// Nil: the inspector is off (`--inspector off`, or a host that is not loopback).
    public var inspector: InspectorService?
    public var health: HealthService
    /// Entitlements and subscription metrics (DESIGN §18), behind `appStoreAPIGate`; the dashboard.
    public var subscriptions: SubscriptionServices

    public init(
        verifyReceipt: VerifyReceiptService, notifications: NotificationService, retention: RetentionService, hosted: HostedService,
        appStoreAPI: AppStoreAPIService, appStoreAPIGate: AppStoreAPIGate, inspector: InspectorService?, health: HealthService,
        subscriptions: SubscriptionServices
    ) {
        self.subscriptions = subscriptions
        self.verifyReceipt = verifyReceipt
        self.notifications = notifications
        self.retention = retention
        self.hosted = hosted
        self.appStoreAPI = appStoreAPI
        self.appStoreAPIGate = appStoreAPIGate
        self.inspector = inspector
        self.health = health
    }
}

/// The main port's router: the middleware (HTTP counters, 21000 for other methods on
/// `verifyReceipt`), then one controller per surface, each a `RouteCollection` of handlers
/// returning their service's `ServiceAnswer`; bodies are read under `maxBody`.
public func buildRouter(_ services: ServerServices, maxBody: Int, metrics: any MetricsFactory) -> Router<ServerRequestContext> {
    let router = Router(context: ServerRequestContext.self)
    router.add(middleware: HTTPMetricsMiddleware(counters: HTTPCounters(factory: metrics)))
    router.add(middleware: VerifyMethodMiddleware(service: services.verifyReceipt))
    router.addRoutes(VerifyReceiptController(service: services.verifyReceipt, maxBody: maxBody).endpoints)
    router.addRoutes(NotificationController(service: services.notifications, maxBody: maxBody).endpoints)
    router.addRoutes(RetentionController(service: services.retention, maxBody: maxBody).endpoints)
    router.addRoutes(HostedController(service: services.hosted, maxBody: maxBody).endpoints)
    router.addRoutes(AppStoreAPIController(service: services.appStoreAPI, gate: services.appStoreAPIGate, maxBody: maxBody).endpoints)
    router.addRoutes(EntitlementsController(service: services.subscriptions.entitlements, gate: services.appStoreAPIGate).endpoints)
    router.addRoutes(SubscriptionMetricsController(service: services.subscriptions.metrics, gate: services.appStoreAPIGate).endpoints)
    router.addRoutes(DashboardController(dashboard: services.subscriptions.dashboard, maxBody: maxBody).endpoints)
    if let inspector = services.inspector {
        router.addRoutes(InspectorController(service: inspector, maxBody: maxBody).endpoints)
    }
    router.addRoutes(HealthController(service: services.health).endpoints)
    router.addRoutes(OpenAPIController().endpoints)
    return router
}

/// The services of entitlements, subscription metrics and the dashboard (DESIGN §18).
public struct SubscriptionServices: Sendable {
    public var entitlements: EntitlementsService
    public var metrics: SubscriptionMetricsService
    public var dashboard: SubscriptionDashboard

    public init(entitlements: EntitlementsService, metrics: SubscriptionMetricsService, dashboard: SubscriptionDashboard) {
        self.entitlements = entitlements
        self.metrics = metrics
        self.dashboard = dashboard
    }
}
