import GRDB

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

extension LibraryStore {
    /// Photos matching every word of `query` as a prefix, ranked by bm25 (title weighs most, then keywords,
    /// folder and file-name tags, caption), `pageSize` a page.
    ///
    /// - Parameter roots: only photos under these library folders (real paths); `nil` for every indexed one.
    public func search(
        _ query: SearchQuery, roots: [String]? = nil, page: Int = 1, pageSize: Int = 20
    ) async throws(LibraryError) -> LibraryPage {
        guard let match = query.matchExpression, page >= 1, pageSize >= 1 else { return .empty }
        if let roots, roots.isEmpty { return .empty }
        let offset = (page - 1) * pageSize
        return try await read { db in
            try Self.search(match, roots: roots, offset: offset, limit: pageSize, db)
        }
    }

    static func search(_ match: String, roots: [String]?, offset: Int, limit: Int, _ db: Database) throws
        -> LibraryPage
    {
        var arguments: StatementArguments = [match]
        var rootFilter = ""
        if let roots {
            rootFilter = "AND p.root IN (\(Array(repeating: "?", count: roots.count).joined(separator: ", ")))"
            arguments += StatementArguments(roots)
        }
        let total =
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT count(*) FROM libraryPhotoSearch s JOIN libraryPhoto p ON p.rowid = s.rowid
                        WHERE libraryPhotoSearch MATCH ? \(rootFilter)
                        """),
                arguments: arguments) ?? 0
        guard offset < total else { return LibraryPage(photos: [], total: total, hasMore: false) }
        let photos = try LibraryPhoto.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT p.* FROM libraryPhotoSearch s JOIN libraryPhoto p ON p.rowid = s.rowid
                    WHERE libraryPhotoSearch MATCH ? \(rootFilter)
                    ORDER BY s.rank LIMIT ? OFFSET ?
                    """),
            arguments: arguments + [limit, offset])
        return LibraryPage(photos: photos, total: total, hasMore: offset + photos.count < total)
    }
}

extension LibraryStore {
    /// The FTS5 query alone, ranked by bm25: no count, no join, no rows decoded, no async hop. The floor that
    /// `tessera-bench library` measures `search` against.
    public func referenceMatch(_ query: SearchQuery, limit: Int) throws -> [Int64] {
        guard let match = query.matchExpression else { return [] }
        return try database.writer.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT rowid FROM libraryPhotoSearch WHERE libraryPhotoSearch MATCH ? ORDER BY rank LIMIT ?",
                arguments: [match, limit])
        }
    }
}
