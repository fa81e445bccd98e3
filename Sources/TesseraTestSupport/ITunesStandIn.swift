import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The iTunes Search API (`/itunes/search`, `/itunes/lookup`) with Apple's quirks: answers that start
/// with blank lines and come as `text/javascript`, `errorMessage` bodies for bad parameters, throttling
/// as 403 with an empty body, and `limit` clamped to 200.
public struct ITunesStandIn: StandInProvider {
    public let state = StandInState()
    /// The preview host's answer (`/itunes/preview/...`): a playable WAV unless a test says otherwise.
    public let previews = StandInPreviews()

    public init() {}

    public func environment(origin: String) -> [String: String] {
        ["TESSERA_ITUNES_URL": "\(origin)/itunes/"]
    }

    public func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/itunes/search") { request, _ in await self.search(request) }
        router.get("/itunes/lookup") { request, _ in await self.lookup(request) }
        // Apple's preview hosts (audio-ssl/video-ssl.itunes.apple.com) stand in here; every request is recorded.
        router.get("/itunes/preview/**") { request, _ in self.preview(request) }
    }

    /// A song's or a film's preview: the stand-in WAV for both (a `<video>` plays a sound-only file too),
    /// with `Content-Length` and no ranges, as a plain host would. `/itunes/preview/page/…` is always an
    /// HTML page, and `/itunes/preview/disguised/…` an HTML page labelled `audio/x-m4a`, for negative tests.
    private func preview(_ request: Request) -> Response {
        _ = state.receive(request, searchTerm: nil)
        let path = request.uri.path
        if previews.answersNotMedia || path.hasPrefix("/itunes/preview/page/") {
            return StandInResponse.raw(
                String(decoding: StandInMedia.page, as: UTF8.self), status: .ok, contentType: "text/html")
        }
        if path.hasPrefix("/itunes/preview/disguised/") {
            return StandInResponse.raw(
                String(decoding: StandInMedia.page, as: UTF8.self), status: .ok, contentType: "audio/x-m4a")
        }
        return Response(
            status: .ok, headers: [.contentType: "audio/wav", .contentLength: String(StandInMedia.wav.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: StandInMedia.wav)))
    }

    /// Storefronts the stand-in knows, with the country code and currency records carry there.
    static let storefronts: [String: (country: String, currency: String)] = [
        "US": ("USA", "USD"), "GB": ("GBR", "GBP"), "DE": ("DEU", "EUR"), "FR": ("FRA", "EUR"),
        "JP": ("JPN", "JPY"), "CA": ("CAN", "CAD"), "AU": ("AUS", "AUD"), "IT": ("ITA", "EUR"),
        "ES": ("ESP", "EUR"), "NL": ("NLD", "EUR"), "SE": ("SWE", "SEK"), "BR": ("BRA", "BRL"),
    ]

    /// The entities Apple documents for each media type; the first one is the default.
    static let entities: [String: [String]] = [
        "movie": ["movie", "movieArtist"],
        "podcast": ["podcast", "podcastAuthor", "podcastEpisode"],
        "music": ["musicTrack", "musicArtist", "album", "musicVideo", "mix", "song"],
        "musicVideo": ["musicVideo", "musicArtist"],
        "audiobook": ["audiobook", "audiobookAuthor"],
        "shortFilm": ["shortFilm", "shortFilmArtist"],
        "tvShow": ["tvEpisode", "tvSeason"],
        "software": ["software", "iPadSoftware", "desktopSoftware"],
        "ebook": ["ebook"],
        "all": ["allTrack", "movie", "album", "allArtist", "podcast", "musicVideo", "mix", "audiobook", "tvSeason"],
    ]

    // MARK: - Routes

    private func search(_ request: Request) async -> Response {
        let query = request.queryValues
        return await StandInResponse.answer(request, state: state, term: query["term"]) { behavior in
            throttled(behavior)
        } normal: {
            searchAnswer(query, origin: request.standInOrigin)
        }
    }

    private func lookup(_ request: Request) async -> Response {
        let query = request.queryValues
        return await StandInResponse.answer(request, state: state, term: query["id"]) { behavior in
            throttled(behavior)
        } normal: {
            if let refusal = countryRefusal(query["country"]) { return refusal }
            guard let id = query["id"], let number = Int(id), let found = corpusRecord(number) else {
                return javascript(["resultCount": 0, "results": [Any]()])
            }
            let store = storefront(query["country"])
            let rendered = render(
                found.record, media: found.media, entity: found.entity, store: store, origin: request.standInOrigin)
            return javascript(["resultCount": 1, "results": [rendered]])
        }
    }

    /// iTunes throttles with 403 and an empty body. A `retryAfter` asks for the 429 some clients report,
    /// so both paths can be tested; an invalid key has no meaning here and gets the 403 too.
    private func throttled(_ behavior: StandInBehavior) -> Response {
        if case .rateLimited(let retryAfter?) = behavior {
            return StandInResponse.raw(
                "", status: .tooManyRequests, contentType: "text/plain",
                headers: StandInResponse.retryHeaders(retryAfter, state: state))
        }
        return StandInResponse.raw("", status: .forbidden, contentType: "text/html; charset=UTF-8")
    }

    private func searchAnswer(_ query: [String: String], origin: String) -> Response {
        guard let term = query["term"] else { return refusal("term") }
        if let refusal = countryRefusal(query["country"]) { return refusal }
        let media = query["media"] ?? "all"
        guard let entities = Self.entities[media] else { return refusal("mediaType", hints: true) }
        let entity = query["entity"] ?? entities[0]
        guard entities.contains(entity) else { return refusal("resultEntity", hints: true) }
        // Apple answers at most 200; a limit it cannot read falls back to the default of 50.
        let limit = min(200, max(1, Int(query["limit"] ?? "") ?? 50))
        let records = term.trimmingCharacters(in: .whitespaces).isEmpty ? [] : state.corpus.records(for: term)
        let store = storefront(query["country"])
        return javascript([
            "resultCount": min(limit, records.count),
            "results": records.prefix(limit).map {
                render($0, media: media, entity: entity, store: store, origin: origin)
            },
        ])
    }

    // MARK: - Answers

    /// Apple's success body: blank lines first, then the JSON, labelled as JavaScript.
    private func javascript(_ object: [String: Any]) -> Response {
        StandInResponse.raw(
            "\n\n\n" + StandInResponse.jsonText(object), status: .ok,
            contentType: "text/javascript; charset=utf-8")
    }

    /// `400 {"errorMessage": "Invalid value(s) for key(s): [country]"}`; media and entity errors also
    /// carry a `queryParameters` hint, as observed in clients' tests (its exact text is approximated).
    private func refusal(_ key: String, hints: Bool = false) -> Response {
        var body: [String: Any] = ["errorMessage": "Invalid value(s) for key(s): [\(key)]"]
        if hints {
            body["queryParameters"] = [
                "output": "json", "callback": "A javascript function to handle your search results",
                "country": "ISO-2A country code", "limit": "The number of search results to return",
                "term": "A search string", "lang": "ISO-2A language code",
                "media": "The media type you want to search for",
                "entity": "The type of results you want returned, relative to the specified media type",
            ]
        }
        return StandInResponse.json(body, status: .badRequest, contentType: "text/javascript; charset=utf-8")
    }

    private func countryRefusal(_ country: String?) -> Response? {
        guard let country, !country.isEmpty, Self.storefronts[country.uppercased()] == nil else { return nil }
        return refusal("country")
    }

    private func storefront(_ country: String?) -> (country: String, currency: String) {
        Self.storefronts[(country ?? "").uppercased()] ?? ("USA", "USD")
    }

    /// A record this stand-in handed out in an earlier search, with the media and entity it was asked as.
    private func corpusRecord(_ number: Int) -> (record: FakeRecord, media: String, entity: String)? {
        for request in state.requests where request.path.hasSuffix("/search") {
            guard let term = request["term"],
                let record = state.corpus.records(for: term).first(where: { $0.number == number })
            else { continue }
            let media = request["media"] ?? "all"
            return (record, media, request["entity"] ?? Self.entities[media]?.first ?? "allTrack")
        }
        return nil
    }

    // MARK: - Records, in the field sets Apple sends per media type

    func render(
        _ record: FakeRecord, media: String, entity: String, store: (country: String, currency: String),
        origin: String
    ) -> [String: Any] {
        let n = record.number
        let slug = Self.slug(record.title)
        let artistId = 200_000_000 + Int(FakeRecord.stableHash(record.creator) % 1_000_000)
        let artwork = "\(origin)/itunes/artwork/\(n)"
        var fields: [String: Any] = [
            "artistName": record.creator, "artistId": artistId, "currency": store.currency,
            "artworkUrl60": "\(artwork)/60x60bb.jpg", "artworkUrl100": "\(artwork)/100x100bb.jpg",
            "releaseDate": String(format: "%04d-%02d-%02dT07:00:00Z", 1970 + n % 55, 1 + n % 12, 1 + n % 28),
        ]
        let extraGenres = record.tags.map { $0.prefix(1).uppercased() + $0.dropFirst() }
        switch (media, entity) {
        case ("software", _):
            let genre = ["Productivity", "Games", "Photo & Video", "Utilities", "Education"][n % 5]
            let price = n % 3 == 0 ? 2.99 : 0.0
            fields.merge([
                "wrapperType": "software", "kind": "software", "trackId": n, "trackName": record.title,
                "trackCensoredName": record.title, "sellerName": "\(record.creator) Ltd",
                "sellerUrl": "https://\(Self.slug(record.creator)).example.com/",
                "artistViewUrl": "https://apps.apple.com/us/developer/\(Self.slug(record.creator))/id\(artistId)?uo=4",
                "trackViewUrl": "https://apps.apple.com/us/app/\(slug)/id\(n)?uo=4",
                "artworkUrl512": "\(artwork)/512x512bb.jpg",
                "primaryGenreName": genre, "primaryGenreId": 6000 + n % 30, "genres": [genre] + extraGenres,
                "genreIds": ["\(6000 + n % 30)", "6000"],
                // Apple sends this one number as a string.
                "fileSizeBytes": String(record.width * record.height * 40),
                "version": "\(1 + n % 5).\(n % 10).\(n % 3)", "minimumOsVersion": "15.0",
                "averageUserRating": 4.53571, "userRatingCount": 100 + n % 5000,
                "averageUserRatingForCurrentVersion": 4.5, "userRatingCountForCurrentVersion": 10 + n % 90,
                "price": price, "formattedPrice": price == 0 ? "Free" : "$2.99",
                "description": "\(record.title) helps you get things done.\n\nFeatures:\n• Fast\n• Private",
                "releaseNotes": "Bug fixes and performance improvements.", "languageCodesISO2A": ["EN", "DE"],
                "contentAdvisoryRating": "4+", "trackContentRating": "4+", "bundleId": "com.example.\(slug)",
                "currentVersionReleaseDate": "2025-03-01T08:00:00Z", "isGameCenterEnabled": false,
                "supportedDevices": ["iPhone15-iPhone15", "iPadAir5-iPadAir5"], "features": ["iosUniversal"],
                "advisories": [],
                "screenshotUrls": ["\(artwork)/392x696bb.jpg", "\(artwork)/shot2/392x696bb.jpg"],
                "ipadScreenshotUrls": ["\(artwork)/ipad/576x768bb.jpg"],
                "appletvScreenshotUrls": [], "isVppDeviceBasedLicensingEnabled": true,
            ]) { $1 }
        case ("ebook", _):
            let genre = ["Fiction & Literature", "Sci-Fi & Fantasy", "History", "Cookbooks, Food & Wine"][n % 4]
            fields.merge([
                "kind": "ebook", "trackId": n, "trackName": record.title, "trackCensoredName": record.title,
                "artistIds": [artistId],
                "artistViewUrl": "https://books.apple.com/us/artist/\(Self.slug(record.creator))/\(artistId)?uo=4",
                "trackViewUrl": "https://books.apple.com/us/book/\(slug)/id\(n)?uo=4",
                "genres": [genre, "Books"] + extraGenres, "genreIds": ["\(9000 + n % 40)", "38"],
                "price": 9.99, "formattedPrice": "$9.99", "fileSizeBytes": record.width * record.height / 2,
                "description": "<b>Bold</b> &amp; more: the story of <i>\(record.title)</i>.<br /><br />A classic.",
                "averageUserRating": 4.5, "userRatingCount": n % 700,
            ]) { $1 }
        case ("music", "album"):
            fields.merge([
                "wrapperType": "collection", "collectionType": "Album", "collectionId": n,
                "collectionName": record.title, "collectionCensoredName": record.title,
                "artistViewUrl": "https://music.apple.com/us/artist/\(Self.slug(record.creator))/\(artistId)?uo=4",
                "collectionViewUrl": "https://music.apple.com/us/album/\(slug)/\(n)?uo=4",
                "artworkUrl30": "\(artwork)/30x30bb.jpg", "collectionPrice": 9.99,
                "collectionExplicitness": "notExplicit", "trackCount": 12, "copyright": "℗ 2020 \(record.creator)",
                "country": store.country, "primaryGenreName": ["Pop", "Rock", "Jazz"][n % 3],
            ]) { $1 }
        case ("movie", _), ("shortFilm", _), ("tvShow", _), ("musicVideo", _):
            fields.merge([
                "wrapperType": "track", "kind": "feature-movie", "trackId": n, "trackName": record.title,
                "trackCensoredName": record.title,
                "trackViewUrl": "https://itunes.apple.com/us/movie/\(slug)/id\(n)?uo=4",
                "previewUrl": "\(origin)/itunes/preview/video/Video128/v4/\(n)/mzvf_\(n)",
                "artworkUrl30": "\(artwork)/30x30bb.jpg",
                "collectionPrice": 12.99, "trackPrice": 12.99, "trackRentalPrice": 3.99, "collectionHdPrice": 14.99,
                "trackHdPrice": 14.99, "trackHdRentalPrice": 3.99, "collectionExplicitness": "notExplicit",
                "trackExplicitness": "notExplicit", "trackTimeMillis": 5_400_000 + n % 3_600_000,
                "country": store.country, "primaryGenreName": ["Sci-Fi & Fantasy", "Drama", "Comedy"][n % 3],
                "contentAdvisoryRating": ["G", "PG", "PG-13", "R"][n % 4],
                "shortDescription": "A film about \(record.title).",
                "longDescription": "It is the 23rd century. \(record.title) follows \(record.creator).",
                "hasITunesExtras": n % 2 == 0,
            ]) { $1 }
        default:
            // Songs: the music default, and the stand-in's answer for the media types it does not model.
            let collectionId = 900_000_000 + n
            fields.merge([
                "wrapperType": "track", "kind": "song", "collectionId": collectionId, "trackId": n,
                "collectionName": "\(record.title) - Single", "trackName": record.title,
                "collectionCensoredName": "\(record.title) - Single", "trackCensoredName": record.title,
                "artistViewUrl": "https://music.apple.com/us/artist/\(Self.slug(record.creator))/\(artistId)?uo=4",
                "collectionViewUrl": "https://music.apple.com/us/album/\(slug)/\(collectionId)?uo=4",
                "trackViewUrl": "https://music.apple.com/us/album/\(slug)/\(collectionId)?i=\(n)&uo=4",
                "previewUrl": "\(origin)/itunes/preview/audio/AudioPreview/\(n)/mzaf_\(n).wav",
                "artworkUrl30": "\(artwork)/30x30bb.jpg", "collectionPrice": 1.29, "trackPrice": 1.29,
                "collectionExplicitness": "notExplicit", "trackExplicitness": "notExplicit", "discCount": 1,
                "discNumber": 1, "trackCount": 1, "trackNumber": 1, "trackTimeMillis": 180_000 + n % 120_000,
                "country": store.country, "primaryGenreName": ["Pop", "Rock", "Jazz"][n % 3], "isStreamable": true,
            ]) { $1 }
        }
        return fields
    }

    static func slug(_ text: String) -> String {
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }
        return words.isEmpty ? "item" : words.joined(separator: "-")
    }
}
