/// The iTunes Search API's JSON (`/search` and `/lookup`), read as tolerantly as real answers need.
///
/// Apple documents only some fields, and which ones a record carries depends on its kind: collections
/// and artists carry `collectionType`/`artistType` instead of `kind`, `kind` itself has been seen as
/// `null`, software sends `fileSizeBytes` as a string while ebooks send a number. So every field is
/// optional and read leniently: a field of an unexpected type is dropped, not the record. A record that
/// is not an object at all is skipped by `Skippable`, and unknown keys are ignored.
enum ITunesWire {
    /// `{"resultCount": n, "results": [...]}`; a 400 (and, defensively, any answer) may carry
    /// `errorMessage` and `queryParameters` instead.
    struct Envelope: Decodable {
        let resultCount: Int?
        let results: [Skippable<Record>]?
        let errorMessage: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            resultCount = container.itunesInt(Key("resultCount"))
            results = try container.decodeIfPresent([Skippable<Record>].self, forKey: Key("results"))
            errorMessage = container.itunesString(Key("errorMessage"))
        }
    }

    /// One track, collection or software record. Field names are Apple's.
    struct Record: Decodable {
        // Identity and kind.
        let wrapperType: String?
        let kind: String?
        let collectionType: String?
        let artistType: String?
        let trackId: Int?
        let collectionId: Int?
        let artistId: Int?
        let collectionArtistId: Int?
        // Names.
        let trackName: String?
        let collectionName: String?
        let artistName: String?
        let collectionArtistName: String?
        let trackCensoredName: String?
        let collectionCensoredName: String?
        let sellerName: String?
        // Links.
        let trackViewUrl: String?
        let collectionViewUrl: String?
        let artistViewUrl: String?
        let sellerUrl: String?
        let previewUrl: String?
        // Artwork.
        let artworkUrl30: String?
        let artworkUrl60: String?
        let artworkUrl100: String?
        let artworkUrl512: String?
        // Prices.
        let price: Double?
        let formattedPrice: String?
        let trackPrice: Double?
        let collectionPrice: Double?
        let trackRentalPrice: Double?
        let collectionHdPrice: Double?
        let trackHdPrice: Double?
        let trackHdRentalPrice: Double?
        let currency: String?
        // Dates, numbers and classification.
        let releaseDate: String?
        let currentVersionReleaseDate: String?
        let trackTimeMillis: Int?
        let trackNumber: Int?
        let trackCount: Int?
        let discNumber: Int?
        let discCount: Int?
        let primaryGenreName: String?
        let genres: [String]?
        let contentAdvisoryRating: String?
        let trackContentRating: String?
        let trackExplicitness: String?
        let collectionExplicitness: String?
        let country: String?
        let copyright: String?
        // Text.
        let longDescription: String?
        let shortDescription: String?
        let description: String?
        let releaseNotes: String?
        // Software and books.
        let fileSizeBytes: Int?
        let version: String?
        let minimumOsVersion: String?
        let bundleId: String?
        let averageUserRating: Double?
        let userRatingCount: Int?
        let averageUserRatingForCurrentVersion: Double?
        let userRatingCountForCurrentVersion: Int?
        let languageCodesISO2A: [String]?
        let advisories: [String]?
        let features: [String]?
        let screenshotUrls: [String]?
        let ipadScreenshotUrls: [String]?
        // Flags.
        let hasITunesExtras: Bool?
        let isStreamable: Bool?
        let isGameCenterEnabled: Bool?

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            wrapperType = c.itunesString(Key("wrapperType"))
            kind = c.itunesString(Key("kind"))
            collectionType = c.itunesString(Key("collectionType"))
            artistType = c.itunesString(Key("artistType"))
            trackId = c.itunesInt(Key("trackId"))
            collectionId = c.itunesInt(Key("collectionId"))
            artistId = c.itunesInt(Key("artistId"))
            collectionArtistId = c.itunesInt(Key("collectionArtistId"))
            trackName = c.itunesString(Key("trackName"))
            collectionName = c.itunesString(Key("collectionName"))
            artistName = c.itunesString(Key("artistName"))
            collectionArtistName = c.itunesString(Key("collectionArtistName"))
            trackCensoredName = c.itunesString(Key("trackCensoredName"))
            collectionCensoredName = c.itunesString(Key("collectionCensoredName"))
            sellerName = c.itunesString(Key("sellerName"))
            trackViewUrl = c.itunesString(Key("trackViewUrl"))
            collectionViewUrl = c.itunesString(Key("collectionViewUrl"))
            artistViewUrl = c.itunesString(Key("artistViewUrl"))
            sellerUrl = c.itunesString(Key("sellerUrl"))
            previewUrl = c.itunesString(Key("previewUrl"))
            artworkUrl30 = c.itunesString(Key("artworkUrl30"))
            artworkUrl60 = c.itunesString(Key("artworkUrl60"))
            artworkUrl100 = c.itunesString(Key("artworkUrl100"))
            artworkUrl512 = c.itunesString(Key("artworkUrl512"))
            price = c.itunesDouble(Key("price"))
            formattedPrice = c.itunesString(Key("formattedPrice"))
            trackPrice = c.itunesDouble(Key("trackPrice"))
            collectionPrice = c.itunesDouble(Key("collectionPrice"))
            trackRentalPrice = c.itunesDouble(Key("trackRentalPrice"))
            collectionHdPrice = c.itunesDouble(Key("collectionHdPrice"))
            trackHdPrice = c.itunesDouble(Key("trackHdPrice"))
            trackHdRentalPrice = c.itunesDouble(Key("trackHdRentalPrice"))
            currency = c.itunesString(Key("currency"))
            releaseDate = c.itunesString(Key("releaseDate"))
            currentVersionReleaseDate = c.itunesString(Key("currentVersionReleaseDate"))
            trackTimeMillis = c.itunesInt(Key("trackTimeMillis"))
            trackNumber = c.itunesInt(Key("trackNumber"))
            trackCount = c.itunesInt(Key("trackCount"))
            discNumber = c.itunesInt(Key("discNumber"))
            discCount = c.itunesInt(Key("discCount"))
            primaryGenreName = c.itunesString(Key("primaryGenreName"))
            genres = c.itunesStrings(Key("genres"))
            contentAdvisoryRating = c.itunesString(Key("contentAdvisoryRating"))
            trackContentRating = c.itunesString(Key("trackContentRating"))
            trackExplicitness = c.itunesString(Key("trackExplicitness"))
            collectionExplicitness = c.itunesString(Key("collectionExplicitness"))
            country = c.itunesString(Key("country"))
            copyright = c.itunesString(Key("copyright"))
            longDescription = c.itunesString(Key("longDescription"))
            shortDescription = c.itunesString(Key("shortDescription"))
            description = c.itunesString(Key("description"))
            releaseNotes = c.itunesString(Key("releaseNotes"))
            fileSizeBytes = c.itunesInt(Key("fileSizeBytes"))
            version = c.itunesString(Key("version"))
            minimumOsVersion = c.itunesString(Key("minimumOsVersion"))
            bundleId = c.itunesString(Key("bundleId"))
            averageUserRating = c.itunesDouble(Key("averageUserRating"))
            userRatingCount = c.itunesInt(Key("userRatingCount"))
            averageUserRatingForCurrentVersion = c.itunesDouble(Key("averageUserRatingForCurrentVersion"))
            userRatingCountForCurrentVersion = c.itunesInt(Key("userRatingCountForCurrentVersion"))
            languageCodesISO2A = c.itunesStrings(Key("languageCodesISO2A"))
            advisories = c.itunesStrings(Key("advisories"))
            features = c.itunesStrings(Key("features"))
            screenshotUrls = c.itunesStrings(Key("screenshotUrls"))
            ipadScreenshotUrls = c.itunesStrings(Key("ipadScreenshotUrls"))
            hasITunesExtras = c.itunesBool(Key("hasITunesExtras"))
            isStreamable = c.itunesBool(Key("isStreamable"))
            isGameCenterEnabled = c.itunesBool(Key("isGameCenterEnabled"))
        }
    }

    /// Any JSON key: the records are read field by field, so their key set stays open.
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A number sent as a number or a numeric string (prices and ratings have been seen both ways).
    struct Number: Decodable {
        let value: Double?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let double = try? container.decode(Double.self) {
                value = double.isFinite ? double : nil
            } else if let string = try? container.decode(String.self) {
                value = Double(string.trimmingWhitespace).flatMap { $0.isFinite ? $0 : nil }
            } else {
                value = nil
            }
        }
    }
}

extension KeyedDecodingContainer where Key == ITunesWire.Key {
    /// The field as text whatever its JSON type; `nil` when absent, `null` or not a scalar.
    fileprivate func itunesString(_ key: Key) -> String? {
        (try? decodeIfPresent(LenientString.self, forKey: key))?.value
    }

    fileprivate func itunesInt(_ key: Key) -> Int? {
        (try? decodeIfPresent(LenientInt.self, forKey: key))?.value
    }

    fileprivate func itunesDouble(_ key: Key) -> Double? {
        (try? decodeIfPresent(ITunesWire.Number.self, forKey: key))?.value
    }

    fileprivate func itunesBool(_ key: Key) -> Bool? {
        if let bool = try? decodeIfPresent(Bool.self, forKey: key) { return bool }
        switch itunesString(key)?.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: return nil
        }
    }

    /// A list of strings; a single string counts as a list of one, non-text elements are dropped.
    fileprivate func itunesStrings(_ key: Key) -> [String]? {
        if let list = try? decodeIfPresent([LenientString].self, forKey: key) { return list.compactMap(\.value) }
        return itunesString(key).map { [$0] }
    }
}
