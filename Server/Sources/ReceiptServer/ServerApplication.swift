import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import Prometheus
import ReceiptService
import ReceiptStore
import ServiceLifecycle

/// Builds the receipt-server application: storage opened and migrated, `--app` flags written to
/// the registry, the service, and the routes.
public enum ServerApplication {
    /// The application for `configuration`. The ports are checked first (`ListenCheck`: a port
    /// another process holds stops start-up before anything is written to the database). Opening
    /// storage happens here, so a bad database fails before the port is bound; a missing SQLite
    /// file is created (its absolute path logged) and locked against a second server. The store
    /// runs as one of the application's services and closes after the HTTP server has finished
    /// its in-flight requests. `onMetricsRunning` is given the
    /// `/metrics` listener's port once it listens (with `metricsPort` set). `onRoutes` is given
    /// the main port's routes as registered, `{name}` for a path parameter (the OpenAPI document's coverage test reads them).
    public static func make(
        _ configuration: ServerConfiguration, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onMetricsRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onRoutes: ([(method: String, path: String)]) -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        try configuration.validate()
        let location = try DatabaseLocation(configuration.database)
        let apps = try configuration.apps.map(StartupOptions.app)
        let roots = try configuration.roots.isEmpty ? nil : configuration.roots.map(StartupOptions.root)
        let rootsG3 = try configuration.rootsG3.isEmpty ? nil : configuration.rootsG3.map(StartupOptions.rootG3)
        let legacyIntermediates =
            try configuration.legacyIntermediates.isEmpty
            ? nil : configuration.legacyIntermediates.map(StartupOptions.legacyIntermediate)

        try ListenCheck.check(host: configuration.host, port: configuration.port, option: "--port", hostOption: "--host")
        if let metricsPort = configuration.metricsPort {
            try ListenCheck.check(host: configuration.metricsHost, port: metricsPort, option: "--metrics-port", hostOption: "--metrics-host")
        }

        let (store, secrets) = try await ConfiguredStore.open(configuration, logger: logger, options: .server)
        let registry = AppRegistry()
        let hostedRegistry = HostedRegistry(secrets: secrets)
        let reloadHosted: @Sendable () async throws -> Void = {
            for bundleID in try await hostedRegistry.reload(from: store) {
                logger.warning(
                    "an app's sealed encryption key does not open (its row was changed outside the server)",
                    metadata: ["bundle_id": "\(bundleID)"])
            }
        }
        do {
            if !apps.isEmpty { try await store.register(apps) }
            registry.replace(with: try await store.apps())
            try await reloadHosted()
        } catch {
            try? await Stores.shutDown(store)
            throw error
        }

        let prometheus = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: prometheus)
        factory.defaultDurationHistogramBuckets = latencyBuckets
        let limit = VerificationLimit(configuration.maxVerifications, factory: factory)
        let service = VerifyReceiptService(
            store: store, registry: registry,
            configuration: .init(
                roots: roots, legacyIntermediates: legacyIntermediates, allowXcode: configuration.allowXcode,
                cacheCapacity: configuration.cache,
                cacheBytes: configuration.cacheBytes, limit: limit),
            metrics: ServiceMetrics(factory: factory), logger: logger)

        let router = Router(context: ServerRequestContext.self)
        router.add(middleware: HTTPMetricsMiddleware(counters: HTTPCounters(factory: factory)))
        router.add(middleware: VerifyMethodMiddleware(service: service))
        VerifyRoutes(service: service, maxBody: configuration.maxBody).register(on: router)
        let notifications = NotificationService(
            store: store, registry: registry, anchors: rootsG3,
            metrics: NotificationMetrics(factory: factory), logger: logger, limit: limit)
        NotificationRoutes(service: notifications, maxBody: configuration.maxBody).register(on: router)
        let hosted = HostedService(
            verifier: service, registry: hostedRegistry, rate: configuration.keyRate,
            burst: configuration.keyBurst, metrics: HostedMetrics(factory: factory), logger: logger)
        HostedRoutes(service: hosted, maxBody: configuration.maxBody).register(on: router)
        AppStoreAPIRoutes(
            service: AppStoreAPIService(
                store: store, registry: registry, anchors: rootsG3, allowXcode: configuration.allowXcode, limit: limit, logger: logger),
            authenticator: AppStoreAPIAuthenticator(store: store, registry: registry, logger: logger),
            rate: RateLimiter(rate: configuration.keyRate, burst: configuration.keyBurst), maxBody: configuration.maxBody
        )
        .register(on: router)
        if configuration.inspectorEnabled {
            InspectorRoutes(
                inspector: Inspector(roots: roots, legacyIntermediates: legacyIntermediates, allowXcode: configuration.allowXcode),
                maxBody: configuration.maxBody,
                rate: RateLimiter(
                    rate: configuration.inspectRate, burst: configuration.inspectBurst,
                    maxKeys: InspectorRoutes.maxAddresses),
                limit: limit
            )
            .register(on: router)
        }
        router.get("/health") { _, _ in
            do {
                try await store.ping()
                return VerifyRoutes.json(#"{"status":"ok"}"#)
            } catch {
                return VerifyRoutes.json(#"{"status":"unavailable"}"#, status: .serviceUnavailable)
            }
        }
        OpenAPIRoutes().register(on: router)
        onRoutes(router.routes.map { (method: $0.method.rawValue, path: $0.path.description) })
        var services: [any Service] = [
            store,
            RegistryRefresh("apps", logger: logger) { registry.replace(with: try await store.apps()) },
            RegistryRefresh("hosted", logger: logger, reload: reloadHosted),
        ]
        if let metricsPort = configuration.metricsPort {
            services.append(
                MetricsListener.make(
                    prometheus, host: configuration.metricsHost, port: metricsPort, logger: logger,
                    onRunning: onMetricsRunning))
        }
        let timeouts = Counter(label: "receipt_server_request_timeouts_total", factory: factory)
        let http1 = HTTP1Channel.Configuration(idleTimeout: .seconds(Int64(configuration.idleTimeout)))
        let requestTimeout = TimeAmount.seconds(Int64(configuration.requestTimeout))
        let server = HTTPServerBuilder { responder in
            DeadlineHTTP1Channel(
                http1: HTTP1Channel(responder: responder, configuration: http1), requestTimeout: requestTimeout,
                onTimeout: { timeouts.increment() })
        }
        let connections = ConnectionLimit(
            maxConnections: configuration.maxConnections,
            notice: LimitNotice(maxConnections: configuration.maxConnections, logger: logger, factory: factory))

        logger.info(
            "receipt-server configured",
            metadata: [
                "database": "\(Self.absolute(location))", "apps": "\(apps.map(\.bundleID))",
                "anchors": "\(roots == nil ? "Apple Root CA" : "--root")",
                "notification_anchors": "\(rootsG3 == nil ? "Apple Root CA - G3" : "--root-g3")",
                "allow_xcode": "\(configuration.allowXcode)", "inspector": "\(configuration.inspectorEnabled)", "cache": "\(configuration.cache)",
                "cache_bytes": "\(configuration.cacheBytes)", "max_body": "\(configuration.maxBody)",
                "max_verifications": "\(configuration.maxVerifications)", "request_timeout": "\(configuration.requestTimeout)",
                "max_connections": "\(configuration.maxConnections)",
                "metrics": "\(configuration.metricsPort.map { "\(configuration.metricsHost):\($0)" } ?? "off")",
            ])
        return Application(
            router: router,
            server: server,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "receipt-server",
                availableConnectionsDelegate: connections),
            services: services,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
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
