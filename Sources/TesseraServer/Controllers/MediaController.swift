import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TesseraCore
import TesseraImageProxy

/// `GET`/`HEAD /media/{signature}/{source}`: a service's audio or video preview through `MediaProxy`, in
/// byte ranges as media elements ask for them (`Accept-Ranges`, `206` with `Content-Range`, `If-Range`).
///
/// The bytes under a signed address do not change, so the entity tag comes from the address alone and a
/// conditional request is answered without fetching. The browser may keep a copy for an hour, shared caches
/// none: Apple's terms let previews be streamed, not stored (docs/media.md).
struct MediaController<Context: RequestContext> {
    let proxy: MediaProxy

    static var path: String { "/media/{signature}/{source}" }

    func addRoutes(to router: Router<Context>) {
        router.get(RouterPath(Self.path)) { request, context in
            try await answer(request, context, includeBody: true)
        }
        router.head(RouterPath(Self.path)) { request, context in
            try await answer(request, context, includeBody: false)
        }
    }

    private func answer(_ request: Request, _ context: Context, includeBody: Bool) async throws -> Response {
        let signature = context.parameters.get("signature") ?? ""
        let source = context.parameters.get("source") ?? ""
        if let tags = request.headers[.ifNoneMatch] {
            let etag = try proxy.etag(signature: signature, encodedURL: source)
            if ImageResponse.matches(tags, etag) {
                return Response(status: .notModified, headers: Self.headers(etag: etag))
            }
        }
        let media = try await proxy.media(signature: signature, encodedURL: source)
        let size = media.body.readableBytes
        var headers = Self.headers(etag: media.etag)
        headers[.contentType] = media.contentType
        // `If-Range` with another tag (or a date, which this route never sends): the whole body, fresh.
        let rangeStillValid = request.headers[.ifRange].map { $0 == media.etag } ?? true
        switch ByteRange(header: rangeStillValid ? request.headers[.range] : nil, size: size) {
        case .whole:
            headers[.contentLength] = String(size)
            return Response(
                status: .ok, headers: headers, body: includeBody ? ResponseBody(byteBuffer: media.body) : ResponseBody()
            )
        case .partial(let range):
            headers[.contentLength] = String(range.count)
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            let slice = media.body.getSlice(at: media.body.readerIndex + range.lowerBound, length: range.count)
            return Response(
                status: .partialContent, headers: headers,
                body: includeBody ? ResponseBody(byteBuffer: slice ?? ByteBuffer()) : ResponseBody())
        case .unsatisfiable:
            throw APIError.rangeNotSatisfiable(size: size)
        }
    }

    static func headers(etag: String) -> HTTPFields {
        [
            .eTag: etag, .acceptRanges: "bytes",
            .cacheControl: "private, max-age=3600",
            // Bytes from elsewhere: never sniffed into something else, never a document with powers.
            .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy: "default-src 'none'; sandbox",
        ]
    }
}
