import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Hummingbird's HTTP/1.1 channel with the guards every connection gets: the connection cap and the
/// timeouts (`ConnectionTimeoutHandler`, which must sit below the HTTP decoder, where
/// `additionalChannelHandlers` cannot put it); and handlers that must see requests right after the decoder,
/// ahead of the HTTPTypes conversion (`ImageHitHandler`).
struct GuardedHTTP1Channel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: Responder
    let timeouts: ConnectionTimeouts
    let cap: ConnectionCap
    /// Handlers right after the HTTP/1 decoder, which see `HTTPServerRequestPart`s.
    let afterDecoder: @Sendable () -> [any RemovableChannelHandler]

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let admitted = cap.admit()
        if admitted { channel.closeFuture.whenComplete { [cap] _ in cap.release() } }
        let http1 = HTTP1Channel(
            responder: responder, configuration: .init(additionalChannelHandlers: [HTTPPhaseHandler()]))
        return channel.eventLoop.makeCompletedFuture { [timeouts] in
            try channel.pipeline.syncOperations.addHandler(
                admitted ? ConnectionTimeoutHandler(timeouts: timeouts) : CloseAtOnceHandler())
        }.flatMap {
            http1.setup(channel: channel, logger: logger)
        }.flatMapThrowing { [afterDecoder] value in
            guard admitted else { return value }
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            var previous: any ChannelHandler = decoder
            for handler in afterDecoder() {
                try pipeline.addHandler(handler, position: .after(previous))
                previous = handler
            }
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

/// Closes a connection over the cap as soon as it is active, before a byte of it is read. The channel is
/// set up like any other, so Hummingbird's handling of it ends at once, untroubled.
private final class CloseAtOnceHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { context.close(promise: nil) }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.close(promise: nil)
    }
}

/// Counts open connections and refuses those past `limit` (`TESSERA_MAX_CONNECTIONS`). It says so in the
/// log once per burst: when it starts refusing, then when it admits one again, with how many it refused.
final class ConnectionCap: Sendable {
    private struct State {
        var open = 0
        var refused = 0
    }

    let limit: Int
    private let logger: Logger
    private let state = Mutex(State())

    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    /// Whether a new connection may stay; if so, `release()` must follow when it closes.
    func admit() -> Bool {
        let (admitted, refusedBefore) = state.withLock { state in
            guard state.open < limit else {
                state.refused += 1
                return (false, state.refused)
            }
            state.open += 1
            defer { state.refused = 0 }
            return (true, state.refused)
        }
        if !admitted && refusedBefore == 1 {
            logger.warning(
                "connection cap reached: new connections are closed at once until some end",
                metadata: ["limit": "\(limit)"])
        } else if admitted && refusedBefore > 0 {
            logger.notice(
                "accepting connections again", metadata: ["limit": "\(limit)", "refused": "\(refusedBefore)"])
        }
        return admitted
    }

    func release() {
        state.withLock { $0.open -= 1 }
    }
}

/// The process's limit on open files, which bounds its connections.
enum OpenFileLimit {
    /// Raises the soft limit to the hard one (as Go's runtime does at start: the soft limit of 1,024 is a
    /// relic of `select`, which NIO does not use) and returns the soft limit now in force.
    static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur == rlim_t.max ? Int(Int32.max) : Int(clamping: limit.rlim_cur)
    }

    /// The default connection cap for an open-file limit: three quarters of it, leaving the rest to the
    /// database, caches, library files and outbound fetches, and no more than 10,000 (about nginx's
    /// order of magnitude for one worker; each idle connection costs memory too).
    static func defaultConnectionCap(openFiles: Int) -> Int {
        max(16, min(openFiles / 4 * 3, 10_000))
    }
}
