import Foundation

// The API's values as public Swift types. They are Codable with the API's own keys, so an app can keep
// them (and `tessera --server` re-reads them as the server's own types); converted from the generated
// `Components.Schemas` in Models+Generated.swift.

/// Where to search: every enabled source at once, or one section.
public enum Scope: String, Sendable, Hashable, Codable, CaseIterable {
    case all, local, pixabay, flickr, openverse, wikimedia, movies, music, apps, books
}

/// One section of a search, in display order.
public enum SectionID: String, Sendable, Hashable, Codable, CaseIterable {
    case local, pixabay, flickr, openverse, wikimedia, movies, music, apps, books
}

/// What an item is.
public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    case image, video, movie, song, album, app, book
}

/// An image through the server's signed proxy: `url` is a path on the server (`/img/...`); download its
/// bytes with `TesseraClient.image(_:)`, or resolve it against the server's URL with `url(relativeTo:)`.
public struct ImageLink: Sendable, Hashable, Codable {
    public var url: String
    public var width: Int?
    public var height: Int?

    public init(url: String, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }

    /// The absolute address, for an image view that loads URLs itself (add the token if the server wants one).
    public func url(relativeTo server: URL) -> URL? {
        URL(string: url, relativeTo: server)?.absoluteURL
    }
}

/// One rendition an item's source names (`sizes`), smallest first.
public struct NamedImage: Sendable, Hashable, Codable {
    public var name: String
    public var url: String
    public var width: Int?
    public var height: Int?

    public var link: ImageLink { ImageLink(url: url, width: width, height: height) }
}

/// A name with an optional address: an item's creator or license.
public struct Link: Sendable, Hashable, Codable {
    public var name: String
    public var url: String?
}

/// An item's licence: the source's name and link, a normalised id (`cc-by-4.0`, `cc0`, `unknown`...) and
/// what it allows (docs/licences.md). Items from older servers carry only `name` and `url`.
public struct License: Sendable, Hashable, Codable {
    public var id: String?
    public var name: String
    public var version: String?
    public var url: String?
    public var allowsCommercialUse: Bool?
    public var allowsModification: Bool?
    public var requiresCredit: Bool?
}

/// A label and a display value the source gave.
public struct MetadataEntry: Sendable, Hashable, Codable {
    public var label: String
    public var value: String
}

/// One search result, from whatever source.
public struct Item: Sendable, Hashable, Codable, Identifiable {
    /// `source:nativeID`, unique across sources.
    public var id: String
    /// The source's id: a searchable source, or `web` and `upload` for gallery imports.
    public var source: String
    public var kind: Kind
    public var title: String
    public var tags: [String]
    public var creator: Link?
    public var license: License?
    public var pageURL: String?
    public var thumbnail: ImageLink?
    public var preview: ImageLink?
    public var full: ImageLink?
    public var sizes: [NamedImage]
    public var metadata: [MetadataEntry]
    /// The service's short audio or video preview, played at this server's signed `/media/…` URL.
    public var mediaPreview: MediaPreview?
    /// What a store says of the item for sale: price, rating, description, screenshots.
    public var listing: StoreListing?
}

/// A preview clip: `url` is a signed `/media/…` path on the server, `kind` says `audio` or `video`.
public struct MediaPreview: Sendable, Hashable, Codable {
    public var url: String
    public var kind: String
}

/// A store's listing of an item; every field is optional.
public struct StoreListing: Sendable, Hashable, Codable {
    public var price: String?
    /// The users' average rating out of 5, and how many ratings it averages.
    public var rating: Double?
    public var ratingCount: Int?
    /// Plain text.
    public var description: String?
    /// Signed `/img/preview/…` URLs.
    public var screenshots: [ImageLink]?
}

/// A source's answer (or failure) within a search.
public struct Section: Sendable, Hashable, Codable, Identifiable {
    public var id: SectionID
    public var title: String
    public var items: [Item]
    /// What the source says it has, when it says.
    public var total: Int?
    public var hasMore: Bool
    /// Set when the source failed; `items` is then empty.
    public var error: ServerMessage?
    /// In a filtered search: which filters the source, the server, or neither applied (docs/filters.md).
    public var filters: FilterReport?
}

/// The filters one section's source applied (`native`), the server applied to its answer (`tessera`), and
/// neither could (`unsupported`): `license`, `orientation`, `size`, `color`, `type`.
public struct FilterReport: Sendable, Hashable, Codable {
    public var native: [String]
    public var tessera: [String]
    public var unsupported: [String]
}

