import Foundation
import Logging
import PostgresNIO
import TesseraCore
import TesseraLibrary

/// The photo index in PostgreSQL, shared by every server on the database: the `library_photo` table, whose
/// `search` column (a `tsvector` under a GIN index) answers searches as the SQLite FTS5 index does
/// (`SQLiteLibraryStore`). One server at a time indexes (`whileIndexing`, an advisory lock); all of them search.
///
/// The words are split and folded in Swift, by the rules of `SearchQuery`, and stored as lexemes with their
/// weights: PostgreSQL's own parser splits `falcon-9` or `a.b` otherwise than FTS5 does, and its `unaccent`
/// extension is an install option, so neither is used and both engines find the same photos.
public final class PostgresLibraryStore: LibraryStoring {
    let database: PostgresAppDatabase
    private let logger: Logger

    /// Any fixed number, the same in every Tessera, other than the migrations' one: what indexing servers take.
    public static let indexingLockKey: Int64 = 0x7465_7373_6c69_62  // "tesslib"

    public init(database: PostgresAppDatabase, logger: Logger = Logger(label: "tessera.library")) {
        self.database = database
        self.logger = logger
    }

    // MARK: - Indexing

    public func stamps(root: String) async throws(LibraryError) -> [String: FileStamp] {
        try await connection { connection in
            var stamps: [String: FileStamp] = [:]
            let rows = try await connection.query(
                "SELECT path, size, modified FROM library_photo WHERE root = \(root)", logger: .quiet)
            for try await (path, size, modified) in rows.decode((String, Int64, Int64).self) {
                stamps[path] = FileStamp(size: size, modifiedNanoseconds: modified)
            }
            return stamps
        }
    }

    public func pathsWithoutPalette(root: String) async throws(LibraryError) -> Set<String> {
        try await connection { connection in
            var paths = Set<String>()
            let rows = try await connection.query(
                "SELECT path FROM library_photo WHERE root = \(root) AND colors IS NULL", logger: .quiet)
            for try await path in rows.decode(String.self) { paths.insert(path) }
            return paths
        }
    }

    @discardableResult
    public func update(root: String, saving photos: [LibraryPhoto], removing paths: [String]) async throws(LibraryError)
        -> Int
    {
        guard !photos.isEmpty || !paths.isEmpty else { return 0 }
        return try await transaction { connection in
            for start in stride(from: 0, to: photos.count, by: Self.rowsPerInsert) {
                try await Self.upsert(photos[start..<min(start + Self.rowsPerInsert, photos.count)], connection)
            }
            guard !paths.isEmpty else { return 0 }
            var removed = 0
            let rows = try await connection.query(
                """
                WITH gone AS (DELETE FROM library_photo WHERE root = \(root) AND path = ANY(\(paths)) RETURNING 1)
                SELECT count(*) FROM gone
                """, logger: .quiet)
            for try await count in rows.decode(Int.self) { removed = count }
            return removed
        }
    }

    /// Photos per `INSERT`: one statement of many rows instead of a round trip each (a migration or a
    /// benchmark saves 100,000), well under PostgreSQL's 65,535 parameters a statement.
    static let rowsPerInsert = 500

