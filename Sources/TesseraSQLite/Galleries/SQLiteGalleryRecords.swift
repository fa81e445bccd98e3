import Foundation
import GRDB
import TesseraCore
import TesseraGalleries

/// A `gallery` row.
struct GalleryRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "gallery"
    var id: String
    var name: String
    var createdAt: Double
    var updatedAt: Double
    var deletedAt: Double?
    var revision: Int
    /// The owning account (`account.id`); `nil` for a gallery made without accounts.
    var ownerId: String?

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let ownerId = Column(CodingKeys.ownerId)
        static let createdAt = Column(CodingKeys.createdAt)
        static let updatedAt = Column(CodingKeys.updatedAt)
        static let deletedAt = Column(CodingKeys.deletedAt)
    }
}

/// A `galleryItem` row.
struct GalleryItemRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "galleryItem"
    var id: String
    var galleryId: String
    var position: Int64
    var item: String
    var sourceURL: String?
    var imageHash: String
    var imageFormat: String
    var imageSize: Int
    var width: Int
    var height: Int
    var addedAt: Double
    /// The picture's perceptual hash as sixteen hex digits (`v8-picture-hashes`), when made.
    var pictureHash: String? = nil

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let galleryId = Column(CodingKeys.galleryId)
        static let position = Column(CodingKeys.position)
        static let imageHash = Column(CodingKeys.imageHash)
        static let imageFormat = Column(CodingKeys.imageFormat)
    }
}

extension GalleryItemRecord {
    /// The items of one gallery (the `(galleryId, position)` index serves every such query).
    static func inGallery(_ galleryID: String) -> QueryInterfaceRequest<GalleryItemRecord> {
        filter(Columns.galleryId == galleryID)
    }
}

extension GalleryRecord {
    // By hand rather than through Codable: every change reads this row, and GRDB's Codable bridge was most
    // of that read's time.
    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        createdAt = row["createdAt"]
        updatedAt = row["updatedAt"]
        deletedAt = row["deletedAt"]
        revision = row["revision"]
        ownerId = row["ownerId"]
    }
}

extension GalleryItemRecord {
    // By hand rather than through Codable, both ways: a gallery's read maps every row, an add writes one.
    init(row: Row) throws {
        id = row["id"]
        galleryId = row["galleryId"]
        position = row["position"]
        item = row["item"]
        sourceURL = row["sourceURL"]
        imageHash = row["imageHash"]
        imageFormat = row["imageFormat"]
        imageSize = row["imageSize"]
        width = row["width"]
        height = row["height"]
        addedAt = row["addedAt"]
        pictureHash = row["pictureHash"]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["galleryId"] = galleryId
        container["position"] = position
        container["item"] = item
        container["sourceURL"] = sourceURL
        container["imageHash"] = imageHash
        container["imageFormat"] = imageFormat
        container["imageSize"] = imageSize
        container["width"] = width
        container["height"] = height
        container["addedAt"] = addedAt
        container["pictureHash"] = pictureHash
    }
}
