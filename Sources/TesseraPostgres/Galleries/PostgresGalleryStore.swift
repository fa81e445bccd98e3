import Foundation
import Logging
import PostgresNIO
import Synchronization
import TesseraCore
import TesseraGalleries

/// Galleries and their items in PostgreSQL: the shared engine of `GalleryStoring`, the same contract as the
/// SQLite `SQLiteGalleryStore` (one suite tests both).
///
/// Every change is one transaction that first locks the gallery's row (`SELECT … FOR UPDATE`), so changes to
/// one gallery from several servers take turns and revisions never fork. Within this server, changes to one
/// gallery also run one at a time and `onChange` is told after each commit, before that gallery's next change
/// starts: in commit order per gallery, which is all the streams need (`GalleryEvents` keeps subscribers,
/// revisions and missed changes per gallery; nothing orders changes across galleries). Changes to different
/// galleries run side by side (`KeyedSerialQueue`). Each change also writes its event row in its transaction,
/// which is how every server hears of it (`PostgresGalleryEvents`).
///
/// Split by concern: reads (`+Reading`), changes (`+Writing`), item order (`+Ordering`).
public final class PostgresGalleryStore: GalleryStoring {
    let database: PostgresAppDatabase
    let linker: any ImageLinking
    let onChange: @Sendable (GalleryID, GalleryChange) -> Void
    let now: @Sendable () -> Double
    private let writes = KeyedSerialQueue()

    public init(
        database: PostgresAppDatabase, linker: any ImageLinking,
        onChange: @escaping @Sendable (GalleryID, GalleryChange) -> Void = { _, _ in },
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.database = database
        self.linker = linker
        self.onChange = onChange
        self.now = now
    }

    /// A read on one connection; what fails becomes a `GalleryError` (`storage` unless it is one).
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws(GalleryError) -> T
    {
        try await Self.galleryErrors { try await self.database.withConnection(body) }
    }

    /// A change to gallery `id`: one transaction, ending with the event of the change it reports, written in one
    /// statement with the revision bump and the added item, if any (`PostgresGalleryEvents.record`); then
    /// `onChange` with that change, before the gallery's next change starts.
    func write<T: Sendable>(
        _ id: GalleryID, _ body: @escaping @Sendable (PostgresConnection) async throws -> (T, PendingChange?)
    ) async throws(GalleryError) -> T {
        let database = database
        let onChange = onChange
        return try await Self.galleryErrors {
            try await self.writes.run(id.rawValue) {
                let (value, change) = try await database.withTransaction { connection in
                    let (value, pending) = try await body(connection)
                    if let event = pending?.recordedAs {
                        try await PostgresGalleryEvents.prune(after: event, connection)
                    } else if let pending {
                        try await PostgresGalleryEvents.record(
                            pending.change, of: id, bumping: pending.bumped, inserting: pending.inserted, connection)
                    }
                    return (value, pending?.change)
                }
                if let change { onChange(id, change) }
                return value
            }
        }
    }

    static func galleryErrors<T>(_ body: () async throws -> T) async throws(GalleryError) -> T {
        try await GalleryError.fromStore(body)
    }
}

/// What a change leaves for the statement that ends its transaction: the change (its event), the gallery row
/// with its new revision (written there), and the item it adds (inserted there); or the id of its event when
/// the change wrote that itself (an add at either end, `addAtAnEnd`).
struct PendingChange: Sendable {
    var change: GalleryChange
    var bumped: GalleryRow?
    var inserted: GalleryItemRow?
    var recordedAs: Int64?

    init(change: GalleryChange, bumped: GalleryRow? = nil, inserted: GalleryItemRow? = nil) {
        (self.change, self.bumped, self.inserted) = (change, bumped, inserted)
    }

    init(change: GalleryChange, recordedAs event: Int64) {
        (self.change, recordedAs) = (change, event)
    }
}

/// Runs the operations of one key one after another, each to its end, in the order they were handed in;
/// those of different keys run side by side.
final class KeyedSerialQueue: Sendable {
    /// The last operation of each key still running, with a number telling it from its successors.
    private let tails = Mutex<(next: UInt64, tails: [String: (number: UInt64, task: Task<Void, Never>)])>((0, [:]))

