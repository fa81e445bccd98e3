/// A short clip a service offers to play before buying (iTunes: 30 seconds of a song, a film's trailer).
///
/// Sources fill `url` with the service's address; the server replaces it with a signed `/media/...` URL
/// (`MediaLinking`), so the browser plays it through this server and never talks to the service.
public struct MediaPreview: Sendable, Hashable, Codable {
    /// Which element plays it.
    public enum Kind: String, Sendable, Hashable, Codable {
        case audio
        case video
    }

    public var url: String
    public var kind: Kind

    public init(url: String, kind: Kind) {
        self.url = url
        self.kind = kind
    }
}

/// What a store's listing says of an item for sale, for the detail view's kind-specific block: an app's
/// price, rating and screenshots, a book's description. Every field is optional: a store sends what the
/// kind has.
public struct StoreListing: Sendable, Hashable, Codable {
    /// As the store shows it ("Free", "$2.99").
    public var price: String?
    /// Average of the users' ratings, 0 to 5.
    public var rating: Double?
    /// How many ratings `rating` averages.
    public var ratingCount: Int?
    /// Plain text: markup removed and whitespace collapsed on the server.
    public var description: String?
    /// Screenshots, as image addresses (signed `/img/preview/...` URLs once linked).
    public var screenshots: [ImageRef]?

    public init(
        price: String? = nil, rating: Double? = nil, ratingCount: Int? = nil, description: String? = nil,
        screenshots: [ImageRef]? = nil
    ) {
        self.price = price
        self.rating = rating
        self.ratingCount = ratingCount
        self.description = description
        self.screenshots = screenshots
    }

    /// Whether there is nothing to show.
    public var isEmpty: Bool {
        price == nil && rating == nil && ratingCount == nil && description == nil && (screenshots ?? []).isEmpty
    }
}
