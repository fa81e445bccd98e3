import Foundation
import TesseraCore

/// Wikimedia Commons files through the MediaWiki Action API: the search generator over the File
/// namespace, with `prop=imageinfo` for URLs, sizes and the licence fields of `extmetadata`.
public struct WikimediaClient: MediaSource {
    /// CirrusSearch answers nothing past this many results (`offset + limit`), so neither do we.
    static let searchWindow = 10_000
    /// Descriptions and licences are edited on the wiki; an hour keeps repeat searches off the API
    /// without showing stale attribution for long.
    static let cacheTTL: Duration = .seconds(60 * 60)
    /// Wide enough for the 400 px grid tile; `iiurlwidth` never scales up, so small files stay as they are.
    static let thumbWidth = 400
    /// Searched as searxng does: bitmaps and drawings only, leaving out audio, video and PDFs.
    static let fileTypes = "filetype:bitmap|drawing"
    static let imageProperties = "url|size|mime|extmetadata"

    public let id = SourceID.wikimedia
    public let sections: [SectionID] = [.wikimedia]
    public let kinds: [ItemKind] = [.image]
    let endpoint: Endpoint
    let http: SourceHTTP

    public init(endpoint: Endpoint, http: SourceHTTP) {
        self.endpoint = endpoint
        self.http = http
    }

    public var availability: SourceAvailability { .enabled }

    public func search(_ query: String, in section: SectionID, page: Int) async throws -> SourcePage {
        try await search(query, in: section, page: page, filters: .none)
    }

    public func search(
        _ query: String, in section: SectionID, page: Int, filters: SearchFilters
    ) async throws -> SourcePage {
        let pageSize = SearchRequest.pageSize
        let offset = (page - 1) * pageSize
        guard offset >= 0, offset + pageSize <= Self.searchWindow else {
            return .empty
        }
        let url = endpoint.url(query: [
            ("action", "query"), ("format", "json"), ("formatversion", "2"), ("generator", "search"),
            ("gsrsearch", "\(Self.keywords(filters)) \(query)"), ("gsrnamespace", "6"), ("gsrlimit", String(pageSize)),
            ("gsroffset", String(offset)), ("prop", "imageinfo"), ("iiprop", Self.imageProperties),
            ("iiurlwidth", String(Self.thumbWidth)),
        ])
        return try await http.get(url, source: id, ttl: Self.cacheTTL) { response throws(SourceError) in
            Self.page(try Self.answer(response), offset: offset)
        }
    }

    /// The generator says neither how many results there are nor, in formatversion 1, their order.
    static func page(_ wire: WikimediaWire.Response, offset: Int) -> SourcePage {
        let pages = (wire.query?.pages ?? []).sorted {
            ($0.index ?? .max, $0.pageid ?? 0) < ($1.index ?? .max, $1.pageid ?? 0)
        }
        let pageSize = SearchRequest.pageSize
        let more = wire.continue?.gsroffset?.value != nil && offset + 2 * pageSize <= searchWindow
        return SourcePage(items: pages.compactMap(item), total: nil, hasMore: more)
    }

    /// An item by page id (what search hands out) or, for links made by hand, by file name.
    public func item(nativeID: String) async throws -> Item {
        let selector: (String, String)
        if let pageID = Int(nativeID) {
            guard pageID > 0 else { throw SourceError.notFound(id, id: nativeID) }
            selector = ("pageids", String(pageID))
        } else {
            let name = nativeID.trimmingWhitespace
            guard !name.isEmpty, !name.contains("|") else { throw SourceError.notFound(id, id: nativeID) }
            selector = ("titles", name.lowercased().hasPrefix("file:") ? name : "File:\(name)")
        }
        let url = endpoint.url(query: [
            ("action", "query"), ("format", "json"), ("formatversion", "2"), selector, ("prop", "imageinfo"),
            ("iiprop", Self.imageProperties), ("iiurlwidth", String(Self.thumbWidth)),
        ])
        return try await http.get(url, source: id, ttl: Self.cacheTTL) { response throws(SourceError) in
            let wire = try Self.answer(response)
            guard let page = wire.query?.pages.first, let item = Self.item(page) else {
                throw .notFound(id, id: nativeID)
            }
            return item
        }
    }

    // MARK: - Errors

    /// MediaWiki reports its own errors with HTTP 200 and an `error` object; 429 and 5xx come from
    /// Wikimedia's front-end servers.
    static func answer(_ response: SourceHTTP.Response) throws(SourceError) -> WikimediaWire.Response {
        let id = SourceID.wikimedia
        if let common = response.commonFailure(id) { throw common }
        guard response.status == 200 else { throw .rejected(id, detail: "HTTP \(response.status)") }
        let wire = try response.decode(WikimediaWire.Response.self, source: id)
        if let error = wire.error { throw failure(error) }
        return wire
    }