    func run<T: Sendable>(_ key: String, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = tails.withLock { state -> Task<T, any Error> in
            let previous = state.tails[key]?.task
            let task = Task<T, any Error> {
                await previous?.value
                return try await operation()
            }
            state.next += 1
            let number = state.next
            state.tails[key] = (
                number,
                Task {
                    _ = try? await task.value
                    self.finished(key, number)
                }
            )
            return task
        }
        return try await task.value
    }

    /// Forgets the key once its last operation has ended, so the map holds only busy galleries.
    private func finished(_ key: String, _ number: UInt64) {
        tails.withLock { state in
            if state.tails[key]?.number == number { state.tails[key] = nil }
        }
    }
}

// MARK: - Rows

/// A `gallery` row: id, name, created_at, updated_at, deleted_at, revision.
struct GalleryRow: Sendable {
    static let columns = "id, name, created_at, updated_at, deleted_at, revision"
    var id: String
    var name: String
    var createdAt: Double
    var updatedAt: Double
    var deletedAt: Double?
    var revision: Int

    static func all(_ rows: PostgresRowSequence) async throws -> [GalleryRow] {
        var result: [GalleryRow] = []
        for try await (id, name, created, updated, deleted, revision) in rows.decode(
            (String, String, Double, Double, Double?, Int).self)
        {
            result.append(
                GalleryRow(
                    id: id, name: name, createdAt: created, updatedAt: updated, deletedAt: deleted, revision: revision))
        }
        return result
    }
}

/// A `gallery_item` row.
struct GalleryItemRow: Sendable {
    static let columns =
        "id, gallery_id, position, item, source_url, image_hash, image_format, image_size, width, height, added_at"
    var id: String
    var galleryID: String
    var position: Int64
    var item: String
    var sourceURL: String?
    var imageHash: String
    var imageFormat: String
    var imageSize: Int
    var width: Int
    var height: Int
    var addedAt: Double
    /// The picture's perceptual hash (its 64 bits; migration 10): written, never read with the row.
    var pictureHash: Int64? = nil

    /// What an insert writes: `columns` and the picture hash.
    static let writtenColumns = columns + ", picture_hash"

    /// This row's values as `(…)`, each bound, in `writtenColumns`' order: the one place that order is spelt
    /// for writing (an add's statement, `PostgresGalleryEvents.record`; `tessera migrate`'s copy).
    func appendValues(to sql: inout PostgresQuery.StringInterpolation) {
        sql.appendLiteral("(")
        sql.appendInterpolation(id)
        sql.appendLiteral(", ")
        sql.appendInterpolation(galleryID)
        sql.appendLiteral(", ")
        sql.appendInterpolation(position)
        sql.appendLiteral(", ")
        sql.appendInterpolation(item)
        sql.appendLiteral(", ")
        sql.appendInterpolation(sourceURL)
        sql.appendLiteral(", ")
        sql.appendInterpolation(imageHash)
        sql.appendLiteral(", ")
        sql.appendInterpolation(imageFormat)
        sql.appendLiteral(", ")
        sql.appendInterpolation(imageSize)
        sql.appendLiteral(", ")
        sql.appendInterpolation(width)
        sql.appendLiteral(", ")
        sql.appendInterpolation(height)
        sql.appendLiteral(", ")
        sql.appendInterpolation(addedAt)
        sql.appendLiteral(", ")
        sql.appendInterpolation(pictureHash)
        sql.appendLiteral(")")
    }

    static func all(_ rows: PostgresRowSequence) async throws -> [GalleryItemRow] {
        var result: [GalleryItemRow] = []
        for try await row in rows.decode(
            (String, String, Int64, String, String?, String, String, Int, Int, Int, Double).self)
        {
            result.append(
                GalleryItemRow(
                    id: row.0, galleryID: row.1, position: row.2, item: row.3, sourceURL: row.4, imageHash: row.5,
                    imageFormat: row.6, imageSize: row.7, width: row.8, height: row.9, addedAt: row.10))
        }
        return result
    }
}
