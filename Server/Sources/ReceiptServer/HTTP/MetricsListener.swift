import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Prometheus
import ReceiptService

/// `GET /metrics` (Prometheus text) on a listener of its own (`--metrics-host`, default
/// 127.0.0.1, and `--metrics-port`; no listener without `--metrics-port`), never on the main
/// port. Metrics tell how many requests were refused and why, which is for the operator, not for
/// whoever can reach the API: a separate loopback listener keeps them off the public address with
/// no secret to configure, rotate or leak (a `--metrics-token` would be one more credential).
public enum MetricsListener {
    /// The listener's one route (`GET`), which the OpenAPI document describes with the listener as its server.
    public static let path = "/metrics"

    /// The listener as an application, run as one of the main application's services.
    public static func make(
        _ registry: PrometheusCollectorRegistry, host: String, port: Int, logger: Logger,
        onRunning: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        let router = Router(context: BasicRequestContext.self)
        router.get(RouterPath(path)) { _, _ in
            var text: [UInt8] = []
            registry.emit(into: &text)
            return ServiceAnswer(String(decoding: text, as: UTF8.self), contentType: .prometheus)
        }
        return Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .seconds(30))),
            configuration: .init(
                address: .hostname(host, port: port), serverName: "receipt-server",
                availableConnectionsDelegate: MaximumAvailableConnections(16)),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                logger.info("metrics listening", metadata: ["host": "\(host)", "port": "\(bound)"])
                await onRunning(bound)
            },
            logger: logger)
    }
}
