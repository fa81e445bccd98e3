import PostgresNIO
import TesseraLibrary

extension PostgresLibraryStore {
    /// A one-word search without filters: its total, read from `library_prefix` (migration 13), and the `seq`s of
    /// its newest `window` matches.
    ///
    /// Two ways to the newest matches, chosen with the total known: walking back from the newest photo reads
    /// about `window × photos / total` rows when the matches are spread evenly (0.25 µs a row at 100,000
    /// photos), the GIN index reads and rechecks every match (2 to 2.5 µs each: 13 ms for 5,300). The planner,
    /// guessing, walked back for words clustered in a few folders (a place, a name) and read most of the table
    /// (15 ms for 2,700 matches), and read 12,000 matches through the index where a walk of 8,000 rows was
    /// cheaper. So the walk goes at most twice its even-spread length, taken when that costs less than reading
    /// the matches; if it found too few, the index finds them.
    static func oneWord(_ word: String, _ filter: Filter, window: Int, _ connection: PostgresConnection)
        async throws -> (total: Int, newest: [Int64])
    {
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
        guard total > 0 else { return (0, []) }
        let wanted = min(window, total)
        let walk = 2 * Int64(wanted) * (last - first + 1) / Int64(total)
        if walk < 8 * total {
            let newest = try await seqs(
                "SELECT seq FROM library_photo WHERE \(filter) AND seq > \(last - walk) ORDER BY seq DESC LIMIT \(window)",
                connection)
            if newest.count >= wanted { return (total, newest) }
        }
        // `seq + 0`: not the primary key's order, so the matches come from the GIN index.
        let newest = try await seqs(
            "SELECT seq FROM library_photo WHERE \(filter) ORDER BY seq + 0 DESC LIMIT \(window)", connection)
        return (total, newest)
    }

    private static func seqs(_ query: PostgresQuery, _ connection: PostgresConnection) async throws -> [Int64] {
        var result: [Int64] = []
        for try await seq in try await connection.query(query, logger: .quiet).decode(Int64.self) {
            result.append(seq)
        }
        return result
    }
}
