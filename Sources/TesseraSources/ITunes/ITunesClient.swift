import Foundation
import TesseraCore

/// The iTunes Search API: movies, music, apps and books, one request per section (media type):
/// `GET {base}search?term=…&media=…&entity=…&country=US&lang=en_us&explicit=No&limit=…`, and
/// `GET {base}lookup?id=…&country=US` for one item. No key is needed.
///
/// The API has no paging: a page is the slice of a longer answer (`limit = page × 20`, at most 200).
public struct ITunesClient: MediaSource {
    /// The largest `limit` Apple accepts; past it there is nothing more to ask for.
    static let resultCap = 200
    /// One hour: Apple allows about 20 calls a minute and asks sites with much traffic to cache
    /// answers; an hour spares that budget while prices and charts stay reasonably fresh.
    static let cacheTTL: Duration = .seconds(60 * 60)
    /// The store's terms; previews must be credited as "provided courtesy of iTunes".
    static let license = Licenses.itunes

    public let id = SourceID.itunes
    public let sections: [SectionID] = [.movies, .music, .apps, .books]
    public let kinds: [ItemKind] = [.movie, .song, .album, .app, .book]
    public var availability: SourceAvailability { .enabled }
    let endpoint: Endpoint
    let http: SourceHTTP
    let country: String

    public init(endpoint: Endpoint, http: SourceHTTP, country: String = "US") {
        self.endpoint = endpoint
        self.http = http
        self.country = country
    }

    /// The `media` and `entity` each section asks for, and the kind its results are when a record
    /// does not say.
    static func target(_ section: SectionID) -> (media: String, entity: String, kind: ItemKind)? {
        switch section {
        case .movies: ("movie", "movie", .movie)
        case .music: ("music", "song", .song)
        case .apps: ("software", "software", .app)
        case .books: ("ebook", "ebook", .book)
        default: nil
        }
    }

    public func search(_ query: String, in section: SectionID, page: Int) async throws -> SourcePage {
        guard let target = Self.target(section) else {
            throw SourceError.rejected(id, detail: "iTunes does not fill the \(section.title) section.")
        }
        guard page >= 1 else { throw SourceError.rejected(id, detail: "page \(page) is not a page number.") }
        let pageSize = SearchRequest.pageSize
        let limit = page * pageSize
        guard limit <= Self.resultCap else { return .empty }
        let url = endpoint.url(
            "search",
            query: [
                ("term", query), ("media", target.media), ("entity", target.entity), ("country", country),
                ("lang", "en_us"), ("explicit", "No"), ("limit", String(limit)),
            ],
            spaceAsPlus: true)
        return try await http.get(url, source: id, ttl: Self.cacheTTL) { response throws(SourceError) in
            let (resultCount, results) = try read(response)
            // Slice before dropping unreadable records, so one odd record never shifts later pages.
            let start = (page - 1) * pageSize
            let slice = start < results.count ? results[start..<min(results.count, limit)] : []
            let items = slice.compactMap(\.value).compactMap { Self.item($0, fallback: target.kind) }
            let answered = ServiceNumbers.total(resultCount) ?? results.count
            return SourcePage(
                items: items, total: answered < limit ? answered : nil,
                hasMore: results.count >= limit && limit < Self.resultCap)
        }
    }

    public func item(nativeID: String) async throws -> Item {
        guard let number = Int(nativeID), number > 0 else { throw SourceError.notFound(id, id: nativeID) }
        let url = endpoint.url("lookup", query: [("id", String(number)), ("country", country)])
        return try await http.get(url, source: id, ttl: Self.cacheTTL) { response throws(SourceError) in
            let records = try read(response).results.decoded()
            // A lookup can answer more than the record asked for (an album with its tracks).
            let exact = records.first { $0.trackId == number || $0.collectionId == number }
            guard let item = (exact.map { [$0] } ?? records).lazy.compactMap({ Self.item($0, fallback: nil) }).first
            else { throw .notFound(id, id: nativeID) }
            return item
        }
    }

