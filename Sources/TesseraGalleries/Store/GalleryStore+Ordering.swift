import Foundation
import GRDB

/// Order is kept by gap-based integer positions: adding or moving an item writes one row, between its new
/// neighbours; only when two neighbours have no room left is the gallery renumbered, in the same
/// transaction.
extension GalleryStore {
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
        typealias Columns = GalleryItemRecord.Columns
        let items = GalleryItemRecord.inGallery(galleryID)
        let positions = items.select(Columns.position, as: Int64.self)
        let count = try items.fetchCount(db) - (moving == nil ? 0 : 1)
        let target = min(index ?? count, count)
        let rank = try moving.map { try items.filter(Columns.position < $0.position).fetchCount(db) }
        if let moving, let rank, rank == target { return (moving.position, target) }
        // Index among the others → index among all.
        let all = { (other: Int) -> Int in
            guard let rank else { return other }
            return other < rank ? other : other + 1
        }
        if target == count {
            var others = positions
            if let moving { others = others.filter(Columns.position != moving.position) }
            let last = try others.order(Columns.position.desc).limit(1).fetchOne(db)
            return ((last ?? 0) + gap, target)
        }
        if target == 0 {
            let first = try positions.order(Columns.position).limit(1, offset: all(0)).fetchOne(db)
            return ((first ?? 0) - gap, 0)
        }
        // The neighbours, next to each other among all items (the moving one is elsewhere, or the move is a no-op).
        let neighbours = try positions.order(Columns.position).limit(2, offset: all(target - 1)).fetchAll(db)
        let (before, after) = (neighbours[0], neighbours[1])
        if after - before > 1 { return (before + (after - before) / 2, target) }
        try renumber(galleryID, db)
        let renumbered = try moving.map { try GalleryItemRecord.fetchOne(db, key: $0.id) } ?? nil
        return try position(in: galleryID, at: index, moving: renumbered, db)
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
