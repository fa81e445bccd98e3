import Foundation
import Logging
import PostgresNIO
import Synchronization
import TesseraCore
import TesseraGalleries

/// Galleries and their items in PostgreSQL: the shared engine of `GalleryStoring`, the same contract as the
/// SQLite `GalleryStore` (one suite tests both).
///
/// Every change is one transaction that first locks the gallery's row (`SELECT … FOR UPDATE`), so changes to
/// one gallery from several servers take turns and revisions never fork. Within this server, changes also run
/// one at a time and `onChange` is told after each commit, before the next change starts: in commit order, as
/// the SQLite writer's queue does. Each change also writes its event row in its transaction, which is how every
/// server hears of it (`PostgresGalleryEvents`).
///
/// Split by concern: reads (`+Reading`), changes (`+Writing`), item order (`+Ordering`).
public final class PostgresGalleryStore: GalleryStoring {
    let database: PostgresAppDatabase
    let linker: any ImageLinking
    let onChange: @Sendable (GalleryID, GalleryChange) -> Void
    let now: @Sendable () -> Double
    private let writes = SerialQueue()

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

    /// A change: one transaction, with the event of the change it reports (`PostgresGalleryEvents`), then
    /// `onChange` with that change, before the next change starts.
    func write<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> (T, (GalleryID, GalleryChange)?)
    ) async throws(GalleryError) -> T {
        let database = database
        let onChange = onChange
        return try await Self.galleryErrors {
            try await self.writes.run {
                let (value, change) = try await database.withTransaction { connection in
                    let (value, change) = try await body(connection)
                    if let (id, change) = change {
                        try await PostgresGalleryEvents.record(change, of: id, connection)
                    }
                    return (value, change)
                }
                if let (id, change) = change { onChange(id, change) }
                return value
            }
        }
    }

    static func galleryErrors<T>(_ body: () async throws -> T) async throws(GalleryError) -> T {
        do {
            return try await body()
        } catch let error as GalleryError {
            throw error
        } catch {
            throw .storage(underlying: error)
        }
    }
}

/// Runs operations one after another, each to its end, in the order they were handed in.
final class SerialQueue: Sendable {
    private let tail = Mutex<Task<Void, Never>?>(nil)

    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = tail.withLock { tail -> Task<T, any Error> in
            let previous = tail
            let task = Task<T, any Error> {
                await previous?.value
                return try await operation()
            }
            tail = Task { _ = try? await task.value }
            return task
        }
        return try await task.value
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
