import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import ReceiptServer
import ReceiptService
import ReceiptStore
import ServiceLifecycle
import X509Certificates

/// The composition root: builds the receipt-server application from its configuration in named
/// steps, configuration → store → services → router → application: the option values read
/// (`Options`) and the ports checked (`checkPorts`), storage opened and migrated with the `--app`
/// flags written to the registry (`openStore`), one service per surface (`makeServices`), the
/// router (ReceiptServer's `buildRouter`, which only mounts controllers and middleware), and the
/// HTTP application with the store, the registries' refreshes and the `/metrics` listener as its
/// services (ReceiptServer's `buildHTTPApplication`).
enum ServerApplication {
    /// The application for `configuration`. The ports are checked first (`ListenCheck`: a port
    /// another process holds stops start-up before anything is written to the database). Opening
    /// storage happens here, so a bad database fails before the port is bound; a missing SQLite
    /// file is created (its absolute path logged) and locked against a second server. The store
    /// runs as one of the application's services and closes after the HTTP server has finished
    /// its in-flight requests. `onMetricsRunning` is given the
    /// `/metrics` listener's port once it listens (with `metricsPort` set). `onRoutes` is given
    /// the main port's routes as registered, `{name}` for a path parameter (the OpenAPI document's coverage test reads them).
    static func make(
        _ configuration: ServerConfiguration, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onMetricsRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onRoutes: ([(method: String, path: String)]) -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        let options = try Options(configuration)
        try checkPorts(configuration)
        let (store, registries, secrets) = try await openStore(configuration, options: options, logger: logger)
        let prometheus = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: prometheus)
        factory.defaultDurationHistogramBuckets = latencyBuckets
        let services = makeServices(configuration, options: options, store: store, registries: registries, metrics: factory, logger: logger)
        let router = buildRouter(services, maxBody: configuration.maxBody, metrics: factory)
        onRoutes(router.routes.map { (method: $0.method.rawValue, path: $0.path.description) })

