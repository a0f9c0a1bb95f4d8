import Logging
import ServiceLifecycle

/// Reloads an in-memory registry from the database every `interval` until graceful shutdown, so
/// what another instance or a command wrote reaches this process; a failed reload keeps the last
/// snapshot. One service serves both registries (`AppRegistry`, `HostedRegistry`).
public struct RegistryRefresh: Service {
    let name: String
    let interval: Duration
    let logger: Logger
    let reload: @Sendable () async throws -> Void

    /// Calls `reload` every `interval`; `name` tells the registry apart in the logs.
    public init(_ name: String, interval: Duration = .seconds(5), logger: Logger, reload: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.interval = interval
        self.logger = logger
        self.reload = reload
    }

    /// Reloads until graceful shutdown.
    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: interval)   // throws once cancelled
                do {
                    try await reload()
                } catch {
                    logger.warning("registry reload failed", metadata: ["registry": "\(name)", "error": "\(error)"])
                }
            }
        }
    }
}
