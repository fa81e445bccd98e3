import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(Darwin)
    import OpenAPIURLSession
#else
    import AsyncHTTPClient
    import OpenAPIAsyncHTTPClient
#endif

/// A Tessera server's API from Swift: search (whole or as a stream of sections), sources, galleries and
/// image downloads. Every call throws `TesseraClientError` and nothing else.
///
/// ```swift
/// let tessera = TesseraClient(serverURL: URL(string: "http://127.0.0.1:8080")!, token: "…")
/// let results = try await tessera.search("lighthouse")
/// ```
public struct TesseraClient: Sendable {
    /// The server's address, as given.
    public let serverURL: URL
    let client: Client

    /// - Parameters:
    ///   - serverURL: The server's address (`http://127.0.0.1:8080`).
    ///   - token: The server's `TESSERA_TOKEN`, sent as a bearer token; nil when it has none.
    ///   - transport: How requests go out; by default URLSession on Apple platforms and AsyncHTTPClient
    ///     (its shared client) elsewhere.
    public init(serverURL: URL, token: String? = nil, transport: (any ClientTransport)? = nil) {
        self.serverURL = serverURL
        var middlewares: [any ClientMiddleware] = [ErrorResponseMiddleware()]
        if let token, !token.isEmpty { middlewares.append(BearerTokenMiddleware(token: token)) }
        client = Client(
            serverURL: serverURL, transport: transport ?? Self.defaultTransport, middlewares: middlewares)
    }

    static var defaultTransport: any ClientTransport {
        #if canImport(Darwin)
            URLSessionTransport()
        #else
            AsyncHTTPClientTransport(configuration: .init(client: httpClient))
        #endif
    }

    #if !canImport(Darwin)
        /// One client for the process, never shut down (as `HTTPClient.shared`), but failing fast when nothing
        /// listens: AsyncHTTPClient otherwise retries refused connections until the request's one-minute deadline.
        private static let httpClient: HTTPClient = {
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.timeout.connect = .seconds(10)
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }()
    #endif

    // MARK: - Search

    /// Searches every enabled source (`scope: .all`) or one section; 20 items a page.
    /// A failed source keeps its section, with `error` set; only the request as a whole throws.
    public func search(
        _ query: String, scope: Scope = .all, page: Int = 1, filter: SearchFilter = SearchFilter()
    ) async throws(TesseraClientError) -> SearchResults {
        try await call {
            let output = try await client.search(
                query: .init(
                    q: query, scope: .init(scope), page: page, license: filter.license,
                    orientation: filter.orientation.map { try Self.value($0, "orientation") },
                    size: filter.size.map { try Self.value($0, "size") },
                    color: filter.color.map { try Self.value($0, "color") },
                    _type: filter.type.map { try Self.value($0, "type") }))
            return SearchResults(try output.ok.body.json)
        }
    }

    /// The same search as `search(_:scope:page:)`, each section as its source answers (completion order).
    /// The request is made (and refused with a thrown error) here; the sections come as you iterate.
    public func searchSections(_ query: String, scope: Scope = .all, page: Int = 1)
        async throws(TesseraClientError) -> SearchSectionStream
    {
        try await call {
            let output = try await client.searchStream(query: .init(q: query, scope: .init(scope), page: page))
            return SearchSectionStream(body: try output.ok.body.textEventStream, server: serverURL)
        }
    }

    /// Every source, enabled or not (with why not), in display order.
    public func sources() async throws(TesseraClientError) -> [SourceInfo] {
        try await call { try await client.listSources().ok.body.json.map(SourceInfo.init) }
    }

    /// One item by its id (`pixabay:195893`), from recent results or its source.
    public func item(_ id: String) async throws(TesseraClientError) -> Item {
        guard let colon = id.firstIndex(of: ":"),
            let source = Operations.GetItem.Input.Path.SourcePayload(rawValue: String(id[..<colon]))
        else {
            throw .badRequest(
                status: 400, code: "invalid_item_id",
                message: "\(id) is not an item id of a searchable source (source:id, like pixabay:195893).")
        }
        let native = String(id[id.index(after: colon)...])
        return try await call {
            Item(try await client.getItem(path: .init(source: source, id: native)).ok.body.json)
        }
    }

    // MARK: - Images

    /// The bytes of an image the server linked (an item's or gallery item's `ImageLink`), at most `limit` bytes.
    public func image(_ link: ImageLink, limit: Int = 64 * 1_048_576) async throws(TesseraClientError)
        -> DownloadedImage
    {
        try await image(at: link.url, limit: limit)
    }

    /// The bytes of the image at a signed `/img/{variant}/{signature}/{source}` address of this server.
    public func image(at url: String, limit: Int = 64 * 1_048_576) async throws(TesseraClientError)
        -> DownloadedImage
    {
        let path = URL(string: url).map { $0.path } ?? url
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "img",
            let variant = Operations.GetImage.Input.Path.VariantPayload(rawValue: String(parts[2]))
        else { throw .invalidImageURL(url) }
        return try await call {
            let ok = try await client.getImage(
                path: .init(variant: variant, signature: String(parts[3]), source: String(parts[4]))
            ).ok
            let (body, type): (HTTPBody, String) =
                switch ok.body {
                case .jpeg(let body): (body, "image/jpeg")
                case .imageWebp(let body): (body, "image/webp")
                case .png(let body): (body, "image/png")
                case .imageGif(let body): (body, "image/gif")
                case .imageAvif(let body): (body, "image/avif")
                case .imageHeic(let body): (body, "image/heic")
                }
            return DownloadedImage(data: try await Data(collecting: body, upTo: limit), contentType: type)
        }
    }

    // MARK: - Errors

    /// Runs a generated-client call, with every failure as a `TesseraClientError`.
    func call<T>(_ body: () async throws -> T) async throws(TesseraClientError) -> T {
        do {
            return try await body()
        } catch {
            throw TesseraClientError(error, server: serverURL)
        }
    }
}

extension TesseraClientError {
    /// What the generated client, the runtime or a transport threw, as this client's error.
    init(_ error: any Error, server: URL) {
        if let error = error as? TesseraClientError {
            self = error
        } else if error is CancellationError {
            self = .cancelled
        } else if let error = error as? ClientError {
            if let ours = error.underlyingError as? TesseraClientError {
                self = ours
            } else if error.underlyingError is CancellationError {
                self = .cancelled
            } else if error.response == nil {
                // No answer at all: the request never got through.
                self = .unreachable(server: server, reason: Self.reason(error.underlyingError))
            } else {
                self = .unexpectedResponse("\(error.causeDescription) \(error.underlyingError)")
            }
        } else {
            self = .unexpectedResponse("\(error)")
        }
    }

    private static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("connectTimeout") || text.contains("timedOut") || text.contains("deadlineExceeded") {
            return "timed out"
        }
        if text.contains("refused") || text.contains("ECONNREFUSED") { return "connection refused" }
        return text
    }
}

extension Components.Parameters.Scope {
    init(_ scope: Scope) {
        // The same list, from the document's `Scope` parameter.
        self = Self(rawValue: scope.rawValue)!
    }
}

extension TesseraClient {
    /// A filter's value as the document's enum; one it does not list is refused here as the server would.
    static func value<T: RawRepresentable & CaseIterable>(_ raw: String, _ name: String) throws -> T
    where T.RawValue == String {
        guard let value = T(rawValue: raw) else {
            throw TesseraClientError.badRequest(
                status: 400, code: "invalid_filter",
                message: "\(name) is \"\(raw)\"; use one of: \(T.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return value
    }
}
