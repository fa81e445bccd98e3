import NIOCore
import NIOHTTP1
import TesseraCore
import TesseraImageProxy

/// Answers `GET`/`HEAD /img/...` from the image memory cache right after the HTTP/1 decoder, before the
/// request reaches the rest of the pipeline and Hummingbird's async router. A cached thumbnail is the app's
/// most frequent request (a results page asks for 20 at once, scrolling for more), and for it every layer
/// above the decoder — the HTTPTypes conversions, the response encoder, the router's task hops — costs more
/// than the answer itself. So the answer's head is written here as bytes (`ImageHitHead`) straight to the
/// connection's first handler, below the response encoder. Anything else (a miss, another path, a bad
/// signature, a missing token, HTTP/1.0) is passed on untouched, and the router answers as always, with
/// the same headers.
///
/// HTTP/1.1 answers must leave in request order: a hit is only answered here while no earlier request
/// of the connection is still being answered by the router; otherwise it is passed on too.
/// Who may be answered on the fast path: anyone (`TESSERA_AUTH=none`), holders of the token, or nobody (accounts:
/// a session needs the database, so every image request takes the router and its `AccountMiddleware`).
enum ImageHitAccess: Sendable {
    case open
    case token(AccessToken)
    case router
}

final class ImageHitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let proxy: ImageProxy
    private let access: ImageHitAccess
    private let head: ImageHitHead
    private let metrics: HTTPMetrics
    /// The handler nearest the socket (`ConnectionTimeoutHandler`): writes from its context skip the
    /// response encoder. Found when this handler is added; without it every request is passed on.
    private var wire: ChannelHandlerContext?

    /// Requests passed on whose answer has not been written through yet.
    private var answersOwed = 0
    /// What to do with the body and end of the request being read.
    private var current: Current = .passing

    private enum Current {
        case passing
        case answering(ByteBuffer, body: ByteBuffer?, close: Bool)
    }

    init(proxy: ImageProxy, access: ImageHitAccess, head: ImageHitHead, metrics: HTTPMetrics) {
        self.proxy = proxy
        self.access = access
        self.head = head
        self.metrics = metrics
    }

    func handlerAdded(context: ChannelHandlerContext) {
        wire = try? context.pipeline.syncOperations.context(handlerType: ConnectionTimeoutHandler.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        wire = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if answersOwed == 0, wire != nil, let answer = answer(request, allocator: context.channel.allocator) {
                current = answer
                // The timeout handler learns of this request as it would from `HTTPPhaseHandler`.
                context.triggerUserOutboundEvent(HTTPPhase.headReceived, promise: nil)
            } else {
                current = .passing
                answersOwed += 1
                context.fireChannelRead(data)
            }
        case .body:
            if case .passing = current { context.fireChannelRead(data) }
        case .end:
            guard case .answering(let head, let body, let close) = current, let wire else {
                context.fireChannelRead(data)
                return
            }
            current = .passing
            context.triggerUserOutboundEvent(HTTPPhase.requestEnded, promise: nil)
            let written = close ? context.eventLoop.makePromise(of: Void.self) : nil
            wire.write(NIOAny(IOData.byteBuffer(head)), promise: body == nil ? written : nil)
            if let body { wire.write(NIOAny(IOData.byteBuffer(body)), promise: written) }
            wire.flush()
            context.triggerUserOutboundEvent(HTTPPhase.responseEnded, promise: nil)
            // Closed once the answer is out, not before: a close drops writes still queued.
            written?.futureResult.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { answersOwed -= 1 }
        context.write(data, promise: promise)
    }

    /// The answer for a request the memory cache can serve, or `nil` to pass it on.
    private func answer(_ request: HTTPRequestHead, allocator: ByteBufferAllocator) -> Current? {
        // HTTP/1.0's keep-alive rules and anything unusual in the path (a query, escapes) take the router.
        guard request.version == .http1_1, request.method == .GET || request.method == .HEAD,
            request.uri.utf8.starts(with: "/img/".utf8),
            !request.uri.utf8.contains(UInt8(ascii: "?")), !request.uri.utf8.contains(UInt8(ascii: "%")),
            let signed = SignedImagePath(request.uri)
        else { return nil }
        let headers = request.headers
        switch access {
        case .open:
            break
        case .token(let token):
            let cookies = headers["cookie"].joined(separator: "; ")
            guard token.admits(authorization: headers.first(name: "authorization"), cookieHeader: cookies) else {
                return nil
            }
        case .router:
            return nil
        }
        let acceptsWebP = headers["accept"].contains { $0.contains("image/webp") }
        guard
            let image = proxy.cachedImage(
                variant: signed.variant, signature: signed.signature, encodedURL: signed.encodedSource,
                acceptsWebP: acceptsWebP)
        else { return nil }

        let close = !request.isKeepAlive
        let requestID = RequestID.sanitized(headers.first(name: "x-request-id")) ?? RequestID.make()
        let notModified = headers["if-none-match"].contains { ImageResponse.matches($0, image.etag) }
        metrics.fastPathAnswer(head: request.method == .HEAD, notModified: notModified)
        let bytes = head.encode(
            image: image, notModified: notModified, varies: signed.variant != "original", requestID: requestID,
            close: close, allocator: allocator)
        let body = notModified || request.method == .HEAD ? nil : image.body
        return .answering(bytes, body: body, close: close)
    }
}

/// The bytes of a fast-path answer's head: the same fields `ImagesController` answers with
/// (`ImageResponse.headers`), plus those Hummingbird adds to every answer (`Date`, `Server`) and
/// `RequestIDMiddleware`'s `X-Request-Id`. Shared by every connection of the server.
struct ImageHitHead: Sendable {
    let date: HTTPDate
    /// `server: …\r\n` and the fields every image answer carries, encoded once.
    private let common: [UInt8]

    init(date: HTTPDate, serverName: String) {
        self.date = date
        common = Array(
            ("server: \(serverName)\r\ncache-control: public, max-age=31536000, immutable\r\n"
                + "x-content-type-options: nosniff\r\ncontent-security-policy: default-src 'none'; sandbox\r\n").utf8)
    }

    func encode(
        image: ServedImage, notModified: Bool, varies: Bool, requestID: String, close: Bool,
        allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 512)
        buffer.writeStaticString(notModified ? "HTTP/1.1 304 Not Modified\r\n" : "HTTP/1.1 200 OK\r\n")
        buffer.writeBytes(common)
        buffer.writeStaticString("etag: ")
        buffer.writeString(image.etag)
        buffer.writeStaticString("\r\ndate: ")
        buffer.writeString(date.now)
        buffer.writeStaticString("\r\nx-request-id: ")
        buffer.writeString(requestID)
        buffer.writeStaticString("\r\n")
        if varies { buffer.writeStaticString("vary: Accept\r\n") }
        if close { buffer.writeStaticString("connection: close\r\n") }
        if !notModified {
            buffer.writeStaticString("content-type: ")
            buffer.writeString(image.contentType)
            buffer.writeStaticString("\r\ncontent-length: ")
            buffer.writeString(String(image.body.readableBytes))
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("\r\n")
        return buffer
    }
}
