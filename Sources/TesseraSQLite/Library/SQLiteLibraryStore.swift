import Foundation
import GRDB
import TesseraCore
import TesseraLibrary

/// The photo index: the `libraryPhoto` table and its full-text twin `libraryPhotoSearch`, on the app's database.
///
/// Every write is one named method and one transaction; the two tables change together, so search never sees
/// a photo that is not there or misses one that is.
public final class SQLiteLibraryStore: LibraryStoring {
    public let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Opens the app's database in `dataDirectory` (creating and migrating it if needed).
    public static func open(dataDirectory: URL) throws(LibraryError) -> SQLiteLibraryStore {
        do {
            return SQLiteLibraryStore(database: try AppDatabase.open(inDirectory: dataDirectory))
        } catch {
            throw .database("\(error)")
        }
    }

    // MARK: - Indexing

    /// Size and modification time of every photo indexed under `root`, by path.
    public func stamps(root: String) async throws(LibraryError) -> [String: FileStamp] {
        try await read { db in
            var stamps: [String: FileStamp] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT path, size, modified FROM libraryPhoto WHERE root = ?", arguments: [root])
            while let row = try rows.next() {
                stamps[row["path"]] = FileStamp(size: row["size"], modifiedNanoseconds: row["modified"])
            }
            return stamps
        }
    }

    /// Adds or replaces `photos` and forgets the photos at `paths` under `root`, in one transaction; returns
    /// how many of `paths` were indexed.
    @discardableResult
    public func update(root: String, saving photos: [LibraryPhoto], removing paths: [String]) async throws(LibraryError)
        -> Int
    {
        guard !photos.isEmpty || !paths.isEmpty else { return 0 }
        return try await write { db in
            for photo in photos { try Self.upsert(photo, db) }
            var removed = 0
            let find = try db.cachedStatement(sql: "SELECT rowid FROM libraryPhoto WHERE root = ? AND path = ?")
            for path in paths {
                guard let rowid = try Int64.fetchOne(find, arguments: [root, path]) else { continue }
                try db.execute(sql: "DELETE FROM libraryPhotoSearch WHERE rowid = ?", arguments: [rowid])
                try db.execute(sql: "DELETE FROM libraryPhoto WHERE rowid = ?", arguments: [rowid])
                removed += 1
            }
            return removed
        }
    }

    static func upsert(_ photo: LibraryPhoto, _ db: Database) throws {
        let columns = LibraryPhoto.columnNames
        let updates = columns.filter { $0 != "root" && $0 != "path" }.map { "\($0) = excluded.\($0)" }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO libraryPhoto (\(columns.joined(separator: ", ")))
                VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
                ON CONFLICT(root, path) DO UPDATE SET \(updates.joined(separator: ", "))
                RETURNING rowid
                """)
        guard let rowid = try Int64.fetchOne(statement, arguments: photo.columnValues) else { return }
        let text = photo.searchText
        try db.cachedStatement(sql: "DELETE FROM libraryPhotoSearch WHERE rowid = ?").execute(arguments: [rowid])
        try db.cachedStatement(
            sql: "INSERT INTO libraryPhotoSearch (rowid, title, caption, keywords, tags) VALUES (?, ?, ?, ?, ?)"
        ).execute(arguments: [rowid, text.title, text.caption, text.keywords, text.tags])
    }

    // MARK: - Reading

    /// The photo with stable id `id`, if indexed.
    public func photo(id: String) async throws(LibraryError) -> LibraryPhoto? {
        try await read { db in
            try LibraryPhoto.fetchOne(db, sql: "SELECT * FROM libraryPhoto WHERE id = ?", arguments: [id])
        }
    }

    /// The photo at `path` under `root`, if indexed.
    public func photo(root: String, path: String) async throws(LibraryError) -> LibraryPhoto? {
        try await read { db in
            try LibraryPhoto.fetchOne(
                db, sql: "SELECT * FROM libraryPhoto WHERE root = ? AND path = ?", arguments: [root, path])
        }
    }

    /// How many photos are indexed, under `root` or in all.
    public func count(root: String?) async throws(LibraryError) -> Int {
        try await read { db in
            if let root {
                return try Int.fetchOne(db, sql: "SELECT count(*) FROM libraryPhoto WHERE root = ?", arguments: [root])
                    ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM libraryPhoto") ?? 0
        }
    }

    /// Every library folder with at least one photo indexed.
    public func roots() async throws(LibraryError) -> [String] {
        try await read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT root FROM libraryPhoto ORDER BY root")
        }
    }

    /// One server's own index: nobody else indexes it.
    public func whileIndexing<T: Sendable>(_ body: @escaping @Sendable () async -> T) async throws(LibraryError) -> T? {
        await body()
    }

    // MARK: - Database access with the library's error

    func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws(LibraryError) -> T {
        do {
            return try await database.writer.read(body)
        } catch {
            throw .database("\(error)")
        }
    }

    func write<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws(LibraryError) -> T {
        do {
            return try await database.write(body)
        } catch {
            throw .database("\(error)")
        }
    }
}
