import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import ServiceLifecycle

/// Where and how the main port listens.
public struct HTTPSettings: Sendable {
    public var host: String
    public var port: Int
    /// Seconds a silent connection is kept open (`--idle-timeout`).
    public var idleTimeout: Int
    /// Seconds a client has to send one whole request (`--request-timeout`).
    public var requestTimeout: Int
    /// Open connections at most (`--max-connections`).
    public var maxConnections: Int

    public init(host: String, port: Int, idleTimeout: Int, requestTimeout: Int, maxConnections: Int) {
        self.host = host
        self.port = port
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.maxConnections = maxConnections
    }
}

/// The HTTP application: `router` served over HTTP/1.1 with the request deadline
/// (`DeadlineHTTP1Channel`) and the connection limit (`ConnectionLimit`), `services` (the store,
/// the registries' refreshes, the `/metrics` listener) running beside it and shutting down after
/// it. `onServerRunning` is given the bound port.
public func buildHTTPApplication(
    router: Router<ServerRequestContext>, settings: HTTPSettings, services: [any Service], metrics: any MetricsFactory,
    logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void
) -> some ApplicationProtocol {
    let timeouts = Counter(label: "receipt_server_request_timeouts_total", factory: metrics)
    let http1 = HTTP1Channel.Configuration(idleTimeout: .seconds(Int64(settings.idleTimeout)))
    let requestTimeout = TimeAmount.seconds(Int64(settings.requestTimeout))
    let server = HTTPServerBuilder { responder in
        DeadlineHTTP1Channel(
            http1: HTTP1Channel(responder: responder, configuration: http1), requestTimeout: requestTimeout,
            onTimeout: { timeouts.increment() })
    }
    let connections = ConnectionLimit(
        maxConnections: settings.maxConnections,
        notice: LimitNotice(maxConnections: settings.maxConnections, logger: logger, factory: metrics))
    return Application(
        router: router,
        server: server,
        configuration: .init(
            address: .hostname(settings.host, port: settings.port), serverName: "receipt-server",
            availableConnectionsDelegate: connections),
        services: services,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? settings.port) },
        logger: logger)
}
