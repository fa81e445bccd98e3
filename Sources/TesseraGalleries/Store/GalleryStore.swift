import Foundation
import GRDB
import TesseraCore
import TesseraStorage

/// An image ready to become a gallery item: the item it comes from and its stored copy.
public struct NewGalleryImage: Sendable {
    public var item: Item
    public var sourceURL: String?
    public var hash: String
    public var format: String
    public var size: Int
    public var width: Int
    public var height: Int

    public init(item: Item, sourceURL: String?, hash: String, format: String, size: Int, width: Int, height: Int) {
        self.item = item
        self.sourceURL = sourceURL
        self.hash = hash
        self.format = format
        self.size = size
        self.width = width
        self.height = height
    }
}

/// Galleries and their items in SQLite. Every change is one write transaction that checks `If-Match`,
/// bumps the gallery's revision and, once committed, tells `onChange` (on the writer's queue, so changes
/// are told in commit order).
///
/// Order is kept by gap-based integer positions: adding or moving an item writes one row, between its
/// new neighbours; only when two neighbours have no room left is the gallery renumbered, in the same
/// transaction.
public final class GalleryStore: Sendable {
    static let gap: Int64 = 1 << 16

    private let writer: any DatabaseWriter
    private let linker: any ImageLinking
    private let onChange: @Sendable (String, GalleryChange) -> Void
    private let now: @Sendable () -> Double

    public init(
        database: AppDatabase, linker: any ImageLinking,
        onChange: @escaping @Sendable (String, GalleryChange) -> Void = { _, _ in },
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.writer = database.writer
        self.linker = linker
        self.onChange = onChange
        self.now = now
    }

    // MARK: - Reading

    /// Galleries not deleted, most recently updated first; or those in Recently deleted, latest first.
    public func list(deleted: Bool = false) async throws -> [Gallery] {
        let linker = linker
        return try await writer.read { db in
            let records =
                try deleted
                ? GalleryRecord.filter(sql: "deletedAt IS NOT NULL").order(sql: "deletedAt DESC").fetchAll(db)
                : GalleryRecord.filter(sql: "deletedAt IS NULL").order(sql: "updatedAt DESC, createdAt DESC").fetchAll(
                    db)
            return try records.map { try Self.summary($0, db, linker: linker) }
        }
    }

    /// One gallery, with its items in order when `items` is true.
    public func gallery(_ id: String, items: Bool = true) async throws(GalleryError) -> Gallery {
        guard GalleryIDs.isValid(id, prefix: "g_") else { throw .galleryNotFound(id) }
        let linker = linker
        return try await run {
            try await self.writer.read { db in
                guard let record = try GalleryRecord.fetchOne(db, key: id) else {
                    throw GalleryError.galleryNotFound(id)
                }
                var gallery = try Self.summary(record, db, linker: linker)
                if items {
                    gallery.items = try GalleryItemRecord.filter(sql: "galleryId = ?", arguments: [id])
                        .order(sql: "position").fetchAll(db).map { try Self.item($0, linker: linker) }
                }
                return gallery
            }
        }
    }

    /// Revisions of these galleries now (missing ones left out), for streams watching for outside changes.
    public func revisions(of ids: [String]) async throws -> [String: Int] {
        try await Self.revisions(in: writer, of: ids)
    }

    /// The same, given only the database (the event poller is made before the store).
    public static func revisions(in database: AppDatabase, of ids: [String]) async throws -> [String: Int] {
        try await revisions(in: database.writer, of: ids)
    }

    private static func revisions(in writer: any DatabaseWriter, of ids: [String]) async throws -> [String: Int] {
        guard !ids.isEmpty else { return [:] }
        return try await writer.read { db in
            var revisions: [String: Int] = [:]
            for record in try GalleryRecord.filter(keys: ids).fetchAll(db) { revisions[record.id] = record.revision }
            return revisions
        }
    }

