import TesseraCore

/// What the indexer and the `local` source need of the photo index, whatever holds it: SQLite FTS5 in the data
/// folder (`SQLiteLibraryStore`) or PostgreSQL full-text search shared by several servers (`PostgresLibraryStore`).
///
/// Both engines answer a search alike: every word of the query is a prefix, all words must match, case and
/// diacritics do not matter, and matches are ranked title first, then keywords, tags and caption.
public protocol LibraryStoring: Sendable {
    /// Size and modification time of every photo indexed under `root`, by path.
    func stamps(root: String) async throws(LibraryError) -> [String: FileStamp]

    /// Adds or replaces `photos` (matched by root and path) and forgets the photos at `paths` under `root`, in
    /// one transaction; returns how many of `paths` were indexed.
    @discardableResult
    func update(root: String, saving photos: [LibraryPhoto], removing paths: [String]) async throws(LibraryError)
        -> Int

    /// The photo with stable id `id`, if indexed.
    func photo(id: String) async throws(LibraryError) -> LibraryPhoto?

    /// The photo at `path` under `root`, if indexed.
    func photo(root: String, path: String) async throws(LibraryError) -> LibraryPhoto?

    /// How many photos are indexed, under `root` or in all.
    func count(root: String?) async throws(LibraryError) -> Int

    /// Every library folder with at least one photo indexed.
    func roots() async throws(LibraryError) -> [String]

    /// Photos matching every word of `query` as a prefix and every filter, best first, `pageSize` a page, with
    /// the exact total. Both engines apply the filters in SQL by the same rules (`LibraryFilter`).
    ///
    /// - Parameter roots: only photos under these library folders (real paths); `nil` for every indexed one.
    func search(
        _ query: SearchQuery, roots: [String]?, filters: SearchFilters, page: Int, pageSize: Int
    ) async throws(LibraryError) -> LibraryPage

    /// Paths under `root` of the photos indexed before palettes were (no colours stored): the indexer reads
    /// those files again, so an index made by an older Tessera gets its palettes on the next run.
    func pathsWithoutPalette(root: String) async throws(LibraryError) -> Set<String>

    /// Runs `body` if no other server indexes this index now, holding that turn until `body` returns; `nil`
    /// without running it when another one does. An index of one server's own (SQLite) always runs it.
    func whileIndexing<T: Sendable>(_ body: @escaping @Sendable () async -> T) async throws(LibraryError) -> T?
}

extension LibraryStoring {
    /// Adds or replaces `photos` (matched by root and path), in one transaction.
    public func save(_ photos: [LibraryPhoto]) async throws(LibraryError) {
        guard let root = photos.first?.root else { return }
        try await update(root: root, saving: photos, removing: [])
    }

    /// Forgets the photos at `paths` under `root`; returns how many there were.
    @discardableResult
    public func remove(paths: [String], root: String) async throws(LibraryError) -> Int {
        try await update(root: root, saving: [], removing: paths)
    }

    /// The search without filters.
    public func search(_ query: SearchQuery, roots: [String]?, page: Int, pageSize: Int) async throws(LibraryError)
        -> LibraryPage
    {
        try await search(query, roots: roots, filters: .none, page: page, pageSize: pageSize)
    }

    /// How many photos are indexed in all.
    public func count() async throws(LibraryError) -> Int {
        try await count(root: nil)
    }
}
