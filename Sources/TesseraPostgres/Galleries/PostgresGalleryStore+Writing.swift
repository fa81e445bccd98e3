import Foundation
import PostgresNIO
import TesseraCore
import TesseraGalleries

extension PostgresGalleryStore {
    // MARK: - Galleries

    public func create(name rawName: String, owner: String?) async throws(GalleryError) -> Gallery {
        let name = try GalleryName.validated(rawName)
        let time = now()
        let id = GalleryID.random()
        let linker = linker
        return try await write(id) { connection in
            try await connection.query(
                """
                INSERT INTO gallery (id, name, created_at, updated_at, deleted_at, revision, owner_id)
                VALUES (\(id.rawValue), \(name), \(time), \(time), NULL, 1, \(owner))
                """, logger: .quiet)
            var gallery = try await Self.summary(
                GalleryRow(id: id.rawValue, name: name, createdAt: time, updatedAt: time, deletedAt: nil, revision: 1),
                connection, linker: linker)
            gallery.items = []
            return (gallery, nil)
        }
    }

    public func rename(_ id: GalleryID, to rawName: String, ifRevision: Int?) async throws(GalleryError) -> Gallery {
        let name = try GalleryName.validated(rawName)
        return try await changeGallery(id, ifRevision: ifRevision) { row, _ in
            row.name = name
            return .renamed(revision: row.revision, name: name)
        }
    }

    public func delete(_ id: GalleryID, ifRevision: Int?) async throws(GalleryError) -> Gallery {
        try await changeGallery(id, ifRevision: ifRevision) { row, time in
            row.deletedAt = time
            return .deleted(revision: row.revision, deletedAt: Timestamp.text(time))
        }
    }

    public func restore(_ id: GalleryID, ifRevision: Int?) async throws(GalleryError) -> Gallery {
        try await changeGallery(id, ifRevision: ifRevision, allowDeleted: true) { row, _ in
            row.deletedAt = nil
            return .restored(revision: row.revision)
        }
    }

    public func deletePermanently(_ id: GalleryID, ifRevision: Int?) async throws(GalleryError) -> Set<String> {
        try await write(id) { connection in
            _ = try await Self.checkedRow(id, connection, ifRevision: ifRevision, allowDeleted: true)
            var unused: Set<String> = []
            for try await hash in try await connection.query(
                """
                SELECT DISTINCT image_hash FROM gallery_item own WHERE gallery_id = \(id.rawValue)
                AND NOT EXISTS (
                    SELECT 1 FROM gallery_item other
                    WHERE other.image_hash = own.image_hash AND other.gallery_id <> \(id.rawValue))
                """, logger: .quiet
            ).decode(String.self) {
                unused.insert(hash)
            }
            try await connection.query("DELETE FROM gallery WHERE id = \(id.rawValue)", logger: .quiet)
            return (unused, PendingChange(change: .gone))
        }
    }

    // MARK: - Items

