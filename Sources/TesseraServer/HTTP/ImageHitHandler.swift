import HTTPTypes
import NIOCore
import NIOHTTPTypes
import TesseraCore
import TesseraImageProxy

/// Answers `GET`/`HEAD /img/...` from the image memory cache right in the connection's pipeline, before
/// the request reaches Hummingbird's async router. A cached thumbnail is the app's most frequent request
/// (a results page asks for 20 at once, scrolling for more), and for it the router's task hops cost more
/// than the answer itself. Anything else (a miss, another path, a bad signature, a missing token) is
/// passed on untouched, and the router answers as always, with the same headers.
///
/// HTTP/1.1 answers must leave in request order: a hit is only answered here while no earlier request
/// of the connection is still being answered by the router; otherwise it is passed on too.
final class ImageHitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let proxy: ImageProxy
    private let token: AccessToken?
    private let date: HTTPDate
    private let serverName: String
    private let metrics: HTTPMetrics

    /// Requests passed on whose answer has not been written through yet.
    private var answersOwed = 0
    /// What to do with the body and end of the request being read.
    private var current: Current = .passing

    private enum Current {
        case passing
        case answering(HTTPResponse, ByteBuffer?)
    }

    init(proxy: ImageProxy, token: AccessToken?, date: HTTPDate, serverName: String, metrics: HTTPMetrics) {
        self.proxy = proxy
        self.token = token
        self.date = date
        self.serverName = serverName
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if answersOwed == 0, let (head, body) = answer(request) {
                current = .answering(head, body)
            } else {
                current = .passing
                answersOwed += 1
                context.fireChannelRead(data)
            }
        case .body:
            if case .passing = current { context.fireChannelRead(data) }
        case .end:
            guard case .answering(let head, let body) = current else {
                context.fireChannelRead(data)
                return
            }
            current = .passing
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if let body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            if head.headerFields[.connection] == "close" { context.close(promise: nil) }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { answersOwed -= 1 }
        context.write(data, promise: promise)
    }

    /// The answer for a request the memory cache can serve, or `nil` to pass it on.
    private func answer(_ request: HTTPRequest) -> (HTTPResponse, ByteBuffer?)? {
        guard request.method == .get || request.method == .head, let path = request.path,
            path.hasPrefix("/img/")
        else { return nil }
        // No query, no escapes: anything unusual takes the router.
        guard !path.utf8.contains(UInt8(ascii: "?")), !path.utf8.contains(UInt8(ascii: "%")),
            let signed = SignedImagePath(path)
        else { return nil }
        let variant = signed.variant
        if let token {
            let cookies = request.headerFields[values: .cookie].joined(separator: "; ")
            guard token.admits(authorization: request.headerFields[.authorization], cookieHeader: cookies) else {
                return nil
            }
        }
        let acceptsWebP = request.headerFields[.accept]?.contains("image/webp") ?? false
        guard
            let image = proxy.cachedImage(
                variant: variant, signature: signed.signature, encodedURL: signed.encodedSource,
                acceptsWebP: acceptsWebP)
        else { return nil }

        var fields = ImageResponse.headers(etag: image.etag, variant: variant)
        fields[.date] = date.now
        fields[.server] = serverName
        // Echoed like every answer's (RequestIDMiddleware); a hit logs nothing, so the id is only made here.
        fields[.requestID] = RequestID.sanitized(request.headerFields[.requestID]) ?? RequestID.make()
        if request.headerFields[.connection] == "close" { fields[.connection] = "close" }
        let head = request.method == .head
        if let tags = request.headerFields[.ifNoneMatch], ImageResponse.matches(tags, image.etag) {
            metrics.fastPathAnswer(head: head, notModified: true)
            return (HTTPResponse(status: .notModified, headerFields: fields), nil)
        }
        metrics.fastPathAnswer(head: head, notModified: false)
        fields[.contentType] = image.contentType
        fields[.contentLength] = String(image.body.readableBytes)
        return (HTTPResponse(status: .ok, headerFields: fields), head ? nil : image.body)
    }
}
