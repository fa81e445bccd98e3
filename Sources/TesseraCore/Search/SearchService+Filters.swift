/// Which of a search's filters a section's source applied, which Tessera applied to its answer, and which
/// neither could (docs/filters.md). Sent with each section of a filtered search.
public struct FilterReport: Sendable, Hashable, Codable {
    public var native: [SearchFilters.Name]
    public var tessera: [SearchFilters.Name]
    public var unsupported: [SearchFilters.Name]

    public init(native: [SearchFilters.Name], tessera: [SearchFilters.Name], unsupported: [SearchFilters.Name]) {
        self.native = native
        self.tessera = tessera
        self.unsupported = unsupported
    }

    /// Splits `filters` for `source`'s `section`: what the service does itself, what Tessera can check on
    /// the items (licence, orientation, size), and the rest.
    public init(_ filters: SearchFilters, source: any MediaSource, section: SectionID) {
        let native = source.nativeFilters(filters, in: section)
        let requested = filters.names
        self.native = requested.filter { native.contains($0) }
        let rest = requested.filter { !native.contains($0) }
        tessera = rest.filter(SearchFilters.checkable)
        unsupported = rest.filter { !SearchFilters.checkable($0) }
    }

    /// The section's error when a filter could not be honoured: no results rather than unfiltered ones.
    func unsupportedError(_ section: SectionID) -> ErrorInfo {
        let names = unsupported.map { $0 == .color ? "colour" : $0.rawValue }
        return ErrorInfo(
            code: "unsupported_filter",
            message: "\(section.title) cannot filter by \(names.joined(separator: " or ")); "
                + "leave \(names.count == 1 ? "that filter" : "those filters") out to see its results.")
    }
}

extension SearchService {
    /// Source pages read at most for one page of a search Tessera filters itself: page `p` reads the
    /// source's pages `(p-1)·3+1` onwards, stopping once half a page is found.
    public static let pagesPerFilteredPage = 3

    /// One page of `section` under `request.filters`: the source applies what it can; Tessera drops the items
    /// that fail the rest, reading further pages (bounded) so the page is not left nearly empty.
    func filteredPage(
        _ source: any MediaSource, _ request: SearchRequest, in section: SectionID, report: FilterReport
    ) async throws -> SourcePage {
        let filters = request.filters
        // Licence, orientation and size are checked on every item, the native ones too: a service's own
        // reading may differ from Tessera's written one (Openverse counts Sampling+ as commercial).
        let checked = filters.names.filter(SearchFilters.checkable)
        guard !report.tessera.isEmpty else {
            var page = try await source.search(request.query, in: section, page: request.page, filters: filters)
            // What the service applied, Tessera only corrects: an item it cannot judge stays.
            page.items.removeAll { item in checked.contains { filters.check($0, item) == false } }
            return page
        }
        let first = (request.page - 1) * Self.pagesPerFilteredPage + 1
        var items: [Item] = []
        var hasMore = false
        for page in first..<(first + Self.pagesPerFilteredPage) {
            let answer = try await source.search(request.query, in: section, page: page, filters: filters)
            items += answer.items.filter { item in checked.allSatisfy { filters.check($0, item) == true } }
            hasMore = answer.hasMore
            if !answer.hasMore || items.count >= SearchRequest.pageSize / 2 { break }
        }
        return SourcePage(items: items, total: nil, hasMore: hasMore)
    }
}
