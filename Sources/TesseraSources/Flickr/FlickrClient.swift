import Foundation
import TesseraCore

/// Flickr photos: `GET {base}?method=flickr.photos.search&api_key=…&text=…&format=json&nojsoncallback=1`.
///
/// Flickr answers its errors with HTTP 200 and `{"stat":"fail","code":N,"message":…}`, so every answer is
/// checked for `stat` before it is read. A query reaches at most 4,000 results; safe search is always on.
public struct FlickrClient: MediaSource {
    public static let keyVariable = "FLICKR_API_KEY"
    /// "Flickr will return at most the first 4,000 results for any given search query."
    static let resultCap = 4_000
    /// Flickr's API terms allow caching "for reasonable periods" without naming one. An hour keeps paging
    /// and repeated searches off the key's 3,600-calls-an-hour budget, while photos their owners edit,
    /// delete or make private on Flickr stop showing here the same hour.
    static let cacheTTL: Duration = .seconds(60 * 60)
    /// Everything Tessera shows, so one search call gives the whole item (docs/sources.md lists the keys).
    static let extras = [
        "description", "license", "date_upload", "date_taken", "owner_name", "icon_server", "original_format",
        "tags", "o_dims", "views", "media", "path_alias", "url_sq", "url_t", "url_s", "url_q", "url_m", "url_n",
        "url_z", "url_c", "url_l", "url_o",
    ].joined(separator: ",")

    public let id = SourceID.flickr
    public let sections: [SectionID] = [.flickr]
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
        let key = try apiKey.required(by: id)
        let pageSize = SearchRequest.pageSize
        // Past the 4,000-result cap Flickr answers error 20 or repeats results: there is nothing to ask for.
        guard (page - 1) * pageSize < Self.resultCap else { return .empty }
        // No Flickr licence passes the filter: nothing it could answer would.
        guard let filterParameters = Self.filterParameters(filters) else { return .empty }
        let url = endpoint.url(
            query: [
                ("method", "flickr.photos.search"), ("api_key", key), ("text", query), ("safe_search", "1"),
                ("content_type", "1"), ("media", "photos"), ("sort", "relevance"), ("extras", Self.extras),
                ("per_page", String(pageSize)), ("page", String(page)), ("format", "json"), ("nojsoncallback", "1"),
            ] + filterParameters)
        return try await http.get(url, source: id, ttl: Self.cacheTTL, redacting: ["api_key"]) {
            response throws(SourceError) in
            try Self.searchPage(response, page: page)
        }
    }

    public func item(nativeID: String) async throws -> Item {
        // Flickr photo ids are decimal numbers; anything else cannot exist there.
        guard let number = UInt64(nativeID), number > 0 else { throw SourceError.notFound(id, id: nativeID) }
        let url = endpoint.url(query: [
            ("method", "flickr.photos.getInfo"), ("api_key", try apiKey.required(by: id)), ("photo_id", String(number)),
            ("format", "json"), ("nojsoncallback", "1"),
        ])
        return try await http.get(url, source: id, ttl: Self.cacheTTL, redacting: ["api_key"]) {
            response throws(SourceError) in
            try Self.infoItem(response, nativeID: nativeID)
        }
    }

    /// Reads a `flickr.photos.search` answer (plain JSON or JSONP) as page `page`, the way `search` does.
    /// For answers recorded or fetched elsewhere.
    public static func searchPage(fromJSON body: Data, page: Int) throws(SourceError) -> SourcePage {
        try searchPage(SourceHTTP.Response(status: 200, headers: [], body: body), page: page)
    }

    // MARK: - Reading answers

    static func searchPage(_ response: SourceHTTP.Response, page: Int) throws(SourceError) -> SourcePage {
        let response = try unwrapped(response) { code in
            // Error 20 is the end of what Flickr will page through, not a failure.
            code == 20 ? SourcePage.empty : nil
        }
        switch response {
        case .answered(let page): return page
        case .body(let response):
            let wire = try response.decode(FlickrWire.SearchResponse.self, source: .flickr)
            guard let photos = wire.photos else { throw .badResponse(.flickr, detail: "photos: missing") }
            let pages = photos.pages?.value ?? 0
            return SourcePage(
                items: (photos.photo ?? []).decoded().map(item), total: ServiceNumbers.total(photos.total?.value),
                hasMore: page < pages && page * SearchRequest.pageSize < resultCap)
        }
    }

    static func infoItem(_ response: SourceHTTP.Response, nativeID: String) throws(SourceError) -> Item {
        let response = try unwrapped(response) { code throws(SourceError) -> Item? in
            // 1: "Photo not found" (deleted, private, or never there).
            if code == 1 { throw .notFound(.flickr, id: nativeID) }
            return nil
        }
        switch response {
        case .answered(let item): return item
        case .body(let response):
            let wire = try response.decode(FlickrWire.InfoResponse.self, source: .flickr)
            guard let photo = wire.photo?.photo else { throw .badResponse(.flickr, detail: "photo: missing") }
            return item(photo)
        }
    }

    private enum Unwrapped<T> {
        /// `special` turned a Flickr error into a result.
        case answered(T)
        /// A successful answer, JSONP wrapper removed, to decode.
        case body(SourceHTTP.Response)
    }

    /// Removes a JSONP wrapper and turns failures into `SourceError`: 429 and 5xx first, then Flickr's
    /// `stat: fail` (which `special` may handle per method), then any other non-200 status.
    private static func unwrapped<T>(
        _ response: SourceHTTP.Response, special: (Int) throws(SourceError) -> T?
    ) throws(SourceError) -> Unwrapped<T> {
        if let common = response.commonFailure(.flickr) { throw common }
        var plain = response
        plain.body = FlickrWire.unwrappingJSONP(response.body)
        if let status = try? FastJSONDecoder.decode(FlickrWire.Status.self, from: plain.body), status.stat == "fail" {
            let code = status.code?.value ?? 0
            let message = status.message?.value?.trimmingWhitespace ?? ""
            if let result = try special(code) { return .answered(result) }
            throw failure(code: code, message: message)
        }
        guard response.status == 200 else { throw .serviceError(.flickr, status: response.status, detail: nil) }
        return .body(plain)
    }

    /// Flickr's error codes (docs/sources.md): 100 is a bad or missing key, 10 and 105 are Flickr being down,
    /// the rest say the request itself was refused.
    static func failure(code: Int, message: String) -> SourceError {
        let detail = message.isEmpty ? "Flickr error \(code)" : message
        switch code {
        case 100: return .invalidKey(.flickr, keyVariable: keyVariable)
        case 10, 105: return .serviceError(.flickr, status: nil, detail: detail)
        default: return .rejected(.flickr, detail: detail)
        }
    }
}

