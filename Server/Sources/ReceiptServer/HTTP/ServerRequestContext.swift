import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basic one plus the client's address (the
/// `/inspect` rate limit is per address). Nil when there is no socket (router tests).
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address, the key of its `/inspect` bucket (`unknown` without a socket).
    var clientAddress: String {
        remoteAddress?.ipAddress ?? "unknown"
    }
}
