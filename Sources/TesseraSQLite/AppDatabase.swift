import Foundation
import GRDB
import Metrics
import Synchronization
import TesseraCore
import TesseraDatabaseMetrics

/// Tessera's SQLite database: one file in the data folder, WAL mode, schema changes as named migrations.
///
/// Receives its writer (a `DatabasePool` on disk, a `DatabaseQueue` in memory for tests) and migrates it
/// before anything else can use it.
public final class AppDatabase: Sendable {
    public let writer: any DatabaseWriter
    /// Where writes (and, on PostgreSQL, pool checkouts) are counted; see `write`.
    public let metrics: DatabaseMetrics
    /// Writes asked for and not yet done: one more finds the writer busy.
    private let writesInFlight = Atomic<Int>(0)

    public init(_ writer: any DatabaseWriter, metrics: any MetricsFactory = NOOPMetricsHandler.instance) throws {
        self.writer = writer
        self.metrics = DatabaseMetrics(factory: metrics)
        try Self.migrator.migrate(writer)
    }

    /// One write transaction on the writer, counted in `metrics`: how long it waited for SQLite's one writer
    /// (GRDB queues writes), whether another write held it, how long it took, and whether it committed.
    /// Stores write through here rather than through `writer` directly.
    public func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let asked = ContinuousClock.now
        let queued = writesInFlight.add(1, ordering: .relaxed).oldValue > 0
        defer { writesInFlight.subtract(1, ordering: .relaxed) }
        let metrics = metrics
        let started = Mutex<ContinuousClock.Instant?>(nil)
        do {
            let value = try await writer.write { db in
                let now = ContinuousClock.now
                started.withLock { $0 = now }
                metrics.connectionTaken(waited: now - asked, queued: queued)
                return try updates(db)
            }
            if let start = started.withLock({ $0 }) {
                metrics.connectionReturned()
                metrics.writeTransaction(took: ContinuousClock.now - start, committed: true)
            }
            return value
        } catch {
            if started.withLock({ $0 }) != nil { metrics.connectionReturned() }
            metrics.writeTransaction(took: .zero, committed: false)
            throw error
        }
    }

    /// Opens (creating if needed) `tessera.sqlite` in `directory`.
    public static func open(
        inDirectory directory: URL, metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) throws -> AppDatabase {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        // WAL with synchronous=NORMAL: a commit is in the WAL before it returns, so it survives the process
        // being killed; only a power cut can lose the last commits. Without the fsync per commit a cache
        // write costs microseconds instead of milliseconds on every search's critical path.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let pool = try DatabasePool(
            path: DataFolder(directory).databaseFile.path, configuration: configuration)
        return try AppDatabase(pool, metrics: metrics)
    }

    /// Closes every connection now rather than when the last reference goes, so the file handles are given
    /// back at shutdown whatever still holds this object. Reads and writes afterwards throw.
    public func close() throws {
        if let pool = writer as? DatabasePool { try pool.close() }
        if let queue = writer as? DatabaseQueue { try queue.close() }
    }

    /// The database file's path (`:memory:` for an in-memory one).
    public var path: String { writer.path }

    /// Runs a trivial query, which fails when the database cannot be read.
    public func ping() async throws {
        _ = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    /// A private in-memory database, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue())
    }

    /// Migrations are named once and never edited after they ship: add a new one instead.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-response-cache") { db in
            try db.create(table: "responseCache") { table in
                table.primaryKey("key", .text)
                table.column("source", .text).notNull()
                table.column("body", .blob).notNull()
                table.column("storedAt", .double).notNull()
                table.column("expiresAt", .double).notNull().indexed()
            }
        }
        migrator.registerMigration("v2-library") { db in
            // The `local` source: one row per photo file under a library root.
            try db.create(table: "libraryPhoto") { table in
                table.autoIncrementedPrimaryKey("rowid")
                // Stable across re-indexing: a hash of root and path, so item ids and gallery copies survive.
                table.column("id", .text).notNull().unique()
                table.column("root", .text).notNull()
                table.column("path", .text).notNull()
                table.column("size", .integer).notNull()
                // The file's modification time in nanoseconds since 1970: with size, how re-indexing spots changes.
                table.column("modified", .integer).notNull()
                table.column("format", .text).notNull()
                table.column("width", .integer)
                table.column("height", .integer)
                table.column("title", .text).notNull()
                table.column("caption", .text)
                table.column("keywords", .text).notNull()
                table.column("tags", .text).notNull()
                table.column("creator", .text)
                table.column("copyright", .text)
                table.column("capturedAt", .double)
                table.column("camera", .text)
                table.column("metadata", .text).notNull()
                table.column("indexedAt", .double).notNull()
                table.uniqueKey(["root", "path"])
            }
            // Full-text search over the words people look for; its rowid is libraryPhoto's. GRDB's FTS5 API may
            // be compiled out for the system SQLite, so raw SQL. remove_diacritics 2: "cafe" finds "Café".
            // Prefix indexes of 2 to 6 letters: "sun*" reads one list instead of merging sun, sunset, sunny...
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE libraryPhotoSearch USING fts5(
                        title, caption, keywords, tags, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6');
                    INSERT INTO libraryPhotoSearch(libraryPhotoSearch, rank) VALUES('rank', 'bm25(4.0, 1.0, 3.0, 2.0)');
                    """)
        }
        migrator.registerMigration("v3-galleries") { db in
            try db.create(table: "gallery") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                table.column("createdAt", .double).notNull()
                table.column("updatedAt", .double).notNull()
                // Set while the gallery is in Recently deleted.
                table.column("deletedAt", .double)
                // +1 on every change to the gallery or its items: what If-Match and the event stream compare.
                table.column("revision", .integer).notNull()
            }
            try db.create(table: "galleryItem") { table in
                table.primaryKey("id", .text)
                table.column("galleryId", .text).notNull().references("gallery", onDelete: .cascade)
                // Gap-based keys: a move is one row update; renumbered in the same transaction when a gap runs out.
                table.column("position", .integer).notNull()
                // The Item it was made from, as JSON.
                table.column("item", .text).notNull()
                table.column("sourceURL", .text)
                // SHA-256 of the stored image, which is also its file name in gallery-images/.
                table.column("imageHash", .text).notNull().indexed()
                table.column("imageFormat", .text).notNull()
                table.column("imageSize", .integer).notNull()
                table.column("width", .integer).notNull()
                table.column("height", .integer).notNull()
                table.column("addedAt", .double).notNull()
                // One order: no two items of a gallery share a position.
                table.uniqueKey(["galleryId", "position"])
            }
        }
        // TESSERA_AUTH=accounts (TesseraAccounts.SQLiteAccountStore; docs/accounts.md). Secrets are stored only as
        // SHA-256 (sessions, tokens) or bcrypt (passwords).
        migrator.registerMigration("v4-accounts") { db in
            try db.create(table: "account") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull().unique()
                table.column("passwordHash", .text).notNull()
                table.column("isAdmin", .boolean).notNull()
                table.column("createdAt", .double).notNull()
            }
            try db.create(table: "accountSession") { table in
                table.primaryKey("hash", .text)
                table.column("accountId", .text).notNull().indexed().references("account", onDelete: .cascade)
                table.column("createdAt", .double).notNull()
                table.column("lastSeenAt", .double).notNull()
            }
            try db.create(table: "accessToken") { table in
                table.primaryKey("id", .text)
                table.column("accountId", .text).notNull().indexed().references("account", onDelete: .cascade)
                table.column("name", .text).notNull()
                table.column("scope", .text).notNull()
                table.column("secretHash", .text).notNull().unique()
                table.column("createdAt", .double).notNull()
                table.column("lastUsedAt", .double)
            }
            // Failed sign-ins per key (`name:…`, `address:…`): the back-off every server on the file shares.
            try db.create(table: "loginFailure") { table in
                table.primaryKey("key", .text)
                table.column("count", .integer).notNull()
                table.column("lastFailureAt", .double).notNull()
                table.column("lockedUntil", .double)
            }
        }
        // Accounts' galleries (docs/accounts.md): each gallery's owner (none for galleries made without
        // accounts) and its members. An owner cannot be removed while it owns galleries (no cascade):
        // `tessera user remove` hands them to an admin first, so nothing goes silently.
        migrator.registerMigration("v5-gallery-owners") { db in
            try db.alter(table: "gallery") { table in
                table.add(column: "ownerId", .text).references("account")
            }
            try db.create(index: "gallery_on_ownerId", on: "gallery", columns: ["ownerId"])
            try db.create(table: "galleryMember") { table in
                table.column("galleryId", .text).notNull().references("gallery", onDelete: .cascade)
                table.column("accountId", .text).notNull().indexed().references("account", onDelete: .cascade)
                table.column("role", .text).notNull()
                table.column("addedAt", .double).notNull()
                table.primaryKey(["galleryId", "accountId"])
            }
        }
        // The library's search filters (docs/filters.md): what they read. `colors` is the palette computed at
        // index time, a bit per colour (`LibraryPhoto.colorBits`), NULL for rows indexed before it: the indexer
        // reads those files again. The licence as the photo's metadata gave it when indexed, with its two facts.
        migrator.registerMigration("v6-filters") { db in
            try db.alter(table: "libraryPhoto") { table in
                table.add(column: "colors", .integer)
                table.add(column: "licenseId", .text)
                table.add(column: "licenseFamily", .text)
                table.add(column: "commercialUse", .boolean)
                table.add(column: "modificationAllowed", .boolean)
            }
        }
        // Public and drop links (docs/accounts.md, "Public and drop links"): links to one gallery each, gone
        // with it when it is deleted for good and with the account that made them. The slug is kept as it is
        // (the owner copies the link again), the password only as bcrypt.
        migrator.registerMigration("v7-links") { db in
            try db.create(table: "galleryLink") { table in
                table.primaryKey("id", .text)
                table.column("galleryId", .text).notNull().indexed().references("gallery", onDelete: .cascade)
                table.column("kind", .text).notNull()
                table.column("slug", .text).notNull().unique()
                table.column("passwordHash", .text)
                table.column("expiresAt", .double)
                table.column("createdAt", .double).notNull()
                table.column("createdBy", .text).notNull().indexed().references("account", onDelete: .cascade)
                table.column("opens", .integer).notNull().defaults(to: 0)
                table.column("lastOpenedAt", .double)
                table.column("showItems", .boolean).notNull().defaults(to: false)
                table.column("perHour", .integer).notNull()
                table.column("drops", .integer).notNull().defaults(to: 0)
                // The drop rate's window: when its hour began and how many drops it has taken.
                table.column("dropWindowStart", .double)
                table.column("dropWindowCount", .integer).notNull().defaults(to: 0)
            }
        }
        // One picture, shown once (docs/duplicates.md; docs/galleries.md): each gallery item's
        // perceptual hash, made from its stored copy when added (NULL for items added before: made on first
        // need), and the hash of each thumbnail the image proxy made, by image source: a cache beside the
        // disk cache's side files, so servers sharing a database share them (PostgreSQL migration 10).
        migrator.registerMigration("v8-picture-hashes") { db in
            try db.alter(table: "galleryItem") { table in
                table.add(column: "pictureHash", .text)
            }
            try db.create(table: "thumbnailHash") { table in
                table.primaryKey("source", .text)
                table.column("hash", .text).notNull()
                table.column("madeAt", .double).notNull()
            }
        }
        // Hashes are made another way since (`PerceptualHash.version` 2: the loader's shrink and Tessera's own
        // resampling, docs/duplicates.md "Hashing one thumbnail"), a bit or two apart from the old: the old ones go,
        // and are made again on first need (gallery items' from their stored copies, thumbnails' when the proxy
        // next makes or reads them). PostgreSQL migration 11.
        migrator.registerMigration("v9-picture-hashes-again") { db in
            try db.execute(sql: "UPDATE galleryItem SET pictureHash = NULL WHERE pictureHash IS NOT NULL")
            try db.execute(sql: "DELETE FROM thumbnailHash")
        }
        return migrator
    }
}
