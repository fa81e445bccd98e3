import PostgresNIO
import TesseraLibrary

extension PostgresLibraryStore {
    /// A one-word search without filters: its total, read from `library_prefix` (migration 13), and its newest
    /// `window` matches with `page` of them by rank.
    ///
    /// Two ways to the newest matches, chosen with the total known: walking back from the newest photo reads
    /// about `window × photos / total` rows when the matches are spread evenly (0.25 µs a row at 100,000
    /// photos), the GIN index reads and rechecks every match (2 to 2.5 µs each: 13 ms for 5,300). The planner,
    /// guessing, walked back for words clustered in a few folders (a place, a name) and read most of the table
    /// (15 ms for 2,700 matches), and read 12,000 matches through the index where a walk of 8,000 rows was
    /// cheaper. So the walk goes at most twice its even-spread length, taken when that costs less than reading
    /// the matches; if it found too few, the index finds them.
    static func oneWord(
        _ word: String, _ filter: Filter, window: Int, ranking page: RankedPage, _ connection: PostgresConnection
    ) async throws -> (total: Int, window: RankedWindow) {
        var (total, first, last) = (0, Int64(0), Int64(0))
        for try await row in try await connection.query(
            """
            SELECT (SELECT coalesce(sum(photos), 0)::bigint FROM library_prefix
                    WHERE prefix = \(word) AND (\(filter.every) OR root = ANY(\(filter.roots)))),
                coalesce((SELECT min(seq) FROM library_photo), 0), coalesce((SELECT max(seq) FROM library_photo), 0)
            """, logger: .quiet
        ).decode((Int, Int64, Int64).self) {
            (total, first, last) = row
        }
        guard total > 0 else { return (0, RankedWindow()) }
        let wanted = min(window, total)
        let walk = 2 * Int64(wanted) * (last - first + 1) / Int64(total)
        if walk < 8 * total {
            let walked = try await RankedWindow.read(
                connection.query(
                    """
                    WITH newest AS MATERIALIZED (
                        SELECT seq, search FROM library_photo WHERE \(filter) AND seq > \(last - walk)
                        ORDER BY seq DESC LIMIT \(window))
                    SELECT 0::bigint, \(ranked: page, of: filter)
                    """, logger: .quiet))
            if walked.window.found >= wanted { return (total, walked.window) }
        }
        // `seq + 0`: not the primary key's order, so the matches come from the GIN index.
        let found = try await RankedWindow.read(
            connection.query(
                """
                WITH newest AS MATERIALIZED (
                    SELECT seq, search FROM library_photo WHERE \(filter) ORDER BY seq + 0 DESC LIMIT \(window))
                SELECT 0::bigint, \(ranked: page, of: filter)
                """, logger: .quiet))
        return (total, found.window)
    }
}

/// The ranked page asked of a window: `limit` matches from `offset`, by rank.
struct RankedPage: Sendable {
    let offset: Int
    let limit: Int
}

/// The newest matches of a search, ranked in the statement that finds them (their words are at hand there, so
/// no row is read twice): how many it holds, the oldest one's `seq` (where the pages past it start), and the
/// `seq`s of the ranked page asked for, in order.
struct RankedWindow: Sendable {
    var found = 0
    var cutoff: Int64?
    var page: [Int64] = []

    /// A statement's one row: the matches counted (or 0), then the three columns `\(ranked:of:)` writes.
    static func read(_ rows: PostgresRowSequence) async throws -> (matches: Int, window: RankedWindow) {
        var result = (0, RankedWindow())
        for try await (matches, found, cutoff, page) in rows.decode((Int, Int, Int64?, [Int64]).self) {
            result = (matches, RankedWindow(found: found, cutoff: cutoff, page: page))
        }
        return result
    }
}

extension PostgresQuery.StringInterpolation {
    /// Over a `newest` CTE of `seq` and `search`: how many it holds, the oldest `seq`, and the `seq`s of `page`
    /// by rank, ties oldest first.
    mutating func appendInterpolation(ranked page: RankedPage, of filter: PostgresLibraryStore.Filter) {
        appendInterpolation(unescaped: "(SELECT count(*) FROM newest), (SELECT min(seq) FROM newest), ARRAY(")
        appendInterpolation(unescaped: "SELECT seq FROM newest, (SELECT CAST(")
        appendInterpolation(filter.tsQuery)
        appendInterpolation(unescaped: " AS tsquery) AS query) AS q ORDER BY \(PostgresLibraryStore.rank) DESC, seq")
        appendInterpolation(unescaped: " LIMIT \(page.limit) OFFSET \(page.offset))")
    }
}
