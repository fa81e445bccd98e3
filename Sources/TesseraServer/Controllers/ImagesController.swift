import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TesseraImageProxy

/// `GET`/`HEAD /img/{variant}/{signature}/{source}`: the image proxy over HTTP.
///
/// Signed variants never change, so they are cacheable for a year and immutable; the entity tag lets a
/// client that still asks be answered `304` without any work. `thumb` and `preview` may be WebP when the
/// client accepts it, hence `Vary: Accept`.
struct ImagesController<Context: RequestContext> {
    let proxy: ImageProxy

    static var path: String { "/img/{variant}/{signature}/{source}" }

    func addRoutes(to router: Router<Context>) {
        router.get(RouterPath(Self.path)) { request, context in
            try await answer(request, context, includeBody: true)
        }
        router.head(RouterPath(Self.path)) { request, context in
            try await answer(request, context, includeBody: false)
        }
    }

    private func answer(_ request: Request, _ context: Context, includeBody: Bool) async throws -> Response {
        let variant = context.parameters.get("variant") ?? ""
        let signature = context.parameters.get("signature") ?? ""
        let source = context.parameters.get("source") ?? ""
        let acceptsWebP = request.headers[.accept]?.contains("image/webp") ?? false
        // What the proxy throws, `ImageProxyError`, becomes the API's error shape in `APIErrorMiddleware`.
        if let tags = request.headers[.ifNoneMatch] {
            let etag = try proxy.etag(
                variant: variant, signature: signature, encodedURL: source, acceptsWebP: acceptsWebP)
            if ImageResponse.matches(tags, etag) {
                return Response(status: .notModified, headers: ImageResponse.headers(etag: etag, variant: variant))
            }
        }
        let image = try await proxy.image(
            variant: variant, signature: signature, encodedURL: source, acceptsWebP: acceptsWebP)
        var headers = ImageResponse.headers(etag: image.etag, variant: variant)
        headers[.contentType] = image.contentType
        headers[.contentLength] = String(image.body.readableBytes)
        return Response(
            status: .ok, headers: headers, body: includeBody ? ResponseBody(byteBuffer: image.body) : ResponseBody())
    }
}

/// The headers of an image answer, the same whether the router or the fast path answers.
enum ImageResponse {
    static func headers(etag: String, variant: String) -> HTTPFields {
        var headers: HTTPFields = [
            .eTag: etag,
            .cacheControl: "public, max-age=31536000, immutable",
            // Bytes from elsewhere: never sniffed into something else, never a document with powers.
            .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy: "default-src 'none'; sandbox",
        ]
        if variant != "original" { headers[.vary] = "Accept" }
        return headers
    }

    /// `If-None-Match`: `*`, or a list of tags, weak ones compared weakly (RFC 9110 §13.1.2).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}
