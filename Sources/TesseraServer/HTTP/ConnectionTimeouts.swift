import NIOCore
import NIOHTTPTypes

/// How long a connection may wait on its client (`TESSERA_*_TIMEOUT`); see docs/limits.md for the defaults.
public struct ConnectionTimeouts: Sendable, Hashable {
    /// From the connection's start, or the first byte of a later request, to the end of the request head.
    public var header: Duration = .seconds(10)
    /// Between two reads of a request body, while the server is asking for more.
    public var body: Duration = .seconds(60)
    /// A keep-alive connection with no request in progress.
    public var idle: Duration = .seconds(60)
    /// Between two moments the client takes answer bytes off the server's hands (a stalled reader).
    public var send: Duration = .seconds(60)

    public init() {}
}

/// Where the HTTP layer says a request or answer stands; sent towards the socket as an outbound user event
/// by `HTTPPhaseHandler` for `ConnectionTimeoutHandler`, which sits below the HTTP decoder and cannot see it.
enum HTTPPhase {
    case headReceived
    case requestEnded
    case responseEnded
}

/// Reports request heads and ends and answer ends to `ConnectionTimeoutHandler`, for the requests the
/// router answers (`ImageHitHandler` reports those it answers itself).
final class HTTPPhaseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: context.triggerUserOutboundEvent(HTTPPhase.headReceived, promise: nil)
        case .body: break
        case .end: context.triggerUserOutboundEvent(HTTPPhase.requestEnded, promise: nil)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let isEnd = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        if isEnd { context.triggerUserOutboundEvent(HTTPPhase.responseEnded, promise: nil) }
    }
}

/// Closes a connection whose client keeps it without moving: a head that does not arrive in time (the
/// slow-loris attack), a body that stops while the server waits for it, a keep-alive connection left idle,
/// or an answer the client stops taking. An answer being written is never cut while it moves, however
/// long it lasts (event streams, exports, originals).
///
/// It sits first in the pipeline, on raw bytes, so it sees the first byte of a head; `HTTPPhaseHandler`
/// tells it where each request stands. One timer per connection, moved only when a stricter deadline
/// comes up; otherwise checked and pushed back when it fires.
final class ConnectionTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let timeouts: ConnectionTimeouts
    /// Heads received whose answer has not ended.
    private var open = 0
    private var readingBody = false
    /// When the head being read started: the connection's start, or the first byte after the last head.
    private var headSince: NIODeadline?
    private var idleSince: NIODeadline
    /// While a body is read: when the server last asked for more and nothing came yet.
    private var waitingForBodySince: NIODeadline?
    /// Since when the client takes nothing more of what the server has queued for it.
    private var stalledSince: NIODeadline?
    private var timer: Scheduled<Void>?
    private var timerDeadline = NIODeadline.distantFuture

    init(timeouts: ConnectionTimeouts) {
        self.timeouts = timeouts
        idleSince = .now()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        waitingForBodySince = nil
        // Set before the decoder runs: if these bytes hold the whole head, `.headReceived` clears it again.
        if !readingBody && headSince == nil {
            headSince = .now()
            if open == 0 { arm(context) }
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        if readingBody && waitingForBodySince == nil {
            waitingForBodySince = .now()
            arm(context)
        }
        context.read()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stalledSince = nil
        } else if stalledSince == nil {
            stalledSince = .now()
            arm(context)
        }
        context.fireChannelWritabilityChanged()
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let phase = event as? HTTPPhase else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        switch phase {
        case .headReceived:
            open += 1
            readingBody = true
            headSince = nil
        case .requestEnded:
            readingBody = false
            waitingForBodySince = nil
        case .responseEnded:
            open -= 1
            if open == 0 {
                idleSince = .now()
                // Part of a pipelined head may have come in meanwhile: its time starts now.
                if headSince != nil { headSince = idleSince }
                arm(context)
            }
        }
        promise?.succeed()
    }

    // MARK: - The timer

    private func start(_ context: ChannelHandlerContext) {
        guard headSince == nil && open == 0 else { return }
        headSince = .now()
        arm(context)
    }

    /// The earliest moment the connection must be closed as things stand, and why.
    private func deadline() -> (NIODeadline, String)? {
        var earliest: (NIODeadline, String)?
        func consider(_ since: NIODeadline?, _ limit: Duration, _ reason: String) {
            guard let since else { return }
            let deadline = since + TimeAmount(limit)
            if earliest.map({ deadline < $0.0 }) ?? true { earliest = (deadline, reason) }
        }
        consider(stalledSince, timeouts.send, "the client stopped reading the answer")
        if readingBody {
            consider(waitingForBodySince, timeouts.body, "the request body stopped")
        } else if open == 0 {
            if headSince != nil {
                consider(headSince, timeouts.header, "the request head did not arrive in time")
            } else {
                consider(idleSince, timeouts.idle, "idle keep-alive connection")
            }
        }
        return earliest
    }

    /// Makes sure the timer fires no later than the current deadline.
    private func arm(_ context: ChannelHandlerContext) {
        guard let (deadline, _) = deadline(), deadline < timerDeadline else { return }
        timer?.cancel()
        timerDeadline = deadline
        let loop = context.eventLoop.assumeIsolatedUnsafeUnchecked()
        timer = loop.scheduleTask(deadline: deadline) { [self] in fire(context) }
    }

    private func fire(_ context: ChannelHandlerContext) {
        timer = nil
        timerDeadline = .distantFuture
        guard let (deadline, _) = deadline() else { return }
        if deadline <= .now() {
            context.close(promise: nil)
        } else {
            arm(context)
        }
    }
}
