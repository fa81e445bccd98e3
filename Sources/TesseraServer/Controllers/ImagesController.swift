import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TesseraCore
import TesseraGalleries
import TesseraImageProxy

/// `GET`/`HEAD /img/{variant}/{signature}/{source}`: the image proxy over HTTP.
///
/// Signed variants never change, so they are cacheable for a year and immutable; the entity tag lets a
/// client that still asks be answered `304` without any work. `thumb` and `preview` may be WebP when the
/// client accepts it, hence `Vary: Accept`.
struct ImagesController<Context: PrincipalRequestContext> {
    let proxy: ImageProxy
    /// With accounts: a gallery's stored copy is served only to someone who may read a gallery holding it,
    /// else the answer is the one for a copy that does not exist (docs/accounts.md).
    var galleries: GalleryService? = nil

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
        let path = Self.signedPath(context)
        // The one check of the signature; what it names goes on as an `ImageRequest`.
        let image = try proxy.verified(path)
        let stored = try await checkStoredCopy(image.reference, context.galleryViewer)
        return try await serve(request, image, signedAs: path, privately: stored, includeBody: includeBody)
    }

    /// The route's three parts, still to be checked.
    static func signedPath(_ context: Context) -> SignedImagePath {
        SignedImagePath(
            variant: context.parameters.get("variant") ?? "", signature: context.parameters.get("signature") ?? "",
            encodedSource: context.parameters.get("source") ?? "")
    }

    /// The image answer once the address is checked and access settled; `privately` for a gallery's copy with
    /// accounts or through a link (`Cache-Control: private`). The link visitors' route (`SharedController`)
    /// answers through it too.
    func serve(
        _ request: Request, _ image: ImageRequest, signedAs path: SignedImagePath, privately stored: Bool,
        includeBody: Bool
    ) async throws -> Response {
        let acceptsWebP = request.headers[.accept]?.contains("image/webp") ?? false
        let variant = image.variant.rawValue
        // What the proxy throws, `ImageProxyError`, becomes the API's error shape in `APIErrorMiddleware`.
        if let tags = request.headers[.ifNoneMatch] {
            let etag = proxy.etag(image, acceptsWebP: acceptsWebP)
            if ImageResponse.matches(tags, etag) {
                var headers = ImageResponse.headers(etag: etag, variant: variant)
                if stored { headers[.cacheControl] = ImageResponse.privateCaching }
                return Response(status: .notModified, headers: headers)
            }
        }
        let image = try await proxy.image(image, acceptsWebP: acceptsWebP, cachedAs: path)
        var headers = ImageResponse.headers(etag: image.etag, variant: variant)
        if stored { headers[.cacheControl] = ImageResponse.privateCaching }
        headers[.contentType] = image.contentType
        headers[.contentLength] = String(image.body.readableBytes)
        return Response(
            status: .ok, headers: headers, body: includeBody ? ResponseBody(byteBuffer: image.body) : ResponseBody())
    }
}

extension ImagesController {
    /// With accounts, refuses a gallery's stored copy to someone who cannot read any gallery holding it, as
    /// if it did not exist; true when the image is such a copy (checked and allowed).
    private func checkStoredCopy(_ reference: ImageReference, _ viewer: GalleryViewer) async throws -> Bool {
        guard let galleries, case .account = viewer, case .stored(let hash) = reference else { return false }
        guard try await galleries.mayView(storedImage: hash, by: viewer) else {
            throw ImageProxyError.file(.noStoredCopy(ImageReference.stored(hash: hash).string))
        }
        return true
    }
}

/// The headers of an image answer, the same whether the router or the fast path answers.
enum ImageResponse {
    /// A gallery's copy with accounts: for this browser only, never a shared cache that would hand it on.
    static let privateCaching = "private, max-age=31536000, immutable"

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
