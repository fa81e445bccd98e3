/// One page of photos that match a search, best first.
public struct LibraryPage: Sendable, Hashable {
    public var photos: [LibraryPhoto]
    /// Every match, on all pages.
    public var total: Int
    public var hasMore: Bool

    public init(photos: [LibraryPhoto], total: Int, hasMore: Bool) {
        self.photos = photos
        self.total = total
        self.hasMore = hasMore
    }

    public static let empty = LibraryPage(photos: [], total: 0, hasMore: false)
}

extension LibraryPage {
    /// How many of the newest matches a broad search ranks by relevance, on either engine; the older ones
    /// follow, newest first. Ranking every match of a word in a big library would cost more than it is worth.
    public static let rankedWindow = 1_000
}