    /// Each item's stored image: its hash and format.
    public func storedImages(of id: String) async throws(GalleryError) -> [String: (hash: String, format: String)] {
        try await run {
            try await self.writer.read { db in
                var images: [String: (hash: String, format: String)] = [:]
                for row in try Row.fetchAll(
                    db, sql: "SELECT id, imageHash, imageFormat FROM galleryItem WHERE galleryId = ?", arguments: [id])
                {
                    images[row["id"]] = (row["imageHash"], row["imageFormat"])
                }
                return images
            }
        }
    }

    /// Every stored image some item names.
    public func referencedHashes() async throws -> Set<String> {
        try await writer.read { db in Set(try String.fetchAll(db, sql: "SELECT DISTINCT imageHash FROM galleryItem")) }
    }

    // MARK: - Galleries

    public func create(name rawName: String) async throws(GalleryError) -> Gallery {
        let name = try GalleryName.validated(rawName)
        let time = now()
        let record = GalleryRecord(
            id: GalleryIDs.gallery(), name: name, createdAt: time, updatedAt: time, deletedAt: nil, revision: 1)
        let linker = linker
        return try await run {
            try await self.writer.write { db in
                try record.insert(db)
                var gallery = try Self.summary(record, db, linker: linker)
                gallery.items = []
                return gallery
            }
        }
    }

    public func rename(_ id: String, to rawName: String, ifRevision: Int? = nil) async throws(GalleryError) -> Gallery {
        let name = try GalleryName.validated(rawName)
        return try await changeGallery(id, ifRevision: ifRevision) { record, _ in
            record.name = name
            return .renamed(revision: record.revision, name: name)
        }
    }

    /// To Recently deleted.
    public func delete(_ id: String, ifRevision: Int? = nil) async throws(GalleryError) -> Gallery {
        try await changeGallery(id, ifRevision: ifRevision) { record, time in
            record.deletedAt = time
            return .deleted(revision: record.revision, deletedAt: Timestamp.text(time))
        }
    }

    public func restore(_ id: String, ifRevision: Int? = nil) async throws(GalleryError) -> Gallery {
        try await changeGallery(id, ifRevision: ifRevision, allowDeleted: true) { record, _ in
            record.deletedAt = nil
            return .restored(revision: record.revision)
        }
    }

    /// Removes the gallery and its items; returns the image hashes no other item uses any more.
    public func deletePermanently(_ id: String, ifRevision: Int? = nil) async throws(GalleryError) -> Set<String> {
        guard GalleryIDs.isValid(id, prefix: "g_") else { throw .galleryNotFound(id) }
        let onChange = onChange
        return try await run {
            try await self.writer.write { db in
                let record = try Self.record(id, db, ifRevision: ifRevision, allowDeleted: true)
                let hashes = Set(
                    try String.fetchAll(
                        db, sql: "SELECT DISTINCT imageHash FROM galleryItem WHERE galleryId = ?", arguments: [id]))
                _ = try record.delete(db)
                let stillUsed = Set(
                    try String.fetchAll(
                        db,
                        sql:
                            "SELECT DISTINCT imageHash FROM galleryItem WHERE imageHash IN (SELECT value FROM json_each(?))",
                        arguments: [String(decoding: try JSONEncoder().encode(Array(hashes)), as: UTF8.self)]))
                db.afterNextTransaction { _ in onChange(id, .gone) }
                return hashes.subtracting(stillUsed)
            }
        }
    }

    // MARK: - Items

