/// One search result, whatever service it came from. This is the API's `Item` (docs/openapi.yaml).
///
/// Sources fill image URLs with the service's own addresses; the server rewrites them to signed
/// `/img/...` URLs (see `ImageLinking`) before anything leaves the process.
public struct Item: Sendable, Hashable, Codable {
    public var id: ItemID
    public var source: SourceID
    public var kind: ItemKind
    public var title: String
    public var tags: [String]
    public var creator: Creator?
    public var license: License?
    public var pageURL: String?
    public var thumbnail: ImageRef?
    public var preview: ImageRef?
    public var full: ImageRef?
    /// Every rendition the service names, smallest first.
    public var sizes: [ImageSize]
    /// Every other field the service gave, in a stable order, as display strings.
    public var metadata: [MetadataEntry]
    /// The service's short audio or video preview (iTunes' 30-second clips); a signed `/media/...` URL
    /// once the server has linked it, and dropped when nothing could sign it.
    public var mediaPreview: MediaPreview?
    /// What a store says of the item for sale: price, rating, description, screenshots (iTunes).
    public var listing: StoreListing?

    public init(
        id: ItemID, kind: ItemKind, title: String, tags: [String] = [], creator: Creator? = nil,
        license: License? = nil, pageURL: String? = nil, thumbnail: ImageRef? = nil, preview: ImageRef? = nil,
        full: ImageRef? = nil, sizes: [ImageSize] = [], metadata: [MetadataEntry] = [],
        mediaPreview: MediaPreview? = nil, listing: StoreListing? = nil
    ) {
        self.id = id
        self.source = id.source
        self.kind = kind
        self.title = title
        self.tags = tags
        self.creator = creator
        self.license = license
        self.pageURL = pageURL
        self.thumbnail = thumbnail
        self.preview = preview
        self.full = full
        self.sizes = sizes
        self.metadata = metadata
        self.mediaPreview = mediaPreview
        self.listing = listing
    }
}

public struct Creator: Sendable, Hashable, Codable {
    public var name: String
    public var url: String?

    public init(name: String, url: String? = nil) {
        self.name = name
        self.url = url
    }
}

/// An image address with its pixel size where the service tells it.
public struct ImageRef: Sendable, Hashable, Codable {
    public var url: String
    public var width: Int?
    public var height: Int?

    public init(url: String, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }
}

/// A rendition the service names (`webformat`, `url_z`, `thumb`...).
public struct ImageSize: Sendable, Hashable, Codable {
    public var name: String
    public var url: String
    public var width: Int?
    public var height: Int?

    public init(name: String, url: String, width: Int? = nil, height: Int? = nil) {
        self.name = name
        self.url = url
        self.width = width
        self.height = height
    }

    public var ref: ImageRef { ImageRef(url: url, width: width, height: height) }
}

public struct MetadataEntry: Sendable, Hashable, Codable {
    public var label: String
    public var value: String

    public init(_ label: String, _ value: String) {
        self.label = label
        self.value = value
    }
}

extension Array where Element == MetadataEntry {
    /// Appends an entry when the value is present and not blank, so sources can list fields without `if let`s.
    public mutating func add(_ label: String, _ value: (any CustomStringConvertible)?) {
        guard let value else { return }
        let text = value.description.trimmingWhitespace
        if !text.isEmpty { append(MetadataEntry(label, text)) }
    }
}
