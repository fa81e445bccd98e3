import Foundation
import GRDB
import TesseraCore
import TesseraGalleries

extension SQLiteGalleryStore {
    /// Galleries not deleted, most recently updated first; or those in Recently deleted, latest first. With
    /// `account`, those it owns or is a member of (Recently deleted: owns), with owner and role.
    public func list(deleted: Bool, for account: String?) async throws(GalleryError) -> [Gallery] {
        let linker = linker
        return try await run {
            try await self.writer.read { db in
                typealias Columns = GalleryRecord.Columns
                guard let account else {
                    let request =
                        deleted
                        ? GalleryRecord.filter(Columns.deletedAt != nil).order(Columns.deletedAt.desc)
                        : GalleryRecord.filter(Columns.deletedAt == nil).order(
                            Columns.updatedAt.desc, Columns.createdAt.desc)
                    return try request.fetchAll(db).map { try Self.summary($0, db, linker: linker) }
                }
                let condition =
                    deleted
                    ? "g.ownerId = :account AND g.deletedAt IS NOT NULL ORDER BY g.deletedAt DESC"
                    : """
                    (g.ownerId = :account OR m.accountId IS NOT NULL) AND g.deletedAt IS NULL
                    ORDER BY g.updatedAt DESC, g.createdAt DESC
                    """
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT g.*, a.name AS ownerName,
                            CASE WHEN g.ownerId = :account THEN 'owner' ELSE m.role END AS accessRole
                        FROM gallery g
                        LEFT JOIN account a ON a.id = g.ownerId
                        LEFT JOIN galleryMember m ON m.galleryId = g.id AND m.accountId = :account
                        WHERE \(condition)
                        """,
                    arguments: ["account": account])
                return try rows.map { row in
                    var gallery = try Self.summary(GalleryRecord(row: row), db, linker: linker)
                    gallery.owner = row["ownerName"]
                    gallery.role = (row["accessRole"] as String?).flatMap(GalleryRole.init(rawValue:))
                    return gallery
                }
            }
        }
    }

    /// One gallery, with its items in order when `items` is true.
    public func gallery(_ id: GalleryID, items: Bool = true) async throws(GalleryError) -> Gallery {
        let linker = linker
        return try await run {
            try await self.writer.read { db in
                guard let record = try GalleryRecord.fetchOne(db, key: id.rawValue) else {
                    throw GalleryError.galleryNotFound(id.rawValue)
                }
                var gallery = try Self.summary(record, db, linker: linker)
                if items {
                    gallery.items = try GalleryItemRecord.inGallery(id.rawValue)
                        .order(GalleryItemRecord.Columns.position).fetchAll(db).map {
                            try Self.item($0, linker: linker)
                        }
                }
                return gallery
            }
        }
    }

    /// The galleries not deleted that hold these items (by the item's id inside its stored JSON: a scan of
    /// the items, which a person's galleries keep small).
    public func galleries(holding itemIDs: [String], for account: String?) async throws(GalleryError)
        -> [String: [GalleryRef]]
    {
        guard !itemIDs.isEmpty else { return [:] }
        return try await run {
            try await self.writer.read { db in
                // With an account, only galleries it may read (owned, or shared with it).
                let visible =
                    account == nil
                    ? ""
                    : """
                    AND (g.ownerId = ? OR EXISTS (
                        SELECT 1 FROM galleryMember m WHERE m.galleryId = g.id AND m.accountId = ?))
                    """
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT json_extract(i.item, '$.id') AS itemID, g.id AS galleryID, g.name AS name
                        FROM galleryItem i JOIN gallery g ON g.id = i.galleryId
                        WHERE g.deletedAt IS NULL
                          AND json_extract(i.item, '$.id') IN (\(databaseQuestionMarks(count: itemIDs.count)))
                          \(visible)
                        ORDER BY g.updatedAt DESC, g.id
                        """,
                    arguments: StatementArguments(itemIDs + (account.map { [$0, $0] } ?? [])))
                return GalleryRef.grouped(rows.map { ($0["itemID"], $0["galleryID"], $0["name"]) })
            }
        }
    }

    /// The gallery row alone: one lookup by key.
    public func state(of id: GalleryID) async throws(GalleryError) -> (revision: Int, deleted: Bool) {
        try await run {
            try await self.writer.read { db in
                guard let record = try Self.galleryRow(id, db) else { throw GalleryError.galleryNotFound(id.rawValue) }
                return (record.revision, record.deletedAt != nil)
            }
        }
    }

    /// Revisions of these galleries now (missing ones left out), for streams watching for outside changes.
    public func revisions(of ids: [GalleryID]) async throws(GalleryError) -> [GalleryID: Int] {
        guard !ids.isEmpty else { return [:] }
        return try await run {
            try await self.writer.read { db in
                var revisions: [GalleryID: Int] = [:]
                for record in try GalleryRecord.filter(keys: ids.map(\.rawValue)).fetchAll(db) {
                    revisions[GalleryID(unchecked: record.id)] = record.revision
                }
                return revisions
            }
        }
    }

    /// Each item's stored image.
    public func storedImages(of id: GalleryID) async throws(GalleryError) -> [GalleryItemID: StoredImage] {
        try await run {
            try await self.writer.read { db in
                typealias Columns = GalleryItemRecord.Columns
                let rows = try GalleryItemRecord.inGallery(id.rawValue)
                    .select(Columns.id, Columns.imageHash, Columns.imageFormat).asRequest(of: Row.self).fetchAll(db)
                var images: [GalleryItemID: StoredImage] = [:]
                for row in rows {
                    images[GalleryItemID(unchecked: row[Columns.id])] = StoredImage(
                        hash: row[Columns.imageHash], format: row[Columns.imageFormat])
                }
                return images
            }
        }
    }

    /// Item `itemID` as it was added: what adding it again elsewhere needs.
    public func image(of itemID: GalleryItemID, in id: GalleryID) async throws(GalleryError) -> NewGalleryImage {
        try await run {
            try await self.writer.read { db in
                guard
                    let row = try GalleryItemRecord.inGallery(id.rawValue)
                        .filter(GalleryItemRecord.Columns.id == itemID.rawValue).fetchOne(db)
                else { throw GalleryError.itemNotFound(itemID.rawValue) }
                return NewGalleryImage(
                    item: try FastJSONDecoder.decode(Item.self, from: Data(row.item.utf8)), sourceURL: row.sourceURL,
                    hash: row.imageHash, format: row.imageFormat, size: row.imageSize, width: row.width,
                    height: row.height)
            }
        }
    }

    /// Every stored image some item names.
    public func referencedHashes() async throws(GalleryError) -> Set<String> {
        try await run {
            try await self.writer.read { db in
                try GalleryItemRecord.select(GalleryItemRecord.Columns.imageHash, as: String.self).distinct()
                    .fetchSet(db)
            }
        }
    }
}
