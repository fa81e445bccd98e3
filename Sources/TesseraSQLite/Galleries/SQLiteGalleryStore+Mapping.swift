import Foundation
import GRDB
import TesseraCore
import TesseraGalleries

/// Rows to API values.
extension SQLiteGalleryStore {
    static func summary(_ record: GalleryRecord, _ db: Database, linker: any ImageLinking) throws -> Gallery {
        let items = GalleryItemRecord.inGallery(record.id)
        let count = try items.fetchCount(db)
        let first = try items.order(GalleryItemRecord.Columns.position).fetchOne(db)
        return Gallery(
            id: GalleryID(unchecked: record.id), name: record.name, itemCount: count,
            cover: first.map { refs(for: $0, linker: linker).thumbnail },
            createdAt: Timestamp.text(record.createdAt), updatedAt: Timestamp.text(record.updatedAt),
            deletedAt: record.deletedAt.map(Timestamp.text), revision: record.revision)
    }

    static func item(_ record: GalleryItemRecord, linker: any ImageLinking) throws -> GalleryItem {
        let item = try FastJSONDecoder.decode(Item.self, from: Data(record.item.utf8))
        return GalleryItem(
            id: GalleryItemID(unchecked: record.id), item: item, sourceURL: record.sourceURL, size: record.imageSize,
            image: refs(for: record, linker: linker), addedAt: Timestamp.text(record.addedAt))
    }

    static func refs(for record: GalleryItemRecord, linker: any ImageLinking) -> StoredImageRefs {
        StoredImageRefs(hash: record.imageHash, width: record.width, height: record.height, linker: linker)
    }
}
