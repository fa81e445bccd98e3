import Foundation
import GRDB
import TesseraCore

/// Each item's perceptual hash, in `galleryItem.pictureHash` (sixteen hex digits; `v8-picture-hashes`).
extension GalleryStore {
    func pictureHashes(of id: GalleryID) async throws(GalleryError) -> [GalleryItemID: PerceptualHash] {
        try await run {
            try await self.writer.read { db in
                let rows = try Row.fetchAll(
                    db, sql: "SELECT id, pictureHash FROM galleryItem WHERE galleryId = ? AND pictureHash IS NOT NULL",
                    arguments: [id.rawValue])
                var hashes: [GalleryItemID: PerceptualHash] = [:]
                for row in rows {
                    let text: String = row["pictureHash"]
                    if let hash = PerceptualHash(hex: text) { hashes[GalleryItemID(unchecked: row["id"])] = hash }
                }
                return hashes
            }
        }
    }

    func setPictureHash(_ hash: PerceptualHash, of itemID: GalleryItemID, in id: GalleryID)
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
