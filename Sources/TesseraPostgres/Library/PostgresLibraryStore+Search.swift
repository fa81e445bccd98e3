import PostgresNIO
import TesseraCore
import TesseraLibrary

extension PostgresLibraryStore {
    /// `ts_rank` weights, `{D, C, B, A}`: caption, tags, keywords, title, in the ratio of FTS5's
    /// `bm25(4.0, 1.0, 3.0, 2.0)` over (title, caption, keywords, tags).
    static let rankWeights = "'{0.25, 0.5, 0.75, 1.0}'"
    /// `ts_rank` divided by 1 + the log of the photo's word count: short titles first, as bm25 ranks them.
    static let rank = "ts_rank(\(rankWeights), search, query, 1)"

    /// Photos matching every word of `query` as a prefix, best first: the same matches as the SQLite index,
    /// ranked alike (title, keywords, tags, caption), and past `LibraryPage.rankedWindow` matches the newest
    /// ones ranked and the rest after them newest first, as there (`ts_rank` costs about as much a row).
    /// Two round trips for a page in the window: the total with the window ranked (`RankedWindow`), then the
    /// page's rows; one more for one word without filters, whose total is read from `library_prefix` rather
    /// than counted (`oneWord`).
    ///
    /// The filters are conditions beside the text search's (`LibraryFilter`, as `SQLiteLibraryStore` writes them), so
    /// the total and the pages count only the photos that pass.
    public func search(
        _ query: SearchQuery, roots: [String]? = nil, filters: SearchFilters = .none, page: Int = 1,
        pageSize: Int = 20
    ) async throws(LibraryError) -> LibraryPage {
        let lexemes = SearchText.lexemes(query)
        guard let tsQuery = SearchText.query(lexemes), page >= 1, pageSize >= 1 else { return .empty }
        if let roots, roots.isEmpty { return .empty }
        let narrowing = LibraryFilter(filters)
        if narrowing.matchesNothing { return .empty }
        let offset = (page - 1) * pageSize
        let every = roots == nil
        let roots = roots ?? []
        let window = LibraryPage.rankedWindow
        // Whose total `library_prefix` holds: one word of at most its length, no filter.
        let counted =
            lexemes.count == 1 && narrowing.isEmpty
                && lexemes[0].unicodeScalars.count <= PostgresMigrator.libraryPrefixLength ? lexemes[0] : nil
        return try await connection { connection in
            let filter = Filter(tsQuery: tsQuery, every: every, roots: roots, narrowing: narrowing)
            let ranking = RankedPage(offset: offset, limit: offset < window ? min(pageSize, window - offset) : 0)
            var (total, found) = (0, RankedWindow())
            if let word = counted {
                (total, found) = try await Self.oneWord(word, filter, window: window, ranking: ranking, connection)
            } else {
                // One pass over the matches (a bitmap scan of the GIN index, whatever the planner would guess
                // for a `LIMIT` on `seq`): the exact total, the newest `window`, and the page of them by rank.
                (total, found) = try await RankedWindow.read(
                    connection.query(
                        """
                        WITH matches AS MATERIALIZED (SELECT seq, search FROM library_photo WHERE \(filter)),
                            newest AS MATERIALIZED (SELECT seq, search FROM matches ORDER BY seq DESC LIMIT \(window))
                        SELECT (SELECT count(*) FROM matches), \(ranked: ranking, of: filter)
                        """, logger: .quiet))
            }
            guard offset < total else { return LibraryPage(photos: [], total: total, hasMore: false) }
            // The page's rows, the filter again in case a photo changed since.
            var photos: [LibraryPhoto] = []
            if !found.page.isEmpty {
                photos = try await Self.photos(
                    connection.query(
                        """
                        SELECT \(unescaped: Self.columns) FROM library_photo WHERE seq = ANY(\(found.page)) AND \(filter)
                        ORDER BY array_position(\(found.page), seq)
                        """, logger: .quiet))
            }
            if photos.count < pageSize, total > window, let cutoff = found.cutoff {
                // Past the ranked window: the rest, newest first.
                photos += try await Self.photos(
                    connection.query(
                        """
                        SELECT \(unescaped: Self.columns) FROM library_photo WHERE \(filter) AND seq < \(cutoff)
                        ORDER BY seq DESC LIMIT \(pageSize - photos.count) OFFSET \(max(0, offset - window))
                        """, logger: .quiet))
            }
            return LibraryPage(photos: photos, total: total, hasMore: offset + photos.count < total)
        }
    }

    /// The matches of a query, within some folders or all.
    struct Filter: Sendable {
        let tsQuery: String
        let every: Bool
        let roots: [String]
        let narrowing: LibraryFilter
    }
}

extension PostgresQuery.StringInterpolation {
    /// `search @@ query AND (every folder OR root in the given ones)`, with the three values bound.
    mutating func appendInterpolation(_ filter: PostgresLibraryStore.Filter) {
        appendInterpolation(unescaped: "search @@ CAST(")
        appendInterpolation(filter.tsQuery)
        appendInterpolation(unescaped: " AS tsquery) AND (")
        appendInterpolation(filter.every)
        appendInterpolation(unescaped: " OR root = ANY(")
        appendInterpolation(filter.roots)
        appendInterpolation(unescaped: "))")
        appendFilter(filter.narrowing)
    }

