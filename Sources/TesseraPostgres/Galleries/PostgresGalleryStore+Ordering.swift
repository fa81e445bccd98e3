import Foundation
import PostgresNIO

/// Gap-based positions, as in the SQLite store (`SQLiteGalleryStore+Ordering`, which explains the scheme): adding or
/// moving writes one row between its new neighbours; only when they have no room left is the gallery
/// renumbered, in the same transaction.
extension PostgresGalleryStore {
    static let gap: Int64 = 1 << 16

    /// The position for an item placed at `index` among the gallery's other items (all but `moving`), and the
    /// index it ends up at.
    static func position(
        in galleryID: String, at index: Int?, moving: GalleryItemRow?, _ connection: PostgresConnection
    ) async throws -> (Int64, Int) {
        if moving == nil, let placed = try await appended(in: galleryID, at: index, connection) { return placed }
        let count =
            try await number("SELECT count(*) FROM gallery_item WHERE gallery_id = \(galleryID)", connection)
            - (moving == nil ? 0 : 1)
        let target = min(index ?? count, count)
        var rank: Int?
        if let moving {
            rank = try await number(
                "SELECT count(*) FROM gallery_item WHERE gallery_id = \(galleryID) AND position < \(moving.position)",
                connection)
        }
        if let moving, let rank, rank == target { return (moving.position, target) }
        // Index among the others → index among all.
        let all = { (other: Int) -> Int in
            guard let rank else { return other }
            return other < rank ? other : other + 1
        }
        if target == count {
            let excluded = moving?.position ?? Int64.min
            let last = try await positions(
                "SELECT position FROM gallery_item WHERE gallery_id = \(galleryID) AND position <> \(excluded) ORDER BY position DESC LIMIT 1",
                connection
            ).first
            return ((last ?? 0) + gap, target)
        }
        if target == 0 {
            let first = try await positions(
                "SELECT position FROM gallery_item WHERE gallery_id = \(galleryID) ORDER BY position LIMIT 1 OFFSET \(all(0))",
                connection
            ).first
            return ((first ?? 0) - gap, 0)
        }
        let neighbours = try await positions(
            "SELECT position FROM gallery_item WHERE gallery_id = \(galleryID) ORDER BY position LIMIT 2 OFFSET \(all(target - 1))",
            connection)
        let (before, after) = (neighbours[0], neighbours[1])
        if after - before > 1 { return (before + (after - before) / 2, target) }
        try await renumber(galleryID, connection)
        var renumbered: GalleryItemRow?
        if let moving {
            renumbered = try await GalleryItemRow.all(
                connection.query(
                    "SELECT \(unescaped: GalleryItemRow.columns) FROM gallery_item WHERE id = \(moving.id)",
                    logger: .quiet)
            ).first
        }
        return try await position(in: galleryID, at: index, moving: renumbered, connection)
    }

    /// An added item's place when it goes first or last (or the gallery is empty): one query, where the general
    /// case takes two; nil when it goes between two items.
    private static func appended(in galleryID: String, at index: Int?, _ connection: PostgresConnection)
        async throws -> (Int64, Int)?
    {
        for try await (count, first, last) in try await connection.query(
            """
            SELECT count(*), coalesce(min(position), 0), coalesce(max(position), 0)
            FROM gallery_item WHERE gallery_id = \(galleryID)
            """, logger: .quiet
        ).decode((Int, Int64, Int64).self) {
            let target = min(index ?? count, count)
            if target == count { return (last + gap, target) }
            if target == 0 { return (first - gap, 0) }
        }
        return nil
    }

    /// Spreads the gallery's positions out again, `gap` apart, keeping the order: one statement, which the
    /// deferrable unique key checks once at its end.
    static func renumber(_ galleryID: String, _ connection: PostgresConnection) async throws {
        try await connection.query(
            """
            UPDATE gallery_item SET position = ordered.rank * \(gap)
            FROM (SELECT id, row_number() OVER (ORDER BY position) AS rank FROM gallery_item
                  WHERE gallery_id = \(galleryID)) AS ordered
            WHERE gallery_item.id = ordered.id
            """, logger: .quiet)
    }

    private static func number(_ query: PostgresQuery, _ connection: PostgresConnection) async throws -> Int {
        var result = 0
        for try await value in try await connection.query(query, logger: .quiet).decode(Int.self) { result = value }
        return result
    }

    private static func positions(_ query: PostgresQuery, _ connection: PostgresConnection) async throws -> [Int64] {
        var result: [Int64] = []
        for try await value in try await connection.query(query, logger: .quiet).decode(Int64.self) {
            result.append(value)
        }
        return result
    }
}
