import NIOCore
import NIOHTTP1
import TesseraCore
import TesseraImageProxy

/// Answers `GET`/`HEAD /img/...` from the image memory cache right after the HTTP/1 decoder, before the
/// request reaches the rest of the pipeline and Hummingbird's async router. A cached thumbnail is the app's
/// most frequent request (a results page asks for 20 at once, scrolling for more), and for it every layer
/// above the decoder — the HTTPTypes conversions, the router's task hops — costs more than the answer
/// itself. So the answer is written here, as response parts to NIO's response encoder (`ImageHitHead`).
/// Not below it: the encoder keeps, for each request the decoder reads, its method (an answer to a HEAD has
/// no body), and takes one off per answer it sees; an answer it never saw leaves it a request behind, and
/// a later answer is then cut to its head. Anything else (a miss, another path, a bad signature, a missing
/// token, HTTP/1.0) is passed on untouched, and the router answers as always, with the same headers.
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

    /// Requests passed on whose answer has not been written through yet.
    private var answersOwed = 0
    /// What to do with the body and end of the request being read.
    private var current: Current = .passing

    private enum Current {
        case passing
        case answering(HTTPResponseHead, body: ByteBuffer?, close: Bool)
    }

    init(proxy: ImageProxy, access: ImageHitAccess, head: ImageHitHead, metrics: HTTPMetrics) {
        self.proxy = proxy
        self.access = access
        self.head = head
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if answersOwed == 0, let answer = answer(request) {
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
            guard case .answering(let head, let body, let close) = current else {
                context.fireChannelRead(data)
                return
            }
            current = .passing
            context.triggerUserOutboundEvent(HTTPPhase.requestEnded, promise: nil)
            let written = close ? context.eventLoop.makePromise(of: Void.self) : nil
            // From this context the parts go to the encoder, not through `write` below: they owe nothing.
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
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
    private func answer(_ request: HTTPRequestHead) -> Current? {
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
            let image = proxy.cachedImage(signed, acceptsWebP: acceptsWebP)
        else { return nil }

        let close = !request.isKeepAlive
        let requestID = RequestID.sanitized(headers.first(name: "x-request-id")) ?? RequestID.make()
        let notModified = headers["if-none-match"].contains { ImageResponse.matches($0, image.etag) }
        metrics.fastPathAnswer(head: request.method == .HEAD, notModified: notModified)
        let response = head.response(
            image: image, notModified: notModified, varies: signed.variant != "original", requestID: requestID,
            close: close)
        let body = notModified || request.method == .HEAD ? nil : image.body
        return .answering(response, body: body, close: close)
    }
}

/// The head of a fast-path answer: the same fields `ImagesController` answers with
/// (`ImageResponse.headers`), plus those Hummingbird adds to every answer (`Date`, `Server`) and
/// `RequestIDMiddleware`'s `X-Request-Id`. Shared by every connection of the server.
struct ImageHitHead: Sendable {
    let date: HTTPDate
    let serverName: String

    func response(
        image: ServedImage, notModified: Bool, varies: Bool, requestID: String, close: Bool
    ) -> HTTPResponseHead {
        var headers = HTTPHeaders()
        headers.reserveCapacity(11)
        headers.add(name: "server", value: serverName)
        headers.add(name: "cache-control", value: "public, max-age=31536000, immutable")
        headers.add(name: "x-content-type-options", value: "nosniff")
        headers.add(name: "content-security-policy", value: "default-src 'none'; sandbox")
        headers.add(name: "etag", value: image.etag)
        headers.add(name: "date", value: date.now)
        headers.add(name: "x-request-id", value: requestID)
        if varies { headers.add(name: "vary", value: "Accept") }
        if close { headers.add(name: "connection", value: "close") }
        if !notModified {
            headers.add(name: "content-type", value: image.contentType)
            headers.add(name: "content-length", value: String(image.body.readableBytes))
        }
        return HTTPResponseHead(version: .http1_1, status: notModified ? .notModified : .ok, headers: headers)
    }
}