    // MARK: - Answers and errors

    /// The records of a 200 answer, or the failure the answer stands for.
    private func read(_ response: SourceHTTP.Response) throws(SourceError) -> (
        resultCount: Int?, results: [Skippable<ITunesWire.Record>]
    ) {
        if let failure = failure(response) { throw failure }
        var trimmed = response
        trimmed.body = Self.trimmingLeadingBlanks(response.body)
        let envelope = try trimmed.decode(ITunesWire.Envelope.self, source: id)
        guard let results = envelope.results else {
            if let message = envelope.errorMessage { throw .rejected(id, detail: message) }
            throw .badResponse(id, detail: "the answer has no results list")
        }
        return (envelope.resultCount, results)
    }

    /// iTunes throttles with 403 and an empty body (undocumented; reported by several clients), and
    /// rejects bad parameters with 400 `{"errorMessage": "Invalid value(s) for key(s): [country]"}`.
    private func failure(_ response: SourceHTTP.Response) -> SourceError? {
        if let common = response.commonFailure(id) { return common }
        switch response.status {
        case 200:
            return nil
        case 403:
            if let message = errorMessage(response) { return .rejected(id, detail: message) }
            return .rateLimited(id, retryAfter: response.retryAfterSeconds)
        case 400..<500:
            return .rejected(id, detail: errorMessage(response) ?? "HTTP \(response.status)")
        default:
            return .badResponse(id, detail: "unexpected HTTP \(response.status)")
        }
    }

    private func errorMessage(_ response: SourceHTTP.Response) -> String? {
        let body = Self.trimmingLeadingBlanks(response.body)
        guard let envelope = try? JSONDecoder().decode(ITunesWire.Envelope.self, from: body),
            let message = envelope.errorMessage?.trimmingWhitespace, !message.isEmpty
        else { return nil }
        return message
    }

    /// Answers have been reported to start with blank lines (and come as `text/javascript`); a
    /// byte-order mark is dropped too, so the JSON parses whatever preceded it.
    static func trimmingLeadingBlanks(_ body: Data) -> Data {
        var data = body
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        let start = data.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? data.endIndex
        return Data(data[start...])
    }

    // MARK: - Mapping

    /// The kind a record says it is; otherwise the kind of the section it was asked for.
    static func kind(of record: ITunesWire.Record, fallback: ItemKind?) -> ItemKind {
        switch record.kind?.lowercased() {
        case "feature-movie": return .movie
        case "song": return .song
        case "album": return .album
        case "software", "software-package", "mac-software": return .app
        case "ebook", "book": return .book
        default: break
        }
        let wrapper = record.wrapperType?.lowercased()
        if wrapper == "collection" || record.collectionType?.lowercased() == "album" { return .album }
        if wrapper == "software" { return .app }
        if let fallback { return fallback }
        // A lookup has no section to go by, so the fields decide; the records reported with
        // `kind: null` were videos.
        if record.bundleId != nil || record.sellerName != nil { return .app }
        if wrapper == "audiobook" { return .book }
        return wrapper == "track" && record.kind == nil ? .movie : .song
    }

