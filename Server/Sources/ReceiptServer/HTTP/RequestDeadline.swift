import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// HTTP/1.1 with a deadline for reading each whole request (`--request-timeout`): from the first
/// byte of a request to the end of its body. Hummingbird's `idleTimeout` closes only a *silent*
/// connection, so a client sending one byte every few seconds would hold a connection (and a
/// request body buffer) for as long as it likes; past the deadline this one is closed.
///
/// Two small handlers share one `RequestDeadline`: one before the HTTP decoder sees raw bytes
/// (the first byte of a request starts the clock, so slow headers count too), one after it sees
/// the decoded parts (a request's end stops the clock; the head of a pipelined request starts it).
/// Time the server spends answering is not counted.
struct DeadlineHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    typealias RequestPart = HTTP1Channel.Value.InboundPart

    let http1: HTTP1Channel
    let requestTimeout: TimeAmount
    /// Called (on the event loop) when a connection is closed for its deadline.
    let onTimeout: @Sendable () -> Void

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let deadline = RequestDeadline(timeout: requestTimeout, onTimeout: onTimeout)
            let operations = channel.pipeline.syncOperations
            try operations.addHandler(RequestBytesWatcher(deadline), position: .first)
            let state = try operations.handler(type: HTTPConnectionStateHandler.self)
            try operations.addHandler(RequestPartsWatcher(deadline), position: .before(state))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

/// The clock of the request being read on one connection (event-loop bound: both handlers run
/// on the channel's loop).
final class RequestDeadline {
    let timeout: TimeAmount
    let onTimeout: @Sendable () -> Void
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount, onTimeout: @escaping @Sendable () -> Void) {
        self.timeout = timeout
        self.onTimeout = onTimeout
    }

    /// Starts the clock unless it runs already.
    func start(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        let channel = context.channel
        let onTimeout = onTimeout
        timer = context.eventLoop.scheduleTask(in: timeout) {
            onTimeout()
            channel.close(promise: nil)
        }
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }
}

/// Before the HTTP decoder: the first bytes of a request start its clock.
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    let deadline: RequestDeadline

    init(_ deadline: RequestDeadline) {
        self.deadline = deadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if unwrapInboundIn(data).readableBytes > 0 { deadline.start(context) }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline.stop()
        context.fireChannelInactive()
    }
}

/// After the HTTP decoder: a request's end stops its clock; the head of the next one (already
/// in the buffer when pipelined) starts it again.
final class RequestPartsWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = DeadlineHTTP1Channel.RequestPart
    typealias InboundOut = DeadlineHTTP1Channel.RequestPart
    let deadline: RequestDeadline

    init(_ deadline: RequestDeadline) {
        self.deadline = deadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: deadline.start(context)
        case .body: break
        case .end: deadline.stop()
        }
        context.fireChannelRead(data)
    }
}

extension NIOAsyncChannel {
    /// What the channel reads (for HTTP/1.1: `HTTPRequestPart`, named here without importing
    /// NIOHTTPTypes).
    typealias InboundPart = Inbound
}