    static func failure(_ error: WikimediaWire.APIError) -> SourceError {
        let id = SourceID.wikimedia
        let detail = error.info.map(PlainText.fromHTML) ?? error.code ?? "unknown error"
        switch error.code {
        case "ratelimited": return .rateLimited(id, retryAfter: nil)
        // Replication lag and read-only mode are the wiki's trouble, not our request's.
        case "maxlag", "readonly": return .serviceError(id, status: nil, detail: detail)
        default: return .rejected(id, detail: detail)
        }
    }
}

// MARK: - Mapping

extension WikimediaClient {
    /// `extmetadata` keys shown by the item's own properties (or as the first metadata rows).
    static let mappedKeys: Set = [
        "ObjectName", "Artist", "LicenseShortName", "LicenseUrl", "Categories", "ImageDescription", "Credit",
        "DateTimeOriginal", "UsageTerms", "AttributionRequired",
    ]

    /// `nil` for pages that are missing or carry no file.
    static func item(_ page: WikimediaWire.Page) -> Item? {
        guard !page.missing, !page.invalid, let pageID = page.pageid, let info = page.info else { return nil }
        let meta = info.extmetadata ?? WikimediaWire.ExtMetadata()
        func text(_ key: String) -> String? {
            meta[key].map(PlainText.fromHTML).flatMap { $0.isEmpty ? nil : $0 }
        }

        var sizes: [ImageSize] = []
        if let thumb = nonEmpty(info.thumburl) {
            sizes.append(
                ImageSize(
                    name: "thumb", url: thumb, width: ServiceNumbers.side(info.thumbwidth?.value),
                    height: ServiceNumbers.side(info.thumbheight?.value)))
        }
        if let original = nonEmpty(info.url) {
            if let rendition = rendition(info) {
                sizes.append(rendition)
            } else {
                sizes.append(
                    ImageSize(
                        name: "original", url: original, width: ServiceNumbers.side(info.width?.value),
                        height: ServiceNumbers.side(info.height?.value)))
            }
        }

        let creator = text("Artist").map { name in
            Creator(name: name, url: meta["Artist"].flatMap { firstLink(in: $0, page: info.descriptionurl) })
        }
        let license = Licenses.wikimedia(
            shortName: text("LicenseShortName"),
            url: text("LicenseUrl").flatMap { absolute($0, page: info.descriptionurl) },
            usageTerms: text("UsageTerms"), attributionRequired: text("AttributionRequired"))
        var item = Item(
            id: ItemID(source: .wikimedia, nativeID: String(pageID)), kind: .image,
            title: text("ObjectName") ?? title(fromPage: page.title) ?? "File \(pageID)",
            tags: Tags.normalize((meta["Categories"] ?? "").split(separator: "|")),
            creator: creator, license: license, pageURL: nonEmpty(info.descriptionurl), sizes: sizes,
            metadata: metadata(info, meta))
        ImagePicker.assign(&item)
        return item
    }

    /// Formats a browser shows and the image proxy accepts as they are.
    static let webFormats: Set = ["image/jpeg", "image/png", "image/gif", "image/webp"]
    /// The width asked of Commons' renderer for files that are not one of those: one of its standard
    /// thumbnail steps, so the rendition is usually already made.
    static let renditionWidth = 1280

    /// For an SVG, TIFF, XCF or similar file, the bitmap Commons renders of it (PNG or JPEG), found by
    /// changing the width in the thumbnail's URL (`…/400px-Name.svg.png` → `…/1280px-Name.svg.png`).
    /// Drawings scale to any width; bitmaps are never asked wider than they are. `nil` for web formats.
    static func rendition(_ info: WikimediaWire.ImageInfo) -> ImageSize? {
        guard let mime = info.mime, !webFormats.contains(mime), let thumb = nonEmpty(info.thumburl),
            let thumbWidth = ServiceNumbers.side(info.thumbwidth?.value),
            let marker = thumb.range(of: "/\(thumbWidth)px-", options: .backwards)
        else { return nil }
        let scalable = mime == "image/svg+xml"
        let width =
            scalable ? renditionWidth : min(renditionWidth, ServiceNumbers.side(info.width?.value) ?? thumbWidth)
        guard width > thumbWidth else { return nil }
        let url = thumb.replacingCharacters(in: marker, with: "/\(width)px-")
        // Both sides bounded, so the scaled height is a few million at most.
        let height = ServiceNumbers.side(info.thumbheight?.value).map {
            Int((Double($0) * Double(width) / Double(thumbWidth)).rounded())
        }
        return ImageSize(name: "rendition", url: url, width: width, height: height)
    }