    /// docs/filters.md's rules, as `SQLiteLibraryStore` (`LibraryConditions`) writes them for SQLite.
    private mutating func appendFilter(_ filter: LibraryFilter) {
        if filter.orientation != nil || filter.minimumShortSide != nil || filter.shortSideBelow != nil {
            appendInterpolation(unescaped: " AND width > 0 AND height > 0")
        }
        switch filter.orientation {
        case .square: appendInterpolation(unescaped: " AND 10 * width <= 11 * height AND 10 * height <= 11 * width")
        case .landscape: appendInterpolation(unescaped: " AND 10 * width > 11 * height")
        case .portrait: appendInterpolation(unescaped: " AND 10 * height > 11 * width")
        case nil: break
        }
        if let minimum = filter.minimumShortSide {
            appendInterpolation(unescaped: " AND width >= ")
            appendInterpolation(minimum)
            appendInterpolation(unescaped: " AND height >= ")
            appendInterpolation(minimum)
        }
        if let below = filter.shortSideBelow {
            appendInterpolation(unescaped: " AND (width < ")
            appendInterpolation(below)
            appendInterpolation(unescaped: " OR height < ")
            appendInterpolation(below)
            appendInterpolation(unescaped: ")")
        }
        if let bit = filter.colorBit {
            appendInterpolation(unescaped: " AND (colors & ")
            appendInterpolation(Int32(bit))
            appendInterpolation(unescaped: ") <> 0")
        }
        if let license = filter.license {
            appendInterpolation(unescaped: " AND license_id IS NOT NULL AND license_id <> ")
            appendInterpolation(LicenseID.unknown.rawValue)
            if license.reusable {
                appendInterpolation(unescaped: " AND license_id <> ")
                appendInterpolation(LicenseID.allRightsReserved.rawValue)
            }
            if license.commercial { appendInterpolation(unescaped: " AND commercial_use") }
            if license.modification { appendInterpolation(unescaped: " AND modification_allowed") }
            let ids = filter.licenseIDs
            if !ids.isEmpty {
                appendInterpolation(unescaped: " AND (license_id = ANY(")
                appendInterpolation(ids)
                appendInterpolation(unescaped: ") OR license_family = ANY(")
                appendInterpolation(ids)
                appendInterpolation(unescaped: "))")
            }
        }
    }
}

/// The words of a photo and of a query, as PostgreSQL's full-text search gets them: split and folded by the
/// rules of `SearchQuery` (as FTS5's `unicode61 remove_diacritics 2` tokenizer does) and written in the
/// `tsvector` and `tsquery` input syntax with every lexeme quoted, so no user text is ever read as syntax.
enum SearchText {
    /// PostgreSQL's limits: a lexeme under 2 KB, positions up to 16,383, at most 256 positions a lexeme.
    static let maxLexemeBytes = 2_000
    static let maxPosition = 16_383
    static let maxPositions = 256

    /// `'cafe':1A 'montreal':3A,9C ...`: title A, keywords B, tags C, caption D.
    static func vector(of photo: LibraryPhoto) -> String {
        var positions: [String: [String]] = [:]
        var order: [String] = []
        var position = 0
        let fields: [(text: String, weight: String)] = [
            (photo.title, "A"), (photo.caption ?? "", "D"), (photo.keywords.joined(separator: " "), "B"),
            (photo.tags.joined(separator: " "), "C"),
        ]
        for field in fields {
            for word in SearchQuery.words(in: field.text) {
                position = min(position + 1, maxPosition)
                let lexeme = SearchQuery.folded(word)
                guard !lexeme.isEmpty, lexeme.utf8.count <= maxLexemeBytes else { continue }
                if positions[lexeme] == nil { order.append(lexeme) }
                if positions[lexeme, default: []].count < maxPositions {
                    positions[lexeme, default: []].append("\(position)\(field.weight)")
                }
            }
        }
        return order.map { quoted($0) + ":" + positions[$0, default: []].joined(separator: ",") }.joined(
            separator: " ")
    }

    /// The words of `query` as lexemes, folded, each as the index holds them; a word that starts another of
    /// them is left out (`'sun':* & 'sunset':*` matches what `'sunset':*` matches), once.
    static func lexemes(_ query: SearchQuery) -> [String] {
        let all = query.words.map(SearchQuery.folded).filter { !$0.isEmpty && $0.utf8.count <= maxLexemeBytes }
        var kept: [String] = []
        for (index, lexeme) in all.enumerated()
        where !all.enumerated().contains(where: { other in
            other.offset != index
                && (other.element.count > lexeme.count && other.element.hasPrefix(lexeme)
                    || other.element == lexeme && other.offset < index)
        }) {
            kept.append(lexeme)
        }
        return kept
    }

    /// `'word':* & 'other':*`: every word a prefix, all of them required; `nil` when there is no word.
    static func query(_ lexemes: [String]) -> String? {
        guard !lexemes.isEmpty else { return nil }
        return lexemes.map { quoted($0) + ":*" }.joined(separator: " & ")
    }

    /// A lexeme in quotes, its quotes and backslashes escaped: words hold neither, but a grapheme might.
    static func quoted(_ lexeme: String) -> String {
        "'" + lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}
