/// A service Tessera can search. Each client (Pixabay, Flickr, ...) is one of these.
///
/// Implementations throw `SourceError` for every failure; anything else is treated as a bad response.
public protocol MediaSource: Sendable {
    var id: SourceID { get }
    /// The sections this source fills. Most fill one; iTunes fills four, one request each.
    var sections: [SectionID] { get }
    /// The kinds of item it returns.
    var kinds: [ItemKind] { get }
    /// Whether it can be asked at all, and if not, why.
    var availability: SourceAvailability { get }

    /// One page of `SearchRequest.pageSize` results for `query` in `section`.
    func search(_ query: String, in section: SectionID, page: Int) async throws -> SourcePage
    /// The same, asking the service to apply the filters it can (those `nativeFilters` names).
    func search(_ query: String, in section: SectionID, page: Int, filters: SearchFilters) async throws -> SourcePage
    /// Which of `filters` the service applies itself in `section` (docs/filters.md); by default none.
    func nativeFilters(_ filters: SearchFilters, in section: SectionID) -> Set<SearchFilters.Name>
    /// One item by its native id.
    func item(nativeID: String) async throws -> Item
}

extension MediaSource {
    public func search(
        _ query: String, in section: SectionID, page: Int, filters: SearchFilters
    ) async throws -> SourcePage {
        try await search(query, in: section, page: page)
    }

    public func nativeFilters(_ filters: SearchFilters, in section: SectionID) -> Set<SearchFilters.Name> { [] }
}

public enum SourceAvailability: Sendable, Hashable {
    case enabled
    /// Switched off, with a reason a user can act on ("set PIXABAY_API_KEY to enable").
    case disabled(reason: String)

    public var isEnabled: Bool { self == .enabled }
}

/// One page as a source answered it.
public struct SourcePage: Sendable, Hashable {
    public var items: [Item]
    public var total: Int?
    public var hasMore: Bool

    public init(items: [Item], total: Int?, hasMore: Bool) {
        self.items = items
        self.total = total
        self.hasMore = hasMore
    }

    /// No items and no total: a page past what the service pages through, or its "nothing here" answer.
    public static let empty = SourcePage(items: [], total: nil, hasMore: false)
}

/// How `/api/sources` describes a source.
public struct SourceDescriptor: Sendable, Hashable, Codable {
    public var id: SourceID
    public var title: String
    public var kinds: [ItemKind]
    public var sections: [SectionID]
    public var enabled: Bool
    public var reason: String?

    public init(_ source: any MediaSource) {
        id = source.id
        title = source.id.title
        kinds = source.kinds
        sections = source.sections
        switch source.availability {
        case .enabled:
            enabled = true
            reason = nil
        case .disabled(let why):
            enabled = false
            reason = why
        }
    }
}