    /// Adds `image` at `index` (0-based, in the order after the change; `nil` or past the end: at the end).
    public func add(_ image: NewGalleryImage, to id: String, at index: Int? = nil, ifRevision: Int? = nil)
        async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int)
    {
        if let index, index < 0 { throw .invalidIndex(index) }
        let itemJSON: String
        do {
            itemJSON = String(decoding: try Self.encoder.encode(image.item), as: UTF8.self)
        } catch {
            throw .invalidItem("The item could not be stored: \(error)")
        }
        let time = now()
        let record = GalleryItemRecord(
            id: GalleryIDs.item(), galleryId: id, position: 0, item: itemJSON, sourceURL: image.sourceURL,
            imageHash: image.hash, imageFormat: image.format, imageSize: image.size, width: image.width,
            height: image.height, addedAt: time)
        let linker = linker
        let onChange = onChange
        return try await run {
            try await self.writer.write { db in
                var gallery = try Self.record(id, db, ifRevision: ifRevision)
                var row = record
                let (position, placed) = try Self.position(in: id, at: index, moving: nil, db)
                row.position = position
                try row.insert(db)
                try Self.bump(&gallery, at: time, db)
                let item = try Self.item(row, linker: linker)
                let change = GalleryChange.added(revision: gallery.revision, index: placed, item: item)
                db.afterNextTransaction { _ in onChange(id, change) }
                return (item, placed, gallery.revision)
            }
        }
    }

    /// Removes an item; returns the new revision. (Its image file is left for `GalleryService` to decide.)
    public func remove(_ itemID: String, from id: String, ifRevision: Int? = nil) async throws(GalleryError) -> Int {
        let time = now()
        let onChange = onChange
        return try await run {
            try await self.writer.write { db in
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
    public func move(_ itemID: String, in id: String, to index: Int, ifRevision: Int? = nil) async throws(GalleryError)
        -> (revision: Int, index: Int)
    {
        guard index >= 0 else { throw .invalidIndex(index) }
        let time = now()
        let onChange = onChange
        return try await run {
            try await self.writer.write { db in
                var gallery = try Self.record(id, db, ifRevision: ifRevision)
                var row = try Self.item(itemID, of: id, db)
                let (position, placed) = try Self.position(in: id, at: index, moving: row, db)
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
    private static func record(_ id: String, _ db: Database, ifRevision: Int?, allowDeleted: Bool = false) throws
        -> GalleryRecord
    {
        guard GalleryIDs.isValid(id, prefix: "g_"), let record = try GalleryRecord.fetchOne(db, key: id) else {
            throw GalleryError.galleryNotFound(id)
        }
        if let ifRevision, ifRevision != record.revision {
            throw GalleryError.revisionMismatch(expected: ifRevision, current: record.revision)
        }
        if record.deletedAt != nil && !allowDeleted { throw GalleryError.galleryDeleted }
        return record
    }

    private static func item(_ itemID: String, of galleryID: String, _ db: Database) throws -> GalleryItemRecord {
        guard
            let row = try GalleryItemRecord.filter(sql: "id = ? AND galleryId = ?", arguments: [itemID, galleryID])
                .fetchOne(db)
        else { throw GalleryError.itemNotFound(itemID) }
        return row
    }

    /// One more revision, now.
    private static func bump(_ gallery: inout GalleryRecord, at time: Double, _ db: Database) throws {
        gallery.revision += 1
        gallery.updatedAt = time
        try gallery.update(db)
    }

    private func changeGallery(
        _ id: String, ifRevision: Int?, allowDeleted: Bool = false,
        _ change: @escaping @Sendable (inout GalleryRecord, Double) -> GalleryChange
    ) async throws(GalleryError) -> Gallery {
        let time = now()
        let linker = linker
        let onChange = onChange
        return try await run {
            try await self.writer.write { db in
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

    /// The position for an item placed at `index` among the gallery's other items (all but `moving`),
    /// and the index it ends up at. Renumbers the gallery when the neighbours have no room between them.
    ///
    /// Every query reads only the (galleryId, position) index, never the rows: the item being moved is
    /// accounted for by its rank instead of being filtered out, so a move in a 10,000-item gallery walks
    /// part of one index and touches one row.
    private static func position(
        in galleryID: String, at index: Int?, moving: GalleryItemRecord?, _ db: Database
    ) throws -> (Int64, Int) {
        let total =
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM galleryItem WHERE galleryId = ?", arguments: [galleryID])
            ?? 0
        let count = total - (moving == nil ? 0 : 1)
        let target = min(index ?? count, count)
        let rank = try moving.map {
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM galleryItem WHERE galleryId = ? AND position < ?",
                arguments: [galleryID, $0.position]) ?? 0
        }
        if let moving, let rank, rank == target { return (moving.position, target) }
        // Index among the others → index among all.
        let all = { (other: Int) -> Int in
            guard let rank else { return other }
            return other < rank ? other : other + 1
        }
        if target == count {
            let last = try Int64.fetchOne(
                db,
                sql:
                    "SELECT position FROM galleryItem WHERE galleryId = ? AND position IS NOT ? ORDER BY position DESC LIMIT 1",
                arguments: [galleryID, moving?.position])
            return ((last ?? 0) + gap, target)
        }
        if target == 0 {
            let first = try Int64.fetchOne(
                db, sql: "SELECT position FROM galleryItem WHERE galleryId = ? ORDER BY position LIMIT 1 OFFSET ?",
                arguments: [galleryID, all(0)])
            return ((first ?? 0) - gap, 0)
        }
        // The neighbours, next to each other among all items (the moving one is elsewhere, or the move is a no-op).
        let neighbours = try Int64.fetchAll(
            db, sql: "SELECT position FROM galleryItem WHERE galleryId = ? ORDER BY position LIMIT 2 OFFSET ?",
            arguments: [galleryID, all(target - 1)])
        let (before, after) = (neighbours[0], neighbours[1])
        if after - before > 1 { return (before + (after - before) / 2, target) }
        try renumber(galleryID, db)
        let renumbered = try moving.map { try GalleryItemRecord.fetchOne(db, key: $0.id) } ?? nil
        return try position(in: galleryID, at: index, moving: renumbered, db)
    }

    /// Spreads the gallery's positions out again, `gap` apart, keeping the order. Negative values first,
    /// so no two rows ever share a position on the way (the unique key stays checked throughout).
    private static func renumber(_ galleryID: String, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE galleryItem SET position = -position - 1 WHERE galleryId = ?", arguments: [galleryID])
        let ids = try String.fetchAll(
            db, sql: "SELECT id FROM galleryItem WHERE galleryId = ? ORDER BY position DESC", arguments: [galleryID])
        let update = try db.makeStatement(sql: "UPDATE galleryItem SET position = ? WHERE id = ?")
        for (offset, id) in ids.enumerated() {
            try update.execute(arguments: [Int64(offset + 1) * gap, id])
        }
    }

    // MARK: - Rows to API values

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func summary(_ record: GalleryRecord, _ db: Database, linker: any ImageLinking) throws -> Gallery {
        let count =
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM galleryItem WHERE galleryId = ?", arguments: [record.id]) ?? 0
        let first = try GalleryItemRecord.filter(sql: "galleryId = ?", arguments: [record.id]).order(sql: "position")
            .fetchOne(db)
        return Gallery(
            id: record.id, name: record.name, itemCount: count,
            cover: first.map { refs(for: $0, linker: linker).thumbnail },
            createdAt: Timestamp.text(record.createdAt), updatedAt: Timestamp.text(record.updatedAt),
            deletedAt: record.deletedAt.map(Timestamp.text), revision: record.revision)
    }

    static func item(_ record: GalleryItemRecord, linker: any ImageLinking) throws -> GalleryItem {
        let item = try JSONDecoder().decode(Item.self, from: Data(record.item.utf8))
        return GalleryItem(
            id: record.id, item: item, sourceURL: record.sourceURL, size: record.imageSize,
            image: refs(for: record, linker: linker), addedAt: Timestamp.text(record.addedAt))
    }

    static func refs(for record: GalleryItemRecord, linker: any ImageLinking) -> StoredImageRefs {
        StoredImageRefs(hash: record.imageHash, width: record.width, height: record.height, linker: linker)
    }

    /// Runs a database call, turning what it throws into a `GalleryError`.
    private func run<T>(_ body: () async throws -> T) async throws(GalleryError) -> T {
        do {
            return try await body()
        } catch let error as GalleryError {
            throw error
        } catch {
            throw GalleryError(status: 500, code: "storage_failed", message: "The gallery could not be saved: \(error)")
        }
    }
}

/// `stored:<sha256>`: how a gallery's own image copies are named to the image proxy.
public enum StoredReference {
    public static let prefix = "stored:"

    public static func reference(for hash: String) -> String { prefix + hash }

    /// The hash a reference names, when it is one of ours.
    public static func hash(of reference: String) -> String? {
        guard reference.hasPrefix(prefix) else { return nil }
        let hash = String(reference.dropFirst(prefix.count))
        return GalleryImageFiles.isValidHash(hash) ? hash : nil
    }
}
