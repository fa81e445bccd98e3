import Foundation
import GRDB
import TesseraCore
import TesseraGalleries

extension SQLiteGalleryStore {
    // MARK: - Galleries

    public func create(name rawName: String, owner: String?) async throws(GalleryError) -> Gallery {
        let name = try GalleryName.validated(rawName)
        let time = now()
        let record = GalleryRecord(
            id: GalleryID.random().rawValue, name: name, createdAt: time, updatedAt: time, deletedAt: nil,
            revision: 1, ownerId: owner)
        let linker = linker
        return try await run {
            try await self.database.write { db in
                try record.insert(db)
                var gallery = try Self.summary(record, db, linker: linker)
                gallery.items = []
                return gallery
            }
        }
    }

    public func rename(_ id: GalleryID, to rawName: String, ifRevision: Int? = nil) async throws(GalleryError)
        -> Gallery
    {
        let name = try GalleryName.validated(rawName)
        return try await changeGallery(id, ifRevision: ifRevision) { record, _ in
            record.name = name
            return .renamed(revision: record.revision, name: name)
        }
    }

    /// To Recently deleted.
    public func delete(_ id: GalleryID, ifRevision: Int? = nil) async throws(GalleryError) -> Gallery {
        try await changeGallery(id, ifRevision: ifRevision) { record, time in
            record.deletedAt = time
            return .deleted(revision: record.revision, deletedAt: Timestamp.text(time))
        }
    }

    public func restore(_ id: GalleryID, ifRevision: Int? = nil) async throws(GalleryError) -> Gallery {
        try await changeGallery(id, ifRevision: ifRevision, allowDeleted: true) { record, _ in
            record.deletedAt = nil
            return .restored(revision: record.revision)
        }
    }

    /// Removes the gallery and its items; returns the image hashes no other item uses any more.
    public func deletePermanently(_ id: GalleryID, ifRevision: Int? = nil) async throws(GalleryError) -> Set<String> {
        let onChange = onChange
        return try await run {
            try await self.database.write { db in
                typealias Columns = GalleryItemRecord.Columns
                let record = try Self.record(id, db, ifRevision: ifRevision, allowDeleted: true)
                let own = GalleryItemRecord.inGallery(id.rawValue).select(Columns.imageHash, as: String.self)
                let hashes = try own.distinct().fetchSet(db)
                let stillUsed = try GalleryItemRecord.filter(Columns.galleryId != id.rawValue)
                    .filter(own.contains(Columns.imageHash)).select(Columns.imageHash, as: String.self).distinct()
                    .fetchSet(db)
                _ = try record.delete(db)
                db.afterNextTransaction { _ in onChange(id, .gone) }
                return hashes.subtracting(stillUsed)
            }
        }
    }

    // MARK: - Items

