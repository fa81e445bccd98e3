import Foundation
import PostgresNIO
import TesseraCore
import TesseraGalleries

/// Each item's perceptual hash, in `gallery_item.picture_hash` (the 64 bits as a bigint; migration 10), and
/// what the near-duplicate check reads with it.
extension PostgresGalleryStore {
    public func pictures(of id: GalleryID) async throws(GalleryError) -> [GalleryPicture] {
        try await read { connection in
            var pictures: [GalleryPicture] = []
            for try await (item, itemID, bits) in try await connection.query(
                """
                SELECT id, item::jsonb ->> 'id', picture_hash FROM gallery_item
                WHERE gallery_id = \(id.rawValue) ORDER BY position
                """,
                logger: .quiet
            ).decode((String, String?, Int64?).self) {
                pictures.append(
                    GalleryPicture(
                        id: GalleryItemID(unchecked: item), itemID: itemID ?? "",
                        hash: bits.map { PerceptualHash(bits: UInt64(bitPattern: $0)) }))
            }
            return pictures
        }
    }

    public func unhashedPictures(after: GalleryItemID?, limit: Int) async throws(GalleryError) -> [UnhashedPicture] {
        try await read { connection in
            var pictures: [UnhashedPicture] = []
            for try await (gallery, item, image) in try await connection.query(
                """
                SELECT gallery_id, id, image_hash FROM gallery_item
                WHERE picture_hash IS NULL AND id > \(after?.rawValue ?? "") ORDER BY id LIMIT \(limit)
                """,
                logger: .quiet
            ).decode((String, String, String).self) {
                pictures.append(
                    UnhashedPicture(
                        gallery: GalleryID(unchecked: gallery), item: GalleryItemID(unchecked: item), imageHash: image))
            }
            return pictures
        }
    }

    public func setPictureHash(_ hash: PerceptualHash, of itemID: GalleryItemID, in id: GalleryID)
        async throws(GalleryError)
    {
        let bits = Int64(bitPattern: hash.bits)
        // Behind the gallery's row lock, as every change to its items: alone, this row's update could wait on a
        // renumbering's unique index entries while the renumbering waits on this row (a deadlock).
        try await write(id) { connection in
            _ = try await Self.galleryRow(id, connection, lock: true)
            try await connection.query(
                "UPDATE gallery_item SET picture_hash = \(bits) WHERE id = \(itemID.rawValue) AND gallery_id = \(id.rawValue)",
                logger: .quiet)
            return ((), nil)
        }
    }
}