    /// Re-saving a photo keeps its `seq`, as SQLite keeps a rowid: "newest" means first indexed most recently.
    /// Rows in `seq` order are those of `photos`; a path given twice keeps its last version.
    private static func upsert(_ photos: ArraySlice<LibraryPhoto>, _ connection: PostgresConnection) async throws {
        var last: [String: Int] = [:]
        for (offset, photo) in photos.enumerated() { last[photo.path] = offset }
        var binds = PostgresBindings(capacity: photos.count * 24)
        var rows: [String] = []
        for (offset, photo) in photos.enumerated() where last[photo.path] == offset {
            let first = binds.count + 1
            binds.append(photo.id)
            binds.append(photo.root)
            binds.append(photo.path)
            binds.append(photo.stamp.size)
            binds.append(photo.stamp.modifiedNanoseconds)
            binds.append(photo.format)
            binds.append(photo.width)
            binds.append(photo.height)
            binds.append(photo.title)
            binds.append(photo.caption)
            binds.append(photo.keywords)
            binds.append(photo.tags)
            binds.append(photo.creator)
            binds.append(photo.copyright)
            binds.append(photo.capturedAt?.timeIntervalSince1970)
            binds.append(photo.camera)
            binds.append(photo.metadata.flatMap { [$0.label, $0.value] })
            binds.append(photo.indexedAt.timeIntervalSince1970)
            binds.append(photo.colorMask.map(Int32.init))
            binds.append(photo.license.id.rawValue)
            binds.append(photo.license.id.family)
            binds.append(photo.license.allowsCommercialUse)
            binds.append(photo.license.allowsModification)
            binds.append(SearchText.vector(of: photo))
            rows.append(
                "(" + (first..<binds.count).map { "$\($0)" }.joined(separator: ", ") + ", $\(binds.count)::tsvector)")
        }
        let sql = """
            INSERT INTO library_photo (
                id, root, path, size, modified, format, width, height, title, caption, keywords, tags, creator,
                copyright, captured_at, camera, metadata, indexed_at, colors, license_id, license_family,
                commercial_use, modification_allowed, search)
            VALUES \(rows.joined(separator: ",\n"))
            ON CONFLICT (root, path) DO UPDATE SET
                id = excluded.id, size = excluded.size, modified = excluded.modified, format = excluded.format,
                width = excluded.width, height = excluded.height, title = excluded.title, caption = excluded.caption,
                keywords = excluded.keywords, tags = excluded.tags, creator = excluded.creator,
                copyright = excluded.copyright, captured_at = excluded.captured_at, camera = excluded.camera,
                metadata = excluded.metadata, indexed_at = excluded.indexed_at, colors = excluded.colors,
                license_id = excluded.license_id, license_family = excluded.license_family,
                commercial_use = excluded.commercial_use, modification_allowed = excluded.modification_allowed,
                search = excluded.search
            """
        try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: .quiet)
    }

    /// Runs `body` holding the indexing lock, on a connection of its own kept open meanwhile (the lock belongs
    /// to the session); `nil` at once when another server holds it.
    public func whileIndexing<T: Sendable>(_ body: @escaping @Sendable () async -> T) async throws(LibraryError) -> T? {
        let key = Self.indexingLockKey
        do {
            return try await PostgresAppDatabase.withSingleConnection(database.url, logger: database.logger) {
                connection -> T? in
                var locked = false
                for try await value in try await connection.query(
                    "SELECT pg_try_advisory_lock(\(key))", logger: .quiet
                ).decode(Bool.self) {
                    locked = value
                }
                guard locked else { return nil }
                let result = await body()
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(key))", logger: .quiet)
                return result
            }
        } catch {
            throw .database("\(error)")
        }
    }

    // MARK: - Reading

    public func photo(id: String) async throws(LibraryError) -> LibraryPhoto? {
        try await connection { connection in
            try await Self.photos(
                connection.query(
                    "SELECT \(unescaped: Self.columns) FROM library_photo WHERE id = \(id)", logger: .quiet)
            ).first
        }
    }

    public func photo(root: String, path: String) async throws(LibraryError) -> LibraryPhoto? {
        try await connection { connection in
            try await Self.photos(
                connection.query(
                    "SELECT \(unescaped: Self.columns) FROM library_photo WHERE root = \(root) AND path = \(path)",
                    logger: .quiet)
            ).first
        }
    }

    public func count(root: String?) async throws(LibraryError) -> Int {
        try await connection { connection in
            let every = root == nil
            var count = 0
            for try await value in try await connection.query(
                "SELECT count(*) FROM library_photo WHERE \(every) OR root = \(root ?? "")", logger: .quiet
            ).decode(Int.self) {
                count = value
            }
            return count
        }
    }

    public func roots() async throws(LibraryError) -> [String] {
        try await connection { connection in
            var roots: [String] = []
            for try await root in try await connection.query(
                "SELECT DISTINCT root FROM library_photo ORDER BY root", logger: .quiet
            ).decode(String.self) {
                roots.append(root)
            }
            return roots
        }
    }

    // MARK: - Rows

    /// The columns `photos` decodes, in its order.
    static let columns = """
        root, path, size, modified, format, width, height, title, caption, keywords, tags, creator, copyright, \
        captured_at, camera, metadata, indexed_at, colors
        """

    static func photos(_ rows: PostgresRowSequence) async throws -> [LibraryPhoto] {
        var photos: [LibraryPhoto] = []
        for try await row in rows {
            let cells = row.makeRandomAccess()
            var photo = LibraryPhoto(
                root: try cells["root"].decode(String.self), path: try cells["path"].decode(String.self),
                stamp: FileStamp(
                    size: try cells["size"].decode(Int64.self),
                    modifiedNanoseconds: try cells["modified"].decode(Int64.self)),
                format: try cells["format"].decode(String.self), width: try cells["width"].decode(Int?.self),
                height: try cells["height"].decode(Int?.self), title: try cells["title"].decode(String.self),
                indexedAt: Date(timeIntervalSince1970: try cells["indexed_at"].decode(Double.self)))
            photo.caption = try cells["caption"].decode(String?.self)
            photo.keywords = try cells["keywords"].decode([String].self)
            photo.tags = try cells["tags"].decode([String].self)
            photo.creator = try cells["creator"].decode(String?.self)
            photo.copyright = try cells["copyright"].decode(String?.self)
            photo.capturedAt = try cells["captured_at"].decode(Double?.self).map(Date.init(timeIntervalSince1970:))
            photo.camera = try cells["camera"].decode(String?.self)
            photo.palette = LibraryPhoto.palette(mask: try cells["colors"].decode(Int32?.self).map(Int.init))
            let metadata = try cells["metadata"].decode([String].self)
            photo.metadata = stride(from: 0, to: metadata.count - 1, by: 2).map {
                MetadataEntry(metadata[$0], metadata[$0 + 1])
            }
            photos.append(photo)
        }
        return photos
    }

    // MARK: - Database access with the library's error

    func connection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws(LibraryError) -> T
    {
        do {
            return try await database.withConnection(body)
        } catch {
            throw .database("\(error)")
        }
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws(LibraryError) -> T
    {
        do {
            return try await database.withTransaction(body)
        } catch {
            throw .database("\(error)")
        }
    }
}