    /// Adds `image` at `index` (0-based, in the order after the change; `nil` or past the end: at the end).
    public func add(_ image: NewGalleryImage, to id: GalleryID, at index: Int? = nil, ifRevision: Int? = nil)
        async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int)
    {
        if let index, index < 0 { throw .invalidIndex(index) }
        let itemJSON = image.itemJSON()
        let time = now()
        let record = GalleryItemRecord(
            id: GalleryItemID.random().rawValue, galleryId: id.rawValue, position: 0, item: itemJSON,
            sourceURL: image.sourceURL, imageHash: image.hash, imageFormat: image.format, imageSize: image.size,
            width: image.width, height: image.height, addedAt: time, pictureHash: image.pictureHash?.description)
        let linker = linker
        let onChange = onChange
        return try await run {
            try await self.database.write { db in
                var gallery = try Self.record(id, db, ifRevision: ifRevision)
                var row = record
                let (position, placed) = try Self.position(in: id.rawValue, at: index, moving: nil, db)
                row.position = position
                try row.insert(db)
                try Self.bump(&gallery, at: time, db)
                // The stored JSON is `image.item` encoded, and Item's encoding reads back as the same value.
                let item = GalleryItem(
                    id: GalleryItemID(unchecked: row.id), item: image.item, sourceURL: row.sourceURL,
                    size: row.imageSize, image: Self.refs(for: row, linker: linker),
                    addedAt: Timestamp.text(row.addedAt))
                let change = GalleryChange.added(revision: gallery.revision, index: placed, item: item)
                db.afterNextTransaction { _ in onChange(id, change) }
                return (item, placed, gallery.revision)
            }
        }
    }

    /// Removes an item; returns the new revision. (Its image file is left for `GalleryService` to decide.)
    public func remove(_ itemID: GalleryItemID, from id: GalleryID, ifRevision: Int? = nil) async throws(GalleryError)
        -> Int
    {
        let time = now()
        let onChange = onChange
        return try await run {
            try await self.database.write { db in
                var gallery = try Self.record(id, db, ifRevision: ifRevision)
                _ = try Self.item(itemID, of: id, db).delete(db)
                try Self.bump(&gallery, at: time, db)
                let change = GalleryChange.removed(revision: gallery.revision, itemID: itemID)
                db.afterNextTransaction { _ in onChange(id, change) }
                return gallery.revision
            }
        }
    }

    /// Moves an item to `index` in the order after the move (past the end: last).
    public func move(_ itemID: GalleryItemID, in id: GalleryID, to index: Int, ifRevision: Int? = nil)
        async throws(GalleryError) -> (revision: Int, index: Int)
    {
        guard index >= 0 else { throw .invalidIndex(index) }
        let time = now()
        let onChange = onChange
        return try await run {
            try await self.database.write { db in
                var gallery = try Self.record(id, db, ifRevision: ifRevision)
                var row = try Self.item(itemID, of: id, db)
                let (position, placed) = try Self.position(in: id.rawValue, at: index, moving: row, db)
                if position != row.position {
                    row.position = position
                    try row.update(db)
                }
                try Self.bump(&gallery, at: time, db)
                let change = GalleryChange.moved(revision: gallery.revision, itemID: itemID, index: placed)
                db.afterNextTransaction { _ in onChange(id, change) }
                return (gallery.revision, placed)
            }
        }
    }

    // MARK: - Inside transactions

    /// The gallery row, after the checks every change makes: it exists, is not deleted, and `If-Match` holds.
    static func record(_ id: GalleryID, _ db: Database, ifRevision: Int?, allowDeleted: Bool = false) throws
        -> GalleryRecord
    {
        guard let record = try galleryRow(id, db) else {
            throw GalleryError.galleryNotFound(id.rawValue)
        }
        if let ifRevision, ifRevision != record.revision {
            throw GalleryError.revisionMismatch(expected: ifRevision, current: record.revision)
        }
        if record.deletedAt != nil && !allowDeleted { throw GalleryError.galleryDeleted }
        return record
    }

    /// The gallery row by its key, from a cached statement: every change reads it, and the query interface
    /// rebuilt its SQL each time.
    static func galleryRow(_ id: GalleryID, _ db: Database) throws -> GalleryRecord? {
        try GalleryRecord.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM gallery WHERE id = ?"), arguments: [id.rawValue])
    }

    private static func item(_ itemID: GalleryItemID, of galleryID: GalleryID, _ db: Database) throws
        -> GalleryItemRecord
    {
        guard
            let row = try GalleryItemRecord.inGallery(galleryID.rawValue)
                .filter(GalleryItemRecord.Columns.id == itemID.rawValue).fetchOne(db)
        else { throw GalleryError.itemNotFound(itemID.rawValue) }
        return row
    }

    /// One more revision, now.
    private static func bump(_ gallery: inout GalleryRecord, at time: Double, _ db: Database) throws {
        gallery.revision += 1
        gallery.updatedAt = time
        try db.cachedStatement(sql: "UPDATE gallery SET revision = ?, updatedAt = ? WHERE id = ?")
            .execute(arguments: [gallery.revision, time, gallery.id])
    }

    private func changeGallery(
        _ id: GalleryID, ifRevision: Int?, allowDeleted: Bool = false,
        _ change: @escaping @Sendable (inout GalleryRecord, Double) -> GalleryChange
    ) async throws(GalleryError) -> Gallery {
        let time = now()
        let linker = linker
        let onChange = onChange
        return try await run {
            try await self.database.write { db in
                var record = try Self.record(id, db, ifRevision: ifRevision, allowDeleted: allowDeleted)
                record.revision += 1
                record.updatedAt = time
                let event = change(&record, time)
                try record.update(db)
                db.afterNextTransaction { _ in onChange(id, event) }
                return try Self.summary(record, db, linker: linker)
            }
        }
    }
}
