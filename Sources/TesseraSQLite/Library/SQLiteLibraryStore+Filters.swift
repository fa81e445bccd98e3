import GRDB
import TesseraCore
import TesseraLibrary

/// The `WHERE` conditions of a filtered or folder-limited search on `libraryPhoto p`, with their arguments.
struct LibraryConditions {
    private(set) var clauses: [String] = []
    private(set) var arguments = StatementArguments()

    var isEmpty: Bool { clauses.isEmpty }
    var sql: String { clauses.joined(separator: " AND ") }

    mutating func add(_ clause: String, _ values: StatementArguments = []) {
        clauses.append(clause)
        arguments += values
    }

    /// Only photos under `roots`.
    mutating func add(roots: [String]) {
        add("p.root IN (\(Self.placeholders(roots.count)))", StatementArguments(roots))
    }

    /// docs/filters.md's rules in SQL, as `PostgresLibraryStore` writes them too. Square is "the longer side
    /// at most 1.1 × the shorter", in whole numbers (10 × long ≤ 11 × short) so both engines agree exactly.
    mutating func add(_ filter: LibraryFilter) {
        let sized = filter.orientation != nil || filter.minimumShortSide != nil || filter.shortSideBelow != nil
        if sized { add("p.width > 0 AND p.height > 0") }
        switch filter.orientation {
        case .square: add("10 * p.width <= 11 * p.height AND 10 * p.height <= 11 * p.width")
        case .landscape: add("10 * p.width > 11 * p.height")
        case .portrait: add("10 * p.height > 11 * p.width")
        case nil: break
        }
        if let minimum = filter.minimumShortSide { add("p.width >= ? AND p.height >= ?", [minimum, minimum]) }
        if let below = filter.shortSideBelow { add("(p.width < ? OR p.height < ?)", [below, below]) }
        if let bit = filter.colorBit { add("(p.colors & ?) <> 0", [bit]) }
        if let license = filter.license {
            add("p.licenseId IS NOT NULL AND p.licenseId <> ?", [LicenseID.unknown.rawValue])
            if license.reusable { add("p.licenseId <> ?", [LicenseID.allRightsReserved.rawValue]) }
            if license.commercial { add("p.commercialUse = 1") }
            if license.modification { add("p.modificationAllowed = 1") }
            let ids = filter.licenseIDs
            if !ids.isEmpty {
                let list = Self.placeholders(ids.count)
                add("(p.licenseId IN (\(list)) OR p.licenseFamily IN (\(list)))", StatementArguments(ids + ids))
            }
        }
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

extension SQLiteLibraryStore {
    /// Paths under `root` of the photos indexed before palettes were (no `colors`): the indexer reads them again.
    public func pathsWithoutPalette(root: String) async throws(LibraryError) -> Set<String> {
        try await read { db in
            Set(
                try String.fetchAll(
                    db, sql: "SELECT path FROM libraryPhoto WHERE root = ? AND colors IS NULL", arguments: [root]))
        }
    }

    /// The search narrowed by `conditions` (folders, filters): each match is looked up in `libraryPhoto`. The
    /// same pages as the whole-index search: past `rankedWindow` matches the newest are ranked, the rest follow.
    static func search(
        _ match: String, where conditions: LibraryConditions, offset: Int, limit: Int, _ db: Database
    ) throws -> LibraryPage {
        let from = """
            libraryPhotoSearch s JOIN libraryPhoto p ON p.rowid = s.rowid
            WHERE libraryPhotoSearch MATCH ? AND \(conditions.sql)
            """
        let arguments: StatementArguments = [match] + conditions.arguments
        let total = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM \(from)"), arguments: arguments) ?? 0
        guard offset < total else { return LibraryPage(photos: [], total: total, hasMore: false) }
        var rowids: [Int64]
        if total <= rankedWindow {
            rowids = try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT s.rowid FROM \(from) ORDER BY s.rank LIMIT ? OFFSET ?"),
                arguments: arguments + [limit, offset])
        } else {
            let cutoff =
                try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT s.rowid FROM \(from) ORDER BY s.rowid DESC LIMIT 1 OFFSET ?"),
                    arguments: arguments + [rankedWindow - 1]) ?? 0
            rowids = []
            if offset < rankedWindow {
                rowids = try Int64.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT s.rowid FROM \(from) AND s.rowid >= ? ORDER BY s.rank LIMIT ? OFFSET ?"),
                    arguments: arguments + [cutoff, min(limit, rankedWindow - offset), offset])
            }
            if rowids.count < limit {
                rowids += try Int64.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT s.rowid FROM \(from) AND s.rowid < ? ORDER BY s.rowid DESC LIMIT ? OFFSET ?"),
                    arguments: arguments + [cutoff, limit - rowids.count, max(0, offset - rankedWindow)])
            }
        }
        let photos = try Self.photos(rowids, db)
        return LibraryPage(photos: photos, total: total, hasMore: offset + photos.count < total)
    }
}
