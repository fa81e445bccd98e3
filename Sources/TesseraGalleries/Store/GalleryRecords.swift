import Foundation
import GRDB

/// A `gallery` row.
struct GalleryRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "gallery"
    var id: String
    var name: String
    var createdAt: Double
    var updatedAt: Double
    var deletedAt: Double?
    var revision: Int
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
}