    static func metadata(_ info: WikimediaWire.ImageInfo, _ meta: WikimediaWire.ExtMetadata) -> [MetadataEntry] {
        var metadata: [MetadataEntry] = []
        let text = { (key: String) in meta[key].map(PlainText.fromHTML) }
        metadata.add("Description", text("ImageDescription"))
        metadata.add("Credit", text("Credit"))
        metadata.add("Date", text("DateTimeOriginal"))
        metadata.add("Usage terms", text("UsageTerms"))
        metadata.add("Attribution required", text("AttributionRequired").map(yesNo))
        metadata.add("MIME type", info.mime)
        metadata.add("File size", ServiceNumbers.bytes(info.size?.value).map(Format.bytes))
        metadata.add(
            "Original size",
            Format.dimensions(ServiceNumbers.side(info.width?.value), ServiceNumbers.side(info.height?.value)))
        metadata.add("Short URL", info.descriptionshorturl)
        // Sorted by key: a JSON object's order is not something to rely on.
        for (key, entry) in meta.entries.sorted(by: { $0.key < $1.key })
        where !entry.hidden && !mappedKeys.contains(key) {
            metadata.add(label(key), entry.value.map(PlainText.fromHTML))
        }
        return metadata
    }

    /// `File:Tour_Eiffel.jpg` → `Tour Eiffel`.
    static func title(fromPage title: String?) -> String? {
        guard var name = title?.trimmingWhitespace, !name.isEmpty else { return nil }
        if let colon = name.firstIndex(of: ":"), name[..<colon].lowercased() == "file" {
            name = String(name[name.index(after: colon)...])
        }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let suffix = name[name.index(after: dot)...]
            if (1...5).contains(suffix.count), suffix.allSatisfy({ $0.isLetter || $0.isNumber }) {
                name = String(name[..<dot])
            }
        }
        let spaced = PlainText.collapsingWhitespace(name.replacingOccurrences(of: "_", with: " "))
        return spaced.isEmpty ? nil : spaced
    }

    /// The first `href` in `Artist`, made absolute: Commons writes user links as `//commons…` or `/wiki/…`.
    static func firstLink(in html: String, page: String?) -> String? {
        guard let start = html.range(of: "href=", options: .caseInsensitive)?.upperBound,
            let quote = html[start...].first, quote == "\"" || quote == "'"
        else { return nil }
        let valueStart = html.index(after: start)
        guard let end = html[valueStart...].firstIndex(of: quote) else { return nil }
        // Entities such as `&amp;` in the attribute stand for the characters of the URL.
        return absolute(PlainText.fromHTML(String(html[valueStart..<end])), page: page)
    }

    /// Where Commons' root-relative links point when the file page's own address is unknown: the wiki the
    /// default API belongs to.
    static let commonsOrigin: String = {
        let api = SourceSettings.defaultBases[.wikimedia]!
        return "\(api.scheme!)://\(api.host!)"
    }()

    static func absolute(_ link: String, page: String?) -> String? {
        let link = link.trimmingWhitespace
        if link.hasPrefix("//") { return "https:" + link }
        if link.hasPrefix("/") {
            let origin = page.flatMap(URL.init(string:)).flatMap { url in
                url.host.map { "\(url.scheme ?? "https")://\($0)" }
            }
            return (origin ?? commonsOrigin) + link
        }
        let scheme = link.prefix { $0 != ":" }.lowercased()
        return scheme == "http" || scheme == "https" ? link : nil
    }

    /// `DateTime` → `Date time`, `GPSLatitude` → `GPS latitude`.
    static func label(_ key: String) -> String {
        var words: [String] = []
        var current = ""
        let characters = Array(key)
        for (index, character) in characters.enumerated() {
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let previous = index > 0 ? characters[index - 1] : nil
            let startsWord =
                character.isUppercase
                && (previous?.isLowercase == true || (previous?.isUppercase == true && next?.isLowercase == true))
            if startsWord, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words.enumerated().map { index, word in
            index == 0 || word.allSatisfy(\.isUppercase) ? word : word.lowercased()
        }.joined(separator: " ")
    }

    static func yesNo(_ text: String) -> String {
        switch text.lowercased() {
        case "true": "yes"
        case "false": "no"
        default: text
        }
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingWhitespace, !text.isEmpty else { return nil }
        return text
    }
}
