import Foundation
import GRDB
import TesseraCore
import TesseraGalleries

/// Each item's perceptual hash, in `galleryItem.pictureHash` (sixteen hex digits; `v8-picture-hashes`), and
/// what the near-duplicate check reads with it.
extension SQLiteGalleryStore {
    public func pictures(of id: GalleryID) async throws(GalleryError) -> [GalleryPicture] {
        try await run {
            try await self.writer.read { db in
                let rows = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: """
                            SELECT id, json_extract(item, '$.id') AS itemId, pictureHash FROM galleryItem
                            WHERE galleryId = ? ORDER BY position
                            """), arguments: [id.rawValue])
                var pictures: [GalleryPicture] = []
                while let row = try rows.next() {
                    pictures.append(
                        GalleryPicture(
                            id: GalleryItemID(unchecked: row["id"]), itemID: row["itemId"] ?? "",
                            hash: (row["pictureHash"] as String?).flatMap(PerceptualHash.init(hex:))))
                }
                return pictures
            }
        }
    }

    public func unhashedPictures(after: GalleryItemID?, limit: Int) async throws(GalleryError) -> [UnhashedPicture] {
        try await run {
            try await self.writer.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT galleryId, id, imageHash FROM galleryItem
                        WHERE pictureHash IS NULL AND id > ? ORDER BY id LIMIT ?
                        """, arguments: [after?.rawValue ?? "", limit]
                ).map { row in
                    UnhashedPicture(
                        gallery: GalleryID(unchecked: row["galleryId"]), item: GalleryItemID(unchecked: row["id"]),
                        imageHash: row["imageHash"])
                }
            }
        }
    }

    public func setPictureHash(_ hash: PerceptualHash, of itemID: GalleryItemID, in id: GalleryID)
        async throws(GalleryError)
    {
        try await run {
            try await self.database.write { db in
                try db.execute(
                    sql: "UPDATE galleryItem SET pictureHash = ? WHERE id = ? AND galleryId = ?",
                    arguments: [hash.description, itemID.rawValue, id.rawValue])
            }
        }
    }
}
