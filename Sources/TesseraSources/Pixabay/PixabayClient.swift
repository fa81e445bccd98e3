import Foundation
import TesseraCore

/// Pixabay images: `GET {base}?key=…&q=…&safesearch=true&page=…&per_page=20`.
///
/// Terms: answers must be cached for 24 hours, a query reaches at most 500 results, and images
/// must not be hotlinked (the server proxies them).
public struct PixabayClient: MediaSource {
    public static let keyVariable = "PIXABAY_API_KEY"
    /// Pixabay never returns more than this many hits for one query.
    static let resultCap = 500
    static let cacheTTL: Duration = .seconds(24 * 60 * 60)

    public let id = SourceID.pixabay
    public let sections: [SectionID] = [.pixabay]
    public let kinds: [ItemKind] = [.image]
    let endpoint: Endpoint
    let apiKey: APIKey
    let http: SourceHTTP

    public init(endpoint: Endpoint, apiKey: String?, http: SourceHTTP) {
        self.endpoint = endpoint
        self.apiKey = APIKey(apiKey, variable: Self.keyVariable)
        self.http = http
    }

    public var availability: SourceAvailability { apiKey.availability }

    public func search(_ query: String, in section: SectionID, page: Int) async throws -> SourcePage {
        try await search(query, in: section, page: page, filters: .none)
    }

    public func search(
        _ query: String, in section: SectionID, page: Int, filters: SearchFilters
    ) async throws -> SourcePage {
        let pageSize = SearchRequest.pageSize
        // Past the 500-result cap Pixabay answers 400; there is nothing to ask for.
        guard (page - 1) * pageSize < Self.resultCap else { return .empty }
        let url = endpoint.url(
            query: [
                ("key", try apiKey.required(by: id)), ("q", query), ("lang", "en"),
                ("image_type", filters.type?.rawValue ?? "all"), ("safesearch", "true"),
                ("page", String(page)), ("per_page", String(pageSize)),
            ] + Self.filterParameters(filters))
        return try await http.get(url, source: id, ttl: Self.cacheTTL, redacting: ["key"]) {
            response throws(SourceError) in
            if let failure = failure(response) {
                // A page past `totalHits` but inside the cap can also be refused: it is the end, not an error.
                if case .rejected(_, let detail) = failure, detail.contains("out of valid range") {
                    return .empty
                }
                throw failure
            }
            let wire = try response.decode(PixabayWire.SearchResponse.self, source: id)
            let totalHits = ServiceNumbers.total(wire.totalHits?.value)
            let reachable = min(totalHits ?? 0, Self.resultCap)
            return SourcePage(
                items: wire.hits.decoded().map(Self.item), total: ServiceNumbers.total(wire.total?.value) ?? totalHits,
                hasMore: page * pageSize < reachable)
        }
    }

    public func item(nativeID: String) async throws -> Item {
        guard let number = Int(nativeID), number > 0 else { throw SourceError.notFound(id, id: nativeID) }
        let url = endpoint.url(query: [("key", try apiKey.required(by: id)), ("id", String(number))])
        return try await http.get(url, source: id, ttl: Self.cacheTTL, redacting: ["key"]) {
            response throws(SourceError) in
            if let failure = failure(response) {
                if case .rejected = failure { throw .notFound(id, id: nativeID) }
                throw failure
            }
            let wire = try response.decode(PixabayWire.SearchResponse.self, source: id)
            guard let hit = wire.hits.decoded().first else { throw .notFound(id, id: nativeID) }
            return Self.item(hit)
        }
    }

    /// Pixabay reports errors as plain text with a 4xx status: `[ERROR 400] Invalid API key...`.
    private func failure(_ response: SourceHTTP.Response) -> SourceError? {
        if response.status == 429 {
            let reset = ServiceNumbers.wait(response.header("X-RateLimit-Reset").flatMap { Int($0.trimmingWhitespace) })
            return .rateLimited(id, retryAfter: response.retryAfterSeconds ?? reset)
        }
        if let common = response.commonFailure(id) { return common }
        guard response.status != 200 else { return nil }
        let text = response.bodyText
        if text.localizedCaseInsensitiveContains("api key") || response.status == 401 || response.status == 403 {
            return .invalidKey(id, keyVariable: Self.keyVariable)
        }
        let detail = text.replacingOccurrences(of: "[ERROR \(response.status)]", with: "").trimmingWhitespace
        return .rejected(id, detail: detail.isEmpty ? "HTTP \(response.status)" : detail)
    }

    static func item(_ hit: PixabayWire.Hit) -> Item {
        let tags = Tags.commaSeparated(hit.tags ?? "")
        var sizes: [ImageSize] = []
        func add(_ name: String, _ url: String?, _ width: Int?, _ height: Int?) {
            guard let url, !url.isEmpty else { return }
            sizes.append(
                ImageSize(name: name, url: url, width: ServiceNumbers.side(width), height: ServiceNumbers.side(height)))
        }
        let (width, height) = (ServiceNumbers.side(hit.imageWidth), ServiceNumbers.side(hit.imageHeight))
        // Pixabay names the large renditions by their bounding box; their size follows from the original's.
        let large = Geometry.fit(width: width, height: height, maxSide: 1280)
        let fullHD = Geometry.fit(width: width, height: height, maxSide: 1920)
        add("preview", hit.previewURL, hit.previewWidth, hit.previewHeight)
        add("webformat", hit.webformatURL, hit.webformatWidth, hit.webformatHeight)
        add("large", hit.largeImageURL, large?.width, large?.height)
        add("fullHD", hit.fullHDURL, fullHD?.width, fullHD?.height)
        add("original", hit.imageURL, width, height)
        add("vector", hit.vectorURL, nil, nil)

        var metadata: [MetadataEntry] = []
        metadata.add("Type", hit.type)
        metadata.add("Original size", Format.dimensions(width, height))
        metadata.add("File size", ServiceNumbers.bytes(hit.imageSize).map(Format.bytes))
        metadata.add("Views", hit.views)
        metadata.add("Downloads", hit.downloads)
        metadata.add("Likes", hit.likes)
        metadata.add("Comments", hit.comments)
        metadata.add("Collections", hit.collections ?? hit.favorites)
        metadata.add("User ID", hit.user_id)
        metadata.add("AI generated", hit.isAiGenerated.map { $0 ? "yes" : "no" })
        metadata.add("No AI training", hit.noAiTraining.map { $0 ? "yes" : "no" })
        metadata.add("Tags", tags.isEmpty ? nil : tags.joined(separator: ", "))

        let creator = hit.user.flatMap { name -> Creator? in
            guard !name.isEmpty else { return nil }
            let profile = hit.userURL ?? hit.user_id.map { "https://pixabay.com/users/\(name)-\($0)/" }
            return Creator(name: name, url: profile)
        }
        var item = Item(
            id: ItemID(source: .pixabay, nativeID: String(hit.id)),
            kind: hit.type == "film" || hit.type == "animation" ? .video : .image,
            title: title(tags: tags, id: hit.id),
            tags: tags, creator: creator,
            license: Licenses.pixabay,
            pageURL: hit.pageURL, sizes: sizes, metadata: metadata)
        ImagePicker.assign(&item)
        return item
    }

    /// Pixabay items have no title; their tags describe them ("Blossom, bloom, flower").
    static func title(tags: [String], id: Int) -> String {
        guard !tags.isEmpty else { return "Pixabay image \(id)" }
        let text = tags.prefix(3).joined(separator: ", ")
        return text.prefix(1).uppercased() + text.dropFirst()
    }
}