        var background: [any Service] = [
            store,
            RegistryRefresh("apps", logger: logger) { registries.apps.replace(with: try await store.apps()) },
            RegistryRefresh("hosted", logger: logger, reload: registries.reloadHosted),
            WebhookDeliverer(
                store: store, secrets: secrets, transport: WebhookHTTPTransport(),
                configuration: .init(
                    timeout: options.webhookTimeout, schedule: options.webhookRetrySchedule, retention: options.webhookRetention),
                metrics: WebhookMetrics(factory: factory), logger: logger),
        ]
        if let metricsPort = configuration.metricsPort {
            background.append(
                MetricsListener.make(
                    prometheus, host: configuration.metricsHost, port: metricsPort, logger: logger,
                    onRunning: onMetricsRunning))
        }
        logConfiguration(configuration, options: options, logger: logger)
        return buildHTTPApplication(
            router: router,
            settings: HTTPSettings(
                host: configuration.host, port: configuration.port, idleTimeout: configuration.idleTimeout,
                requestTimeout: configuration.requestTimeout, maxConnections: configuration.maxConnections),
            services: background, metrics: factory, logger: logger, onServerRunning: onServerRunning)
    }

    /// The option values turned into what the layers below take (certificates read, apps parsed).
    struct Options {
        let location: DatabaseLocation
        let apps: [AppRegistration]
        let roots: [TrustAnchor]?
        let rootsG3: [TrustAnchor]?
        let legacyIntermediates: [Certificate]?
        let retentionMessages: RetentionMessages
        let webhookTimeout: Duration
        let webhookRetrySchedule: WebhookRetrySchedule
        let webhookRetention: Duration?

        init(_ configuration: ServerConfiguration) throws {
            try configuration.validate()
            location = try DatabaseLocation(configuration.database)
            apps = try configuration.apps.map(StartupOptions.app)
            roots = try configuration.roots.isEmpty ? nil : configuration.roots.map(StartupOptions.root)
            rootsG3 = try configuration.rootsG3.isEmpty ? nil : configuration.rootsG3.map(StartupOptions.rootG3)
            legacyIntermediates =
                try configuration.legacyIntermediates.isEmpty
                ? nil : configuration.legacyIntermediates.map(StartupOptions.legacyIntermediate)
            retentionMessages = try StartupOptions.retentionMessages(configuration.retentionMessages)
            (webhookTimeout, webhookRetrySchedule) = try StartupOptions.webhooks(configuration)
            webhookRetention = try StartupOptions.webhookRetention(configuration)
        }
    }

    /// Stops start-up when the main port or the `/metrics` port cannot be bound.
    static func checkPorts(_ configuration: ServerConfiguration) throws {
        try ListenCheck.check(host: configuration.host, port: configuration.port, option: "--port", hostOption: "--host")
        if let metricsPort = configuration.metricsPort {
            try ListenCheck.check(host: configuration.metricsHost, port: metricsPort, option: "--metrics-port", hostOption: "--metrics-host")
        }
    }

    /// The registries the services read, loaded from the store (and reloaded by `RegistryRefresh`).
    struct Registries: Sendable {
        let apps: AppRegistry
        let hosted: HostedRegistry
        let reloadHosted: @Sendable () async throws -> Void
    }

    /// Opens the store, writes the `--app` flags to its registry and loads the registries; the
    /// store is shut down again when that fails.
    static func openStore(
        _ configuration: ServerConfiguration, options: Options, logger: Logger
    ) async throws -> (store: any ReceiptStorage, registries: Registries, secrets: SecretsKey) {
        let (store, secrets) = try await ConfiguredStore.open(configuration, logger: logger, options: .server)
        let apps = AppRegistry()
        let hosted = HostedRegistry(secrets: secrets)
        let reloadHosted: @Sendable () async throws -> Void = {
            for bundleID in try await hosted.reload(from: store) {
                logger.warning(
                    "an app's sealed encryption key does not open (its row was changed outside the server)",
                    metadata: ["bundle_id": "\(bundleID)"])
            }
        }
        do {
            if !options.apps.isEmpty { try await store.register(options.apps) }
            apps.replace(with: try await store.apps())
            try await reloadHosted()
        } catch {
            try? await Stores.shutDown(store)
            throw error
        }
        return (store, Registries(apps: apps, hosted: hosted, reloadHosted: reloadHosted), secrets)
    }

    /// One service per surface over the store and the registries, sharing the verification slots.
    static func makeServices(
        _ configuration: ServerConfiguration, options: Options, store: any ReceiptStorage, registries: Registries,
        metrics factory: any MetricsFactory, logger: Logger
    ) -> ServerServices {
        let registry = registries.apps
        let limit = VerificationLimit(configuration.maxVerifications, factory: factory)
        let revocation =
            configuration.revocation == "ocsp"
            ? RevocationGate(fetcher: OCSPHTTPFetcher(), ttl: Int64(configuration.ocspCacheTTL), logger: logger) : nil
        let verifyReceipt = VerifyReceiptService(
            store: store, registry: registry,
            configuration: .init(
                roots: options.roots, legacyIntermediates: options.legacyIntermediates, allowXcode: configuration.allowXcode,
                cacheCapacity: configuration.cache,
                cacheBytes: configuration.cacheBytes, limit: limit, revocation: revocation),
            metrics: ServiceMetrics(factory: factory), logger: logger)
        let notifications = NotificationService(
            store: store, registry: registry, anchors: options.rootsG3,
            metrics: NotificationMetrics(factory: factory), logger: logger, limit: limit, revocation: revocation)
        let retention = RetentionService(
            registry: registry, messages: options.retentionMessages, anchors: options.rootsG3, factory: factory, logger: logger,
            limit: limit, revocation: revocation)
        let hosted = HostedService(
            verifier: verifyReceipt, registry: registries.hosted, rate: configuration.keyRate,
            burst: configuration.keyBurst, metrics: HostedMetrics(factory: factory), logger: logger)
        let appStoreAPI = AppStoreAPIService(
            store: store, registry: registry, anchors: options.rootsG3, allowXcode: configuration.allowXcode, limit: limit, logger: logger,
            revocation: revocation)
        let gate = AppStoreAPIGate(
            authenticator: AppStoreAPIAuthenticator(store: store, registry: registry, logger: logger),
            rate: RateLimiter(rate: configuration.keyRate, burst: configuration.keyBurst))
        let inspector =
            configuration.inspectorEnabled
            ? InspectorService(
                inspector: Inspector(
                    roots: options.roots, legacyIntermediates: options.legacyIntermediates, tokenAnchors: options.rootsG3,
                    allowXcode: configuration.allowXcode),
                rate: configuration.inspectRate, burst: configuration.inspectBurst, limit: limit)
            : nil
        return ServerServices(
            verifyReceipt: verifyReceipt, notifications: notifications, retention: retention, hosted: hosted, appStoreAPI: appStoreAPI,
            appStoreAPIGate: gate, inspector: inspector, health: HealthService(store: store),
            subscriptions: subscriptionServices(store: store, logger: logger))
    }

    /// Entitlements, subscription metrics and the dashboard over `store`.
    static func subscriptionServices(store: any ReceiptStorage, logger: Logger) -> SubscriptionServices {
        let metrics = SubscriptionMetricsService(store: store, logger: logger)
        return SubscriptionServices(
            entitlements: EntitlementsService(store: store, logger: logger), metrics: metrics,
            dashboard: SubscriptionDashboard(access: DashboardAccess(store: store), metrics: metrics) { try await store.apps().map(\.bundleID) })
    }

    /// One line with what the server was configured with (never a secret).
    static func logConfiguration(_ configuration: ServerConfiguration, options: Options, logger: Logger) {
        logger.info(
            "receipt-server configured",
            metadata: [
                "database": "\(Self.absolute(options.location))", "apps": "\(options.apps.map(\.bundleID))",
                "anchors": "\(options.roots == nil ? "Apple Root CA" : "--root")",
                "notification_anchors": "\(options.rootsG3 == nil ? "Apple Root CA - G3" : "--root-g3")",
                "allow_xcode": "\(configuration.allowXcode)", "revocation": "\(configuration.revocation)",
                "inspector": "\(configuration.inspectorEnabled)",
                "retention_messages": "\(options.retentionMessages.byBundleID.keys.sorted())", "cache": "\(configuration.cache)",
                "cache_bytes": "\(configuration.cacheBytes)", "max_body": "\(configuration.maxBody)",
                "max_verifications": "\(configuration.maxVerifications)", "request_timeout": "\(configuration.requestTimeout)",
                "max_connections": "\(configuration.maxConnections)",
                "metrics": "\(configuration.metricsPort.map { "\(configuration.metricsHost):\($0)" } ?? "off")",
            ])
    }

    /// The location as logged: a SQLite path made absolute (the working directory is easily
    /// forgotten), a PostgreSQL URL without its password.
    static func absolute(_ location: DatabaseLocation) -> String {
        guard case .sqlite(let path) = location else { return location.description }
        return "sqlite:" + URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Histogram buckets for verification and storage latency: 50 µs to 2.5 s.
    static let latencyBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .seconds(2.5),
    ]
}