    static func item(_ record: ITunesWire.Record, fallback: ItemKind?) -> Item? {
        let kind = kind(of: record, fallback: fallback)
        let isCollection = kind == .album || record.trackId == nil
        guard let number = isCollection ? record.collectionId ?? record.trackId : record.trackId ?? record.collectionId
        else { return nil }
        let names =
            isCollection ? [record.collectionName, record.trackName] : [record.trackName, record.collectionName]
        // iTunes titles are plain text ("Rock & Roll"), so only whitespace is tidied, nothing unescaped.
        let candidates = (names + [record.trackCensoredName, record.collectionCensoredName]).compactMap { $0 }
        let title = candidates.map(PlainText.collapsingWhitespace).first { !$0.isEmpty } ?? "iTunes item \(number)"
        let creator: Creator?
        if let artist = nonEmpty(record.artistName) {
            creator = Creator(name: artist, url: nonEmpty(record.artistViewUrl) ?? nonEmpty(record.sellerUrl))
        } else if let seller = nonEmpty(record.sellerName) {
            creator = Creator(name: seller, url: nonEmpty(record.sellerUrl) ?? nonEmpty(record.artistViewUrl))
        } else {
            creator = nil
        }
        let links = [record.trackViewUrl, record.collectionViewUrl]
        let pages = isCollection ? links.reversed() : links
        let sizes = artwork(record, square: [.song, .album, .app].contains(kind))
        return Item(
            id: ItemID(source: .itunes, nativeID: String(number)), kind: kind, title: title,
            tags: Tags.normalize([record.primaryGenreName].compactMap { $0 } + (record.genres ?? [])),
            creator: creator, license: license, pageURL: pages.lazy.compactMap(nonEmpty).first,
            thumbnail: (sizes.first { $0.name == "artwork600" } ?? sizes.last)?.ref,
            preview: (sizes.first { $0.name == "artwork1200" } ?? sizes.last)?.ref,
            full: (sizes.first { $0.name == "artwork1200" } ?? sizes.last)?.ref,
            sizes: sizes, metadata: metadata(record, kind: kind, title: title, isCollection: isCollection),
            mediaPreview: mediaPreview(record, kind: kind), listing: listing(record, isCollection: isCollection))
    }

    /// The price as the store shows it: a collection's own, else the track's.
    static func price(_ record: ITunesWire.Record, isCollection: Bool) -> String? {
        if isCollection { return money(record.collectionPrice, record.currency) ?? nonEmpty(record.formattedPrice) }
        return nonEmpty(record.formattedPrice) ?? money(record.trackPrice ?? record.price, record.currency)
    }

    /// The 30-second clip: video for films and music videos, else audio, unless the file's extension says
    /// otherwise. The server signs it for `/media` before it leaves (`Item.linkingImages`).
    static func mediaPreview(_ record: ITunesWire.Record, kind: ItemKind) -> MediaPreview? {
        guard let url = nonEmpty(record.previewUrl), url.lowercased().hasPrefix("http") else { return nil }
        let fileExtension = URL(string: url)?.pathExtension.lowercased() ?? ""
        let video =
            switch fileExtension {
            case "m4v", "mp4", "mov", "webm": true
            case "m4a", "mp3", "aac", "wav", "oga", "ogg", "flac": false
            default: kind == .movie || record.kind?.lowercased() == "music-video"
            }
        return MediaPreview(url: url, kind: video ? .video : .audio)
    }

    /// The listing's price, rating, description and screenshots (iPhone ones first, at most 10), or `nil`
    /// when the record has none of them.
    static func listing(_ record: ITunesWire.Record, isCollection: Bool) -> StoreListing? {
        let descriptions = [record.longDescription, record.description, record.shortDescription]
        let shots = ((record.screenshotUrls ?? []) + (record.ipadScreenshotUrls ?? [])).compactMap(nonEmpty)
        var seen = Set<String>()
        let screenshots = shots.filter { seen.insert($0).inserted }.prefix(10).map(screenshot)
        let listing = StoreListing(
            price: price(record, isCollection: isCollection),
            rating: record.averageUserRating.flatMap { (0...5).contains($0) ? $0 : nil },
            ratingCount: record.userRatingCount.flatMap { $0 >= 0 ? $0 : nil },
            description: descriptions.lazy.compactMap { $0.map(PlainText.fromHTML) }.first { !$0.isEmpty },
            screenshots: screenshots.isEmpty ? nil : Array(screenshots))
        return listing.isEmpty ? nil : listing
    }