    public func add(_ image: NewGalleryImage, to id: GalleryID, at index: Int?, ifRevision: Int?)
        async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int)
    {
        if let index, index < 0 { throw .invalidIndex(index) }
        let itemJSON = image.itemJSON()
        let time = now()
        let itemID = GalleryItemID.random()
        let linker = linker
        let added: AddedItem = try await write(id) { connection in
            var row = GalleryItemRow(
                id: itemID.rawValue, galleryID: id.rawValue, position: 0, item: itemJSON,
                sourceURL: image.sourceURL, imageHash: image.hash, imageFormat: image.format, imageSize: image.size,
                width: image.width, height: image.height, addedAt: time,
                pictureHash: image.pictureHash.map { Int64(bitPattern: $0.bits) })
            let item = try Self.item(row, linker: linker)
            // First or last (most adds): one call (migration 12) that locks, places, inserts and writes the event.
            if let (revision, placed, event) = try await Self.addAtAnEnd(
                row, item: item, at: index, ifRevision: ifRevision, time: time, connection)
            {
                let change = GalleryChange.added(revision: revision, index: placed, item: item)
                return (
                    AddedItem(item: item, index: placed, revision: revision),
                    PendingChange(change: change, recordedAs: event)
                )
            }
            // Between two items: the row is locked already; place it among its neighbours.
            var gallery = try await Self.checkedRow(id, connection, ifRevision: ifRevision)
            let (position, placed) = try await Self.position(in: id.rawValue, at: index, moving: nil, connection)
            row.position = position
            Self.bump(&gallery, at: time)
            let change = GalleryChange.added(revision: gallery.revision, index: placed, item: item)
            return (
                AddedItem(item: item, index: placed, revision: gallery.revision),
                PendingChange(change: change, bumped: gallery, inserted: row)
            )
        }
        return (added.item, added.index, added.revision)
    }

    public func remove(_ itemID: GalleryItemID, from id: GalleryID, ifRevision: Int?) async throws(GalleryError)
        -> Int
    {
        let time = now()
        return try await write(id) { connection in
            var gallery = try await Self.checkedRow(id, connection, ifRevision: ifRevision)
            _ = try await Self.itemRow(itemID, of: id, connection)
            try await connection.query("DELETE FROM gallery_item WHERE id = \(itemID.rawValue)", logger: .quiet)
            Self.bump(&gallery, at: time)
            let change = GalleryChange.removed(revision: gallery.revision, itemID: itemID)
            return (gallery.revision, PendingChange(change: change, bumped: gallery))
        }
    }

    public func move(_ itemID: GalleryItemID, in id: GalleryID, to index: Int, ifRevision: Int?)
        async throws(GalleryError) -> (revision: Int, index: Int)
    {
        guard index >= 0 else { throw .invalidIndex(index) }
        let time = now()
        let moved: [Int] = try await write(id) { connection in
            var gallery = try await Self.checkedRow(id, connection, ifRevision: ifRevision)
            let row = try await Self.itemRow(itemID, of: id, connection)
            let (position, placed) = try await Self.position(in: id.rawValue, at: index, moving: row, connection)
            if position != row.position {
                try await connection.query(
                    "UPDATE gallery_item SET position = \(position) WHERE id = \(itemID.rawValue)", logger: .quiet)
            }
            Self.bump(&gallery, at: time)
            let change = GalleryChange.moved(revision: gallery.revision, itemID: itemID, index: placed)
            return ([gallery.revision, placed], PendingChange(change: change, bumped: gallery))
        }
        return (moved[0], moved[1])
    }

    // MARK: - Inside transactions

    /// The gallery's row, locked until the transaction ends, after the checks every change makes: it exists,
    /// is not deleted, and `If-Match` holds.
    static func checkedRow(
        _ id: GalleryID, _ connection: PostgresConnection, ifRevision: Int?, allowDeleted: Bool = false
    ) async throws -> GalleryRow {
        let row = try await galleryRow(id, connection, lock: true)
        if let ifRevision, ifRevision != row.revision {
            throw GalleryError.revisionMismatch(expected: ifRevision, current: row.revision)
        }
        if row.deletedAt != nil && !allowDeleted { throw GalleryError.galleryDeleted }
        return row
    }

    /// Adds `row` first or last in its gallery in one call (`gallery_add_item`, migration 12), after the checks
    /// `checkedRow` makes, with its revision and event: the new revision, the index and the event's id; nil when
    /// the item goes between two others (nothing written, the gallery's row locked).
    static func addAtAnEnd(
        _ row: GalleryItemRow, item: GalleryItem, at index: Int?, ifRevision: Int?, time: Double,
        _ connection: PostgresConnection
    ) async throws -> (revision: Int, index: Int, event: Int64)? {
        var stored = StoredChange(.added(revision: 0, index: 0, item: item))
        (stored.revision, stored.index) = (nil, nil)
        let change = try stored.encoded()
        var sql = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 18)
        sql.appendLiteral("SELECT outcome, new_revision, placed, event_id FROM gallery_add_item(ROW")
        row.appendValues(to: &sql)
        sql.appendLiteral("::gallery_item, ")
        sql.appendInterpolation(ifRevision)
        sql.appendLiteral(", ")
        sql.appendInterpolation(index)
        sql.appendLiteral(", ")
        sql.appendInterpolation(time)
        sql.appendLiteral(", ")
        sql.appendInterpolation(change)
        sql.appendLiteral(", ")
        sql.appendInterpolation(PostgresGalleryEvents.channel)
        sql.appendLiteral(", \(PostgresGalleryEvents.notifyLimit), ")
        sql.appendInterpolation(gap)
        sql.appendLiteral(")")
        for try await (outcome, revision, placed, event) in try await connection.query(
            PostgresQuery(stringInterpolation: sql), logger: .quiet
        ).decode((String, Int?, Int?, Int64?).self) {
            switch (outcome, revision, placed, event) {
            case ("added", let revision?, let placed?, let event?): return (revision, placed, event)
            case ("between", _, _, _): return nil
            case ("not_found", _, _, _): throw GalleryError.galleryNotFound(row.galleryID)
            case ("deleted", _, _, _): throw GalleryError.galleryDeleted
            case ("revision_mismatch", let current?, _, _):
                throw GalleryError.revisionMismatch(expected: ifRevision ?? current, current: current)
            default: break
            }
            throw GalleryError.storage(underlying: UnexpectedOutcome(outcome: outcome))
        }
        throw GalleryError.storage(underlying: UnexpectedOutcome(outcome: "no row"))
    }

    /// An answer of `gallery_add_item` this server does not know: a database newer than the binary.
    struct UnexpectedOutcome: Error, CustomStringConvertible {
        var outcome: String
        var description: String { "gallery_add_item answered \(outcome)" }
    }

    /// One more revision, now: written with the change's event (`PendingChange.bumped`).
    static func bump(_ gallery: inout GalleryRow, at time: Double) {
        gallery.revision += 1
        gallery.updatedAt = time
    }

    private func changeGallery(
        _ id: GalleryID, ifRevision: Int?, allowDeleted: Bool = false,
        _ change: @escaping @Sendable (inout GalleryRow, Double) -> GalleryChange
    ) async throws(GalleryError) -> Gallery {
        let time = now()
        let linker = linker
        return try await write(id) { connection in
            var row = try await Self.checkedRow(id, connection, ifRevision: ifRevision, allowDeleted: allowDeleted)
            row.revision += 1
            row.updatedAt = time
            let event = change(&row, time)
            try await connection.query(
                """
                UPDATE gallery SET name = \(row.name), updated_at = \(row.updatedAt), deleted_at = \(row.deletedAt),
                    revision = \(row.revision)
                WHERE id = \(row.id)
                """, logger: .quiet)
            return (try await Self.summary(row, connection, linker: linker), PendingChange(change: event))
        }
    }
}

/// What `add` hands out of its transaction.
struct AddedItem: Sendable {
    var item: GalleryItem
    var index: Int
    var revision: Int
}
