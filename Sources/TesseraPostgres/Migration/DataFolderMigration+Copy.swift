import Foundation
import PostgresNIO
import TesseraLibrary

extension DataFolderMigration {
    /// Gallery items per `INSERT` (11 parameters each).
    static let itemsPerInsert = 1000
    /// Library photos per transaction.
    static let photosPerTransaction = 2000

    // MARK: - The signing key

    /// Refuses, before anything is copied, a database that already signs with another key (unless told to
    /// replace it): its servers' links would stop working, or this folder's would.
    func copySecret(_ key: Data?, _ postgres: PostgresAppDatabase) async throws -> MigrationReport.Secret {
        guard let key else { return .noneInFolder }
        let (name, replace, server) = (PostgresImageSecret.name, replaceSecret, url.redacted)
        return try await postgres.withTransaction { connection in
            var stored: Data?
            for try await value in try await connection.query(
                "SELECT value FROM setting WHERE name = \(name) FOR UPDATE", logger: .quiet
            ).decode(Data.self) {
                stored = value
            }
            if stored == key { return .alreadyThere }
            if stored != nil, !replace { throw MigrationError.differentSecret(server: server) }
            try await connection.query(
                """
                INSERT INTO setting (name, value) VALUES (\(name), \(key))
                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                """, logger: .quiet)
            return stored == nil ? .copied : .replaced
        }
    }

    // MARK: - Galleries

    /// Each gallery in a transaction of its own: its row upserted (with its owner; accounts are copied before),
    /// its members as in SQLite, items no longer in SQLite removed, its items
    /// upserted by id at SQLite's positions (the order's uniqueness is checked at commit, since items may
    /// trade places on a second run).
    func copyGalleries(_ snapshot: Snapshot, progress: @escaping @Sendable (String) -> Void) async throws {
        let galleries = snapshot.galleries
        let items = snapshot.items
        try await PostgresAppDatabase.withSingleConnection(url, logger: logger) { connection in
            for (index, gallery) in galleries.enumerated() {
                try await connection.withTransaction(logger: .quiet) { connection in
                    try await Self.copy(
                        gallery, owner: snapshot.owners[gallery.id], items: items[gallery.id] ?? [], connection)
                    try await Self.copyMembers(snapshot.members[gallery.id] ?? [], of: gallery.id, connection)
                    try await Self.copyLinks(snapshot.links[gallery.id] ?? [], of: gallery.id, connection)
                }
                if (index + 1) % 100 == 0 { progress("Galleries: \(index + 1)/\(galleries.count) copied.") }
            }
            return ()
        }
        progress("Galleries: \(galleries.count) copied, with \(items.values.map(\.count).reduce(0, +)) items.")
    }

    private static func copy(
        _ gallery: GalleryRow, owner: String?, items: [GalleryItemRow], _ connection: PostgresConnection
    ) async throws {
        try await connection.query("SET CONSTRAINTS ALL DEFERRED", logger: .quiet)
        try await connection.query(
            """
            INSERT INTO gallery (\(unescaped: GalleryRow.columns), owner_id)
            VALUES (\(gallery.id), \(gallery.name), \(gallery.createdAt), \(gallery.updatedAt), \(gallery.deletedAt),
                \(gallery.revision), \(owner))
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, created_at = excluded.created_at,
                updated_at = excluded.updated_at, deleted_at = excluded.deleted_at, revision = excluded.revision,
                owner_id = excluded.owner_id
            """, logger: .quiet)
        let ids = items.map(\.id)
        try await connection.query(
            "DELETE FROM gallery_item WHERE gallery_id = \(gallery.id) AND NOT (id = ANY(\(ids)))", logger: .quiet)
        for start in stride(from: 0, to: items.count, by: itemsPerInsert) {
            let batch = items[start..<min(start + itemsPerInsert, items.count)]
            var sql = PostgresQuery.StringInterpolation(literalCapacity: 512, interpolationCount: 12 * batch.count)
            sql.appendLiteral("INSERT INTO gallery_item (\(GalleryItemRow.writtenColumns)) VALUES ")
            for (index, item) in batch.enumerated() {
                if index > 0 { sql.appendLiteral(", ") }
                item.appendValues(to: &sql)
            }
            sql.appendLiteral(
                """
                 ON CONFLICT (id) DO UPDATE SET gallery_id = excluded.gallery_id, position = excluded.position,
                    item = excluded.item, source_url = excluded.source_url, image_hash = excluded.image_hash,
                    image_format = excluded.image_format, image_size = excluded.image_size, width = excluded.width,
                    height = excluded.height, added_at = excluded.added_at, picture_hash = excluded.picture_hash
                """)
            try await connection.query(PostgresQuery(stringInterpolation: sql), logger: .quiet)
        }
    }

    // MARK: - Library

    /// Through the PostgreSQL index's own writer (`PostgresLibraryStore.update`), so each photo's `tsvector` is
    /// made as the indexer makes it; photos PostgreSQL has under a copied folder that SQLite no longer has are
    /// dropped with the first batch.
    func copyLibrary(
        _ photos: [LibraryPhoto], _ postgres: PostgresAppDatabase, progress: @escaping @Sendable (String) -> Void
    ) async throws {
        let store = PostgresLibraryStore(database: postgres, logger: logger)
        let byRoot = Dictionary(grouping: photos, by: \.root)
        var copied = 0
        for root in byRoot.keys.sorted() {
            let rootPhotos = byRoot[root] ?? []
            let kept = Set(rootPhotos.map(\.path))
            var gone = try await store.stamps(root: root).keys.filter { !kept.contains($0) }
            for start in stride(from: 0, to: rootPhotos.count, by: Self.photosPerTransaction) {
                let batch = Array(rootPhotos[start..<min(start + Self.photosPerTransaction, rootPhotos.count)])
                try await store.update(root: root, saving: batch, removing: gone)
                gone = []
                copied += batch.count
                progress("Library: \(copied)/\(photos.count) photos copied.")
            }
        }
        if photos.isEmpty { progress("Library: nothing indexed in this data folder.") }
    }
}