// MARK: - Mapping to Item

extension FlickrClient {
    static func item(_ photo: FlickrWire.Photo) -> Item {
        let tags = Tags.spaceSeparated(photo.tags ?? "")
        let owner = nonEmpty(photo.owner)
        let title = PlainText.fromHTML(photo.title ?? "")
        let creator = (nonEmpty(photo.ownerName) ?? owner).map { name in
            Creator(
                name: name,
                url: (nonEmpty(photo.pathAlias) ?? owner).map { "https://www.flickr.com/photos/\(path($0))/" })
        }
        // The community guidelines ask for a link back to the photo page, never to the image file.
        let pageURL =
            owner.map { "https://www.flickr.com/photos/\(path($0))/\(path(photo.id))" }
            ?? nonEmpty(photo.photoPage) ?? "https://www.flickr.com/photo.gne?id=\(path(photo.id))"
        var sizes = photo.sizes.map {
            ImageSize(
                name: $0.name, url: $0.url, width: ServiceNumbers.side($0.width), height: ServiceNumbers.side($0.height)
            )
        }
        if sizes.isEmpty { sizes = builtSizes(photo) }

        var metadata: [MetadataEntry] = []
        metadata.add("Description", photo.description.map(PlainText.fromHTML))
        metadata.add("Date taken", dateTaken(photo))
        metadata.add("Date uploaded", photo.dateUpload.flatMap(isoDate))
        metadata.add("Views", photo.views)
        metadata.add(
            "Original size",
            Format.dimensions(ServiceNumbers.side(photo.originalWidth), ServiceNumbers.side(photo.originalHeight)))
        metadata.add("Original format", photo.originalFormat)
        metadata.add("Licence ID", photo.license)
        metadata.add("Media", photo.media)
        metadata.add("Owner ID", owner)
        metadata.add("Real name", photo.realName)
        metadata.add("Path alias", photo.pathAlias)
        metadata.add("Tags", tags.isEmpty ? nil : tags.joined(separator: ", "))

        var item = Item(
            id: ItemID(source: .flickr, nativeID: photo.id), kind: .image, title: title.isEmpty ? "Untitled" : title,
            tags: tags, creator: creator, license: Licenses.flickr(id: photo.license), pageURL: pageURL, sizes: sizes,
            metadata: metadata)
        ImagePicker.assign(&item)
        return item
    }

    /// getInfo names no image URLs: they are built from server, id and secret (misc.urls). Their pixel
    /// sizes are unknown. `b` is the 1024 px size the `url_l` extra names; the 500 px one has no suffix.
    static func builtSizes(_ photo: FlickrWire.Photo) -> [ImageSize] {
        guard let server = nonEmpty(photo.server), let secret = nonEmpty(photo.secret) else { return [] }
        return [("url_q", "q"), ("url_n", "n"), ("url_z", "z"), ("url_l", "b")].map { name, suffix in
            let file = "\(path(photo.id))_\(path(secret))_\(suffix).jpg"
            return ImageSize(name: name, url: "https://live.staticflickr.com/\(path(server))/\(file)")
        }
    }

    /// Flickr's `datetaken` as precise as the owner said: granularity 4 is a month, 6 a year, 8 "circa"
    /// a year. `datetakenunknown` means Flickr filled in the upload time, so there is nothing to show.
    static func dateTaken(_ photo: FlickrWire.Photo) -> String? {
        guard let taken = nonEmpty(photo.dateTaken), photo.dateTakenUnknown != 1 else { return nil }
        switch photo.dateTakenGranularity {
        case 4: return String(taken.prefix(7))
        case 6: return String(taken.prefix(4))
        case 8: return "circa " + taken.prefix(4)
        default: return taken
        }
    }

    /// Unix seconds as an ISO 8601 time in UTC: `1209388984` → `2008-04-28T13:23:04Z`.
    static func isoDate(_ unixSeconds: String) -> String? {
        guard let seconds = Int(unixSeconds.trimmingWhitespace),
            (1...ServiceNumbers.latestUnixSeconds).contains(seconds)
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingWhitespace, !text.isEmpty else { return nil }
        return text
    }

    /// Values from the answer go into URL paths escaped, so an odd owner id cannot change the URL's shape.
    private static func path(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: pathAllowed) ?? text
    }

    private static let pathAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#;"))
}
