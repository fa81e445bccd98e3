/// The answer to a search: sections in display order.
public struct SearchResponse: Sendable, Hashable, Codable {
    public var query: String
    public var scope: String
    public var page: Int
    public var sections: [SectionResult]
    /// The copies of one picture among the sections' items (groups of two or more), by identity and the
    /// thumbnails' hashes known when the answer was made (docs/duplicates.md); `nil`
    /// when not computed.
    public var groups: [Group]?

    public init(query: String, scope: String, page: Int, sections: [SectionResult], groups: [Group]? = nil) {
        self.query = query
        self.scope = scope
        self.page = page
        self.sections = sections
        self.groups = groups
    }

    /// One picture's copies, as the API writes them (`/api/search`'s `groups`, the stream's `groups` event).
    public struct Group: Sendable, Hashable, Codable {
        /// The copies' ids, the representative first, then in the page's order.
        public var items: [ItemID]
        /// The copy to show: the one whose licence allows the most.
        public var representative: ItemID

        public init(items: [ItemID], representative: ItemID) {
            self.items = items
            self.representative = representative
        }

        public init(_ group: PictureGroup) {
            self.init(items: group.members, representative: group.representative)
        }
    }

    /// True when at least one section answered (with or without items).
    public var anySectionAnswered: Bool { sections.contains { $0.error == nil } }
}

/// One section of a search: a page of items, or the error that kept its source from answering.
public struct SectionResult: Sendable, Hashable, Codable {
    public var id: SectionID
    public var title: String
    public var items: [Item]
    /// How many results the source says it has, when it says.
    public var total: Int?
    public var hasMore: Bool
    public var error: ErrorInfo?
    /// In a filtered search, which filters the source, Tessera, or neither applied.
    public var filters: FilterReport?
    /// Time spent waiting on the service's answers (not sent to clients; see `SourceTiming`).
    public var sourceTime: Duration?

    public init(id: SectionID, items: [Item], total: Int?, hasMore: Bool, error: ErrorInfo? = nil) {
        self.id = id
        self.title = id.title
        self.items = items
        self.total = total
        self.hasMore = hasMore
        self.error = error
    }

    public static func failed(_ id: SectionID, _ error: SourceError) -> SectionResult {
        SectionResult(id: id, items: [], total: nil, hasMore: false, error: ErrorInfo(error))
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, items, total, hasMore, error, filters
    }

    // `total` is written as `null` when unknown, as the API documents; `error` only when present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(SectionID.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        items = try container.decode([Item].self, forKey: .items)
        total = try container.decodeIfPresent(Int.self, forKey: .total)
        hasMore = try container.decode(Bool.self, forKey: .hasMore)
        error = try container.decodeIfPresent(ErrorInfo.self, forKey: .error)
        filters = try container.decodeIfPresent(FilterReport.self, forKey: .filters)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(items, forKey: .items)
        try container.encode(total, forKey: .total)
        try container.encode(hasMore, forKey: .hasMore)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(filters, forKey: .filters)
    }
}

extension SectionResult {
    /// The same section with every item's images pointing at our proxy.
    public func linkingImages(with linker: any ImageLinking) -> SectionResult {
        var copy = self
        copy.items = items.map { $0.linkingImages(with: linker) }
        return copy
    }
}

extension SearchResponse {
    /// The same answer with every item's images pointing at our proxy.
    public func linkingImages(with linker: any ImageLinking) -> SearchResponse {
        var copy = self
        copy.sections = sections.map { $0.linkingImages(with: linker) }
        return copy
    }
}
