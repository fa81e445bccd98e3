import GRDB
import TesseraCore
import TesseraLibrary

extension SQLiteLibraryStore {
    /// How many of the newest matches a broad search ranks by bm25 (see `search`).
    static var rankedWindow: Int { LibraryPage.rankedWindow }

    /// Photos matching every word of `query` as a prefix and every filter, best first, `pageSize` a page, with
    /// the exact total.
    ///
    /// Ranked by bm25 (title weighs most, then keywords, folder and file-name tags, caption). A search that
    /// matches more than `rankedWindow` photos ranks the newest `rankedWindow` of them (most recently indexed)
    /// and lists the rest after them, newest first: bm25 costs microseconds a row, and a word in a third of
    /// 100,000 photos would otherwise take far longer than the 10 ms a search may.
    ///
    /// - Parameters:
    ///   - roots: only photos under these library folders (real paths); `nil` for every indexed one.
    ///   - filters: applied in SQL (`LibraryFilter`), so totals and pages count only what passes.
    public func search(
        _ query: SearchQuery, roots: [String]? = nil, filters: SearchFilters = .none, page: Int = 1,
        pageSize: Int = 20
    ) async throws(LibraryError) -> LibraryPage {
        guard let match = query.matchExpression, page >= 1, pageSize >= 1 else { return .empty }
        if let roots, roots.isEmpty { return .empty }
        let filter = LibraryFilter(filters)
        if filter.matchesNothing { return .empty }
        let offset = (page - 1) * pageSize
        return try await read { db in
            var conditions = LibraryConditions()
            // Filtering by folder costs a row lookup per match: only when the index holds other folders too.
            if let roots, !Set(try Self.indexedRoots(db)).isSubset(of: roots) { conditions.add(roots: roots) }
            conditions.add(filter)
            if conditions.isEmpty { return try Self.search(match, offset: offset, limit: pageSize, db) }
            return try Self.search(match, where: conditions, offset: offset, limit: pageSize, db)
        }
    }

    /// Every folder in the index, by seeking the (root, path) index once per folder rather than scanning it.
    static func indexedRoots(_ db: Database) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(
                sql: """
                    WITH RECURSIVE roots(root) AS (
                        SELECT (SELECT min(root) FROM libraryPhoto)
                        UNION ALL
                        SELECT (SELECT min(root) FROM libraryPhoto WHERE root > roots.root) FROM roots
                        WHERE roots.root IS NOT NULL)
                    SELECT root FROM roots WHERE root IS NOT NULL
                    """))
    }

    /// The search over the whole index: the count, the ranking and the page all run inside FTS5.
    static func search(_ match: String, offset: Int, limit: Int, _ db: Database) throws -> LibraryPage {
        let total =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM libraryPhotoSearch WHERE libraryPhotoSearch MATCH ?"),
                arguments: [match]) ?? 0
        guard offset < total else { return LibraryPage(photos: [], total: total, hasMore: false) }
        var rowids: [Int64]
        if total <= rankedWindow {
            rowids = try Int64.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT rowid FROM libraryPhotoSearch WHERE libraryPhotoSearch MATCH ?
                        ORDER BY rank LIMIT ? OFFSET ?
                        """),
                arguments: [match, limit, offset])
        } else {
            // The oldest of the newest `rankedWindow` matches: FTS5 walks a doclist backwards cheaply.
            let cutoff =
                try Int64.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT rowid FROM libraryPhotoSearch WHERE libraryPhotoSearch MATCH ?
                            ORDER BY rowid DESC LIMIT 1 OFFSET ?
                            """),
                    arguments: [match, rankedWindow - 1]) ?? 0
            rowids = []
            if offset < rankedWindow {
                rowids = try Int64.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT rowid FROM libraryPhotoSearch WHERE libraryPhotoSearch MATCH ? AND rowid >= ?
                            ORDER BY rank LIMIT ? OFFSET ?
                            """),
                    arguments: [match, cutoff, min(limit, rankedWindow - offset), offset])
            }
            if rowids.count < limit {
                rowids += try Int64.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT rowid FROM libraryPhotoSearch WHERE libraryPhotoSearch MATCH ? AND rowid < ?
                            ORDER BY rowid DESC LIMIT ? OFFSET ?
                            """),
                    arguments: [match, cutoff, limit - rowids.count, max(0, offset - rankedWindow)])
            }
        }
        let photos = try Self.photos(rowids, db)
        return LibraryPage(photos: photos, total: total, hasMore: offset + photos.count < total)
    }

    /// The rows of `rowids`, in that order.
    static func photos(_ rowids: [Int64], _ db: Database) throws -> [LibraryPhoto] {
        guard !rowids.isEmpty else { return [] }
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT rowid AS ftsRowid, * FROM libraryPhoto WHERE rowid IN "
                + "(\(Array(repeating: "?", count: rowids.count).joined(separator: ", ")))",
            arguments: StatementArguments(rowids))
        var byRowid: [Int64: LibraryPhoto] = [:]
        for row in rows { byRowid[row["ftsRowid"]] = try LibraryPhoto(row: row) }
        return rowids.compactMap { byRowid[$0] }
    }
}

extension SQLiteLibraryStore {
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
