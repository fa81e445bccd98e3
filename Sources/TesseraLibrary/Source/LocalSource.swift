import TesseraCore

/// The `local` source: the user's own photo folders, searched through the full-text index (SQLite or PostgreSQL).
///
/// Only photos under the configured folders are found, even when the index also holds other folders.
public struct LocalSource: MediaSource {
    public static let disabledReason = "start with --library DIR or set TESSERA_LIBRARY"

    public let id = SourceID.local
    public let sections = [SectionID.local]
    public let kinds = [ItemKind.image]
    public let availability: SourceAvailability
    /// The configured folders as real paths (a folder that does not exist is kept as given: it finds nothing).
    public let roots: [String]
    private let store: any LibraryStoring

    /// - Parameter roots: library folders as configured (`--library`, `TESSERA_LIBRARY`); any path form.
    public init(store: any LibraryStoring, roots: [String]) {
        self.store = store
        var seen = Set<String>()
        self.roots = roots.map { FileSystem.realPath($0) ?? $0 }.filter { seen.insert($0).inserted }
        availability = roots.isEmpty ? .disabled(reason: Self.disabledReason) : .enabled
    }

    public func search(_ query: String, in section: SectionID, page: Int) async throws -> SourcePage {
        try await search(query, in: section, page: page, filters: .none)
    }

    /// Every filter is applied by the index itself, in SQL (`LibraryFilter`): pages and totals count only the
    /// photos that pass.
    public func nativeFilters(_ filters: SearchFilters, in section: SectionID) -> Set<SearchFilters.Name> {
        Set(filters.names)
    }

    public func search(
        _ query: String, in section: SectionID, page: Int, filters: SearchFilters
    ) async throws -> SourcePage {
        guard availability.isEnabled else { throw SourceError.disabled(.local, reason: Self.disabledReason) }
        let result: LibraryPage
        do {
            result = try await store.search(
                SearchQuery(query), roots: roots, filters: filters, page: page, pageSize: SearchRequest.pageSize)
        } catch {
            throw SourceError.serviceError(.local, status: nil, detail: error.message)
        }
        return SourcePage(items: result.photos.map(\.item), total: result.total, hasMore: result.hasMore)
    }

    public func item(nativeID: String) async throws -> Item {
        let photo: LibraryPhoto?
        do {
            photo = try await store.photo(id: nativeID)
        } catch {
            throw SourceError.serviceError(.local, status: nil, detail: error.message)
        }
        guard let photo, roots.contains(photo.root) else { throw SourceError.notFound(.local, id: nativeID) }
        return photo.item
    }
}
