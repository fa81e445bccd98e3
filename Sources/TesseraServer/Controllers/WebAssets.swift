import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The web app's files, read from their folder (and its subfolders) once at start and served from memory.
///
/// With no build step there are no hashed file names; instead one hash of all the files, `version`, goes into
/// their address (`/app/{version}/main.js`), as the shell names them. Modules import each other by relative
/// paths, so they stay under the same version.
public struct WebAssets: Sendable {
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
        let etag: String
    }

    /// How long a browser may keep a file without asking again.
    enum Caching: Sendable {
        /// It asks every time, and gets `304 Not Modified` while the entity tag matches.
        case revalidate
        /// A year, never asking: the address names the version, so the bytes there never change.
        case forever
    }

    /// The app shell, answered for every page address.
    static let shell = "index.html"
    /// The sign-in page of `TESSERA_AUTH=accounts`, served at `/login`.
    static let login = "login.html"
    /// The page of a public or drop link, served at `/s/{slug}`.
    static let publicPage = "public.html"

    /// A hash of every file's path and bytes (16 hex digits): the version in the addresses the shell names.
    public let version: String
    private let files: [String: Asset]

    /// The files shipped with the server (`Sources/TesseraServer/Web`, copied as a package resource).
    public static func bundled() throws -> WebAssets {
        guard let folder = Bundle.module.url(forResource: "Web", withExtension: nil) else {
            throw WebAssetsError.missingResource
        }
        return try WebAssets(folder: folder)
    }

    public init(folder: URL) throws {
        let paths: [String]
        do {
            paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        } catch {
            throw WebAssetsError.unreadable(path: folder.path, reason: "\(error)")
        }
        var contents: [(path: String, data: Data)] = []
        var types: [String: String] = [:]
        for path in paths.sorted() {
            // Dotfiles are an editor's or a tool's, not the app's; folders have no known extension.
            guard !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                let type = Self.contentTypes[(path as NSString).pathExtension]
            else { continue }
            guard path.split(separator: "/").count <= 2 else { throw WebAssetsError.tooDeep(path: path) }
            types[path] = type
            do {
                contents.append((path, try Data(contentsOf: folder.appendingPathComponent(path))))
            } catch {
                throw WebAssetsError.unreadable(path: folder.appendingPathComponent(path).path, reason: "\(error)")
            }
        }
        guard contents.contains(where: { $0.path == Self.shell }) else {
            throw WebAssetsError.noShell(folder: folder.path)
        }
        let version = Self.version(of: contents)
        // Pages are put together from their parts (WebAssets+Pages.swift) before the version goes in.
        let parts = Self.parts(of: contents)
        let partData = Dictionary(uniqueKeysWithValues: contents.filter { parts.contains($0.path) })
        var files: [String: Asset] = [:]
        for (path, data) in contents where !parts.contains(path) {
            var body = path.hasSuffix(".html") ? try Self.assemble(data, at: path, parts: partData) : data
            if [Self.shell, Self.login, Self.publicPage].contains(path) { body = Self.shell(body, naming: version) }
            files[path] = Asset(
                body: ByteBuffer(bytes: body), contentType: types[path, default: ""], etag: Self.etag(body))
        }
        self.version = version
        self.files = files
    }

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "json": "application/json; charset=utf-8", "webmanifest": "application/manifest+json",
    ]

    /// What the page may do: only this server's scripts, styles, images, previews and API; no inline script, no
    /// framing, no plugins. Text from the sources can never become code.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self'; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

    /// A strong tag from the content: the first 12 bytes of its SHA-256, in hex.
    static func etag(_ data: Data) -> String {
        "\"" + SHA256.hash(data: data).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// One hash over every file, each framed by its path and length, so that any change to a file's bytes, a
    /// new file or a renamed one gives another version.
    static func version(of contents: [(path: String, data: Data)]) -> String {
        var hash = SHA256()
        for (path, data) in contents {
            hash.update(data: Data("\(path)\n\(data.count)\n".utf8))
            hash.update(data: data)
        }
        return hash.finalize().prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// The shell with its `href="/app/…"` and `src="/app/…"` under `/app/{version}/`.
    static func shell(_ data: Data, naming version: String) -> Data {
        Data(
            String(decoding: data, as: UTF8.self).replacingOccurrences(of: "=\"/app/", with: "=\"/app/\(version)/").utf8
        )
    }

    func response(for path: String, caching: Caching, _ request: Request) throws -> Response {
        guard let asset = files[path] else {
            throw APIError(status: .notFound, code: "not_found", message: "No such file: \(request.uri.path).")
        }
        var headers: HTTPFields = [
            .eTag: asset.etag, .contentType: asset.contentType,
            .cacheControl: caching == .forever ? "public, max-age=31536000, immutable" : "no-cache",
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

/// Why the web app's files could not be loaded at start.
public enum WebAssetsError: Error, CustomStringConvertible {
    /// This build has no `Web` resource.
    case missingResource
    /// The folder, or a file in it, could not be read.
    case unreadable(path: String, reason: String)
    /// The folder has no `index.html`.
    case noShell(folder: String)
    /// A file is more than one folder down, where no route reaches (`WebController`).
    case tooDeep(path: String)
    /// A page cannot be put together from its parts (`WebAssets+Pages.swift`).
    case page(path: String, reason: String)

    public var description: String {
        switch self {
        case .missingResource:
            "The web app's files are missing from this build (the Web resource of TesseraServer); build it again."
        case .unreadable(let path, let reason):
            "The web app's files could not be read at \(path): \(reason)."
        case .noShell(let folder):
            "\(folder) has no index.html, so it is not the web app's folder."
        case .tooDeep(let path):
            "The web app's file \(path) is more than one folder down, where the server does not look; move it up."
        case .page(let path, let reason):
            "The web app's page \(path) cannot be put together: \(reason)."
        }
    }
}