    /// A screenshot's size from its mzstatic box (`…/392x696bb.jpg`), which for screenshots is the real one.
    static func screenshot(_ url: String) -> ImageRef {
        let name = url.split(separator: "/").last ?? ""
        let box = name.prefix { $0 != "b" && $0 != "." }.split(separator: "x")
        guard box.count == 2, let width = ServiceNumbers.side(Int(box[0])),
            let height = ServiceNumbers.side(Int(box[1]))
        else {
            return ImageRef(url: url)
        }
        return ImageRef(url: url, width: width, height: height)
    }

    /// The artwork renditions, smallest first. Pixel sizes are given only for square artwork (songs,
    /// albums, apps): a `100x100bb` URL names a bounding box, and movie posters and book covers
    /// are narrower than it.
    static func artwork(_ record: ITunesWire.Record, square: Bool) -> [ImageSize] {
        var sizes: [ImageSize] = []
        func add(_ name: String, _ url: String?, _ side: Int) {
            guard let url = nonEmpty(url), !sizes.contains(where: { $0.url == url }) else { return }
            sizes.append(ImageSize(name: name, url: url, width: square ? side : nil, height: square ? side : nil))
        }
        add("artworkUrl30", record.artworkUrl30, 30)
        add("artworkUrl60", record.artworkUrl60, 60)
        add("artworkUrl100", record.artworkUrl100, 100)
        add("artworkUrl512", record.artworkUrl512, 512)
        // Larger renditions by asking mzstatic for another box size (`100x100bb` → `600x600bb`): a
        // convention many public clients rely on, not something Apple documents.
        if let base = nonEmpty(record.artworkUrl100) {
            add("artwork600", rendition(base, side: 600), 600)
            add("artwork1200", rendition(base, side: 1200), 1200)
        }
        return sizes
    }

    /// `…/source/100x100bb.jpg` → `…/source/{side}x{side}bb.jpg`; `nil` for URLs not of that form.
    static func rendition(_ url: String, side: Int) -> String? {
        guard let slash = url.lastIndex(of: "/"), let range = url.range(of: "100x100bb", range: slash..<url.endIndex)
        else { return nil }
        return url.replacingCharacters(in: range, with: "\(side)x\(side)bb")
    }

