import Foundation
import PostgresNIO
import TesseraCore
import TesseraGalleries

/// Each item's perceptual hash, in `gallery_item.picture_hash` (the 64 bits as a bigint; migration 10).
extension PostgresGalleryStore {
    public func pictureHashes(of id: GalleryID) async throws(GalleryError) -> [GalleryItemID: PerceptualHash] {
        try await read { connection in
            var hashes: [GalleryItemID: PerceptualHash] = [:]
            for try await (item, bits) in try await connection.query(
                "SELECT id, picture_hash FROM gallery_item WHERE gallery_id = \(id.rawValue) AND picture_hash IS NOT NULL",
                logger: .quiet
            ).decode((String, Int64).self) {
                hashes[GalleryItemID(unchecked: item)] = PerceptualHash(bits: UInt64(bitPattern: bits))
            }
            return hashes
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
