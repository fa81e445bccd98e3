import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The web app: its files under `/app/`, and the app shell (`index.html`) for every page address the app
/// routes itself (`/`, `/search`, `/item/{source}/{id}`, `/galleries`, `/galleries/{id}`), so reloading or
/// sharing any of them works.
///
/// The files are few and small, so they are read once at start and served from memory, each with an
/// entity tag and `no-cache` (revalidated on every load: no build step means no hashed names).
struct WebController<Context: RequestContext> {
    let assets: WebAssets

    func addRoutes(to router: Router<Context>) {
        for path in ["/", "/search", "/item/{source}/{id}", "/galleries", "/galleries/{id}"] {
            router.get(RouterPath(path)) { request, _ in try assets.response(for: "index.html", request) }
        }
        router.get("/app/{file}") { request, context in
            try assets.response(for: context.parameters.get("file") ?? "", request)
        }
    }
}

/// The web app's files, loaded from the folder once.
public struct WebAssets: Sendable {
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
        let etag: String
    }

    private let files: [String: Asset]

    /// The files shipped with the server (`Sources/TesseraServer/Web`, copied as a package resource).
    public static func bundled() throws -> WebAssets {
        guard let folder = Bundle.module.url(forResource: "Web", withExtension: nil) else {
            throw WebAssetsError(message: "The web app's files are missing from this build (the Web resource).")
        }
        return try WebAssets(folder: folder)
    }

    public init(folder: URL) throws {
        var files: [String: Asset] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            guard let type = Self.contentTypes[(name as NSString).pathExtension] else { continue }
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            files[name] = Asset(
                body: ByteBuffer(bytes: data), contentType: type, etag: Self.etag(data))
        }
        guard files["index.html"] != nil else {
            throw WebAssetsError(message: "\(folder.path) has no index.html.")
        }
        self.files = files
    }

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "json": "application/json; charset=utf-8", "webmanifest": "application/manifest+json",
    ]

    /// What the page may do: only this server's scripts, styles, images and API; no inline script, no
    /// framing, no plugins. Text from the sources can never become code.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

    /// A strong tag from the content: the first 12 bytes of its SHA-256, in hex.
    static func etag(_ data: Data) -> String {
        "\"" + SHA256.hash(data: data).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
    }

    func response(for name: String, _ request: Request) throws -> Response {
        guard let asset = files[name] else {
            throw APIError(status: .notFound, code: "not_found", message: "No such file: /app/\(name).")
        }
        var headers: HTTPFields = [
            .eTag: asset.etag, .cacheControl: "no-cache", .contentType: asset.contentType,
            .xContentTypeOptions: "nosniff", .contentSecurityPolicy: Self.contentSecurityPolicy,
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("X-Frame-Options")!: "DENY",
        ]
        if let tags = request.headers[.ifNoneMatch], ImageResponse.matches(tags, asset.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(asset.body.readableBytes)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: asset.body))
    }
}

public struct WebAssetsError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