    static func metadata(_ record: ITunesWire.Record, kind: ItemKind, title: String, isCollection: Bool)
        -> [MetadataEntry]
    {
        let currency = record.currency
        var metadata: [MetadataEntry] = []
        metadata.add("Price", price(record, isCollection: isCollection))
        if !isCollection {
            if record.collectionPrice != record.trackPrice {
                let label = kind == .song ? "Album price" : "Collection price"
                metadata.add(label, money(record.collectionPrice, currency))
            }
        }
        metadata.add("Rental price", money(record.trackRentalPrice, currency))
        metadata.add("HD price", money(record.trackHdPrice, currency))
        if record.collectionHdPrice != record.trackHdPrice {
            metadata.add("HD collection price", money(record.collectionHdPrice, currency))
        }
        metadata.add("HD rental price", money(record.trackHdRentalPrice, currency))
        metadata.add("Released", record.releaseDate.map(day))
        metadata.add("Current version released", record.currentVersionReleaseDate.map(day))
        // Rounded to the second first, as the store shows it (6793995 ms is 1:53:14, not 1:53:13).
        let seconds = ServiceNumbers.milliseconds(record.trackTimeMillis).map { ($0 + 500) / 1000 }
        metadata.add("Duration", seconds.map { Format.duration(milliseconds: $0 * 1000) })
        metadata.add("Genre", record.primaryGenreName)
        metadata.add("Genres", list(record.genres))
        metadata.add("Content rating", record.contentAdvisoryRating ?? record.trackContentRating)
        let explicit = isCollection ? record.collectionExplicitness : record.trackExplicitness
        metadata.add("Explicitness", explicit.map(explicitness))
        if !isCollection, let album = record.collectionName, album != title {
            metadata.add(kind == .song ? "Album" : "Collection", album)
        }
        metadata.add("Album artist", record.collectionArtistName)
        if isCollection {
            metadata.add("Tracks", record.trackCount)
        } else {
            metadata.add("Track", position(record.trackNumber, record.trackCount))
        }
        metadata.add("Disc", position(record.discNumber, record.discCount))
        metadata.add("Country", record.country)
        metadata.add("Copyright", record.copyright)
        let description = [record.longDescription, record.description, record.shortDescription]
            .compactMap { $0.map(PlainText.fromHTML) }.filter { !$0.isEmpty }
        metadata.add("Description", description.first)
        if let short = record.shortDescription.map(PlainText.fromHTML), short != description.first {
            metadata.add("Summary", short)
        }
        metadata.add("Release notes", record.releaseNotes.map(PlainText.fromHTML))
        metadata.add(
            "File size", ServiceNumbers.bytes(record.fileSizeBytes).flatMap { $0 > 0 ? Format.bytes($0) : nil })
        metadata.add("Version", record.version)
        metadata.add("Seller", record.sellerName)
        metadata.add("Seller website", record.sellerUrl)
        metadata.add("Minimum OS", record.minimumOsVersion)
        metadata.add("Bundle ID", record.bundleId)
        metadata.add("Average rating", record.averageUserRating.flatMap(rating))
        metadata.add("Ratings", record.userRatingCount)
        metadata.add("Current version rating", record.averageUserRatingForCurrentVersion.flatMap(rating))
        metadata.add("Current version ratings", record.userRatingCountForCurrentVersion)
        metadata.add("Languages", list(record.languageCodesISO2A))
        metadata.add("Advisories", list(record.advisories))
        metadata.add("Features", list(record.features))
        metadata.add("iTunes Extras", record.hasITunesExtras.map(yesNo))
        metadata.add("Streamable", record.isStreamable.map(yesNo))
        metadata.add("Game Center", record.isGameCenterEnabled.map(yesNo))
        if let censored = record.trackCensoredName ?? record.collectionCensoredName, censored != title {
            metadata.add("Censored title", censored)
        }
        metadata.add("Artist ID", record.artistId)
        if !isCollection { metadata.add("Collection ID", record.collectionId) }
        return metadata
    }

    // MARK: - Display strings

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingWhitespace, !text.isEmpty else { return nil }
        return text
    }

    /// `12.99, "USD"` → `"12.99 USD"`; 0 is "Free"; negative prices (not sold on their own) are left out.
    static func money(_ value: Double?, _ currency: String?) -> String? {
        guard let value = ServiceNumbers.price(value), value >= 0 else { return nil }
        guard value > 0 else { return "Free" }
        let amount = String(format: "%.2f", value)
        return nonEmpty(currency).map { "\(amount) \($0)" } ?? amount
    }

    /// `1982-06-04T07:00:00Z` → `1982-06-04`: the store's time of day is a time-zone artefact.
    private static func day(_ date: String) -> String {
        let prefix = date.prefix(10)
        let parts = prefix.split(separator: "-")
        guard prefix.count == 10, parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }) else { return date }
        return String(prefix)
    }

    /// `3.35106` → `"3.4"` (out of 5); `nil` for a rating outside 0–5.
    private static func rating(_ value: Double) -> String? {
        (0...5).contains(value) ? String(format: "%.1f", value) : nil
    }

    private static func explicitness(_ value: String) -> String {
        switch value {
        case "explicit": "Explicit"
        case "cleaned": "Cleaned"
        case "notExplicit": "Not explicit"
        default: value
        }
    }

    private static func position(_ number: Int?, _ count: Int?) -> String? {
        guard let number, number > 0 else { return nil }
        guard let count, count >= number else { return String(number) }
        return "\(number) of \(count)"
    }

    private static func list(_ values: [String]?) -> String? {
        let items = (values ?? []).map(\.trimmingWhitespace).filter { !$0.isEmpty }
        return items.isEmpty ? nil : items.joined(separator: ", ")
    }

    private static func yesNo(_ flag: Bool) -> String { flag ? "yes" : "no" }
}