/// What a search may be narrowed to; `nil` is any. The server refuses values it does not take (400).
public struct SearchFilter: Sendable, Hashable {
    /// `commercial`, `modification` and licence ids (`cc0`, `cc-by-sa-4.0`), comma-separated.
    public var license: String?
    public var orientation: String?
    public var size: String?
    public var color: String?
    public var type: String?

    public init(
        license: String? = nil, orientation: String? = nil, size: String? = nil, color: String? = nil,
        type: String? = nil
    ) {
        self.license = license
        self.orientation = orientation
        self.size = size
        self.color = color
        self.type = type
    }
}

/// The server's `{code, message}`: why a section's source failed.
public struct ServerMessage: Sendable, Hashable, Codable {
    public var code: String
    public var message: String
    /// Seconds until the source may be asked again, with `rate_limited` when the server knows.
    public var retryAfter: Int?
}

/// The answer to a search: its sections in display order.
public struct SearchResults: Sendable, Hashable, Codable {
    /// The query as searched (trimmed).
    public var query: String
    public var scope: Scope
    public var page: Int
    public var sections: [Section]
    /// The copies of one picture among the sections' items, from identity and the thumbnails' hashes the
    /// server knew when it answered (it does not wait for thumbnails; the stream's `groups` event does).
    public var groups: [SearchGroup]?
}

/// One picture's copies among a search's items.
public struct SearchGroup: Sendable, Hashable, Codable {
    /// The copies' item ids (`source:id`), the representative first, then in the page's order.
    public var items: [String]
    /// The copy to show: the one whose licence allows the most.
    public var representative: String
}

/// A source, whether it is enabled, and why not.
public struct SourceInfo: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var title: String
    public var kinds: [Kind]
    public var sections: [String]
    public var enabled: Bool
    /// Why it is disabled, e.g. "set PIXABAY_API_KEY to enable".
    public var reason: String?
}

/// A gallery id (`g_…`). Encoded as its string (RawRepresentable's own Codable).
public struct GalleryID: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

/// A gallery item's id (its place in one gallery, not the search result's id).
public struct GalleryItemID: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

/// A gallery. `revision` goes up with every change: pass it back (`revision:`) to change the gallery only
/// if nobody else did meanwhile.
public struct Gallery: Sendable, Hashable, Codable, Identifiable {
    public var id: GalleryID
    public var name: String
    public var itemCount: Int
    /// The first item's thumbnail; nil while empty.
    public var cover: ImageLink?
    public var createdAt: Date
    public var updatedAt: Date
    /// When it went to Recently deleted; nil otherwise.
    public var deletedAt: Date?
    public var revision: Int
    /// The items in the user's order: set by `gallery(_:)`, nil in lists.
    public var items: [GalleryItem]?
}

/// One image in a gallery: the item it was made from and the gallery's own copy of the image.
public struct GalleryItem: Sendable, Hashable, Codable, Identifiable {
    public var id: GalleryItemID
    public var item: Item
    /// Whether its licence does not allow sharing copies: an export leaves its file out unless the owner
    /// asks for a private copy, and a link shows it as a card.
    public var restricted: Bool
    /// Where the image came from; nil for uploads.
    public var sourceURL: String?
    /// Bytes of the stored copy.
    public var size: Int
    public var image: StoredImage
    public var addedAt: Date

    /// The stored copy's renditions.
    public struct StoredImage: Sendable, Hashable, Codable {
        public var thumbnail: ImageLink
        public var preview: ImageLink
        public var original: ImageLink
    }
}

/// An item just added, and the gallery's revision after it.
public struct AddedGalleryItem: Sendable, Hashable {
    public var item: GalleryItem
    public var revision: Int
}

/// The gallery's revision after a change, and for a move the item's index after it.
public struct GalleryRevision: Sendable, Hashable {
    public var revision: Int
    public var index: Int?
}

/// Image bytes as the server sent them.
public struct DownloadedImage: Sendable, Hashable {
    public var data: Data
    /// `image/jpeg`, `image/webp`, …
    public var contentType: String
}

extension JSONEncoder {
    /// The API's JSON: dates as ISO 8601 (what the server writes), for values an app stores or passes on.
    public static var tessera: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension JSONDecoder {
    /// Reads what `JSONEncoder.tessera` writes (and the API's own answers).
    public static var tessera: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
