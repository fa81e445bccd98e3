import Foundation
import GRDB
import TesseraCore
import TesseraGalleries

/// Order is kept by gap-based integer positions: adding or moving an item writes one row, between its new
/// neighbours; only when two neighbours have no room left is the gallery renumbered, in the same
/// transaction.
extension SQLiteGalleryStore {
    static let gap: Int64 = 1 << 16

    /// The position for an item placed at `index` among the gallery's other items (all but `moving`),
    /// and the index it ends up at. Renumbers the gallery when the neighbours have no room between them.
    ///
    /// Every query reads only the (galleryId, position) index, never the rows: the item being moved is
    /// accounted for by its rank instead of being filtered out, so a move in a 10,000-item gallery walks
    /// part of one index and touches one row.
    static func position(
        in galleryID: String, at index: Int?, moving: GalleryItemRecord?, _ db: Database
    ) throws -> (Int64, Int) {
        let count = try number(db, "SELECT COUNT(*) FROM galleryItem WHERE galleryId = ?", [galleryID]) ?? 0
        let others = Int(count) - (moving == nil ? 0 : 1)
        let target = min(index ?? others, others)
        let rank = try moving.map {
            let sql = "SELECT COUNT(*) FROM galleryItem WHERE galleryId = ? AND position < ?"
            return Int(try number(db, sql, [galleryID, $0.position]) ?? 0)
        }
        if let moving, let rank, rank == target { return (moving.position, target) }
        // Index among the others → index among all.
        let all = { (other: Int) -> Int in
            guard let rank else { return other }
            return other < rank ? other : other + 1
        }
        if target == others {
            let positions = "SELECT position FROM galleryItem WHERE galleryId = ?"
            let last =
                if let moving {
                    try number(
                        db, positions + " AND position <> ? ORDER BY position DESC LIMIT 1",
                        [galleryID, moving.position])
                } else {
                    try number(db, positions + " ORDER BY position DESC LIMIT 1", [galleryID])
                }
            return ((last ?? 0) + gap, target)
        }
        let ascending = "SELECT position FROM galleryItem WHERE galleryId = ? ORDER BY position LIMIT ? OFFSET ?"
        if target == 0 {
            let first = try number(db, ascending, [galleryID, 1, all(0)])
            return ((first ?? 0) - gap, 0)
        }
        // The neighbours, next to each other among all items (the moving one is elsewhere, or the move is a no-op).
        let neighbours = try Int64.fetchAll(
            db.cachedStatement(sql: ascending), arguments: [galleryID, 2, all(target - 1)])
        let (before, after) = (neighbours[0], neighbours[1])
        if after - before > 1 { return (before + (after - before) / 2, target) }
        try renumber(galleryID, db)
        let renumbered = try moving.map { try GalleryItemRecord.fetchOne(db, key: $0.id) } ?? nil
        return try position(in: galleryID, at: index, moving: renumbered, db)
    }

    /// One number from a cached statement: these run on every add and move, and the query interface
    /// rebuilt their SQL each time (about half the time of an add's transaction).
    private static func number(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// Spreads the gallery's positions out again, `gap` apart, keeping the order. Negative values first,
    /// so no two rows ever share a position on the way (the unique key stays checked throughout).
    static func renumber(_ galleryID: String, _ db: Database) throws {
        typealias Columns = GalleryItemRecord.Columns
        let items = GalleryItemRecord.inGallery(galleryID)
        try items.updateAll(db, Columns.position.set(to: -Columns.position - 1))
        let ids = try items.select(Columns.id, as: String.self).order(Columns.position.desc).fetchAll(db)
        // One prepared statement for what may be thousands of rows.
        let update = try db.makeStatement(sql: "UPDATE galleryItem SET position = ? WHERE id = ?")
        for (offset, id) in ids.enumerated() {
            try update.execute(arguments: [Int64(offset + 1) * gap, id])
        }
    }
}
