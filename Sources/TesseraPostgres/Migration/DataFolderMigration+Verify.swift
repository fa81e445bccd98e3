import Foundation
import GRDB
import PostgresNIO
import TesseraSQLite

extension DataFolderMigration {
    /// Counts in both databases after the copy, with queries of their own (not the copy's figures). On the
    /// PostgreSQL side only what came from this data folder is counted: the galleries it has and the library
    /// folders it indexed, so galleries made on PostgreSQL meanwhile do not count as a difference.
    func count(_ snapshot: Snapshot, sqlite: AppDatabase, secret: Data?) async throws -> [MigrationReport.Count] {
        let local = try await sqlite.writer.read { db in
            [
                try Int.fetchOne(db, sql: "SELECT count(*) FROM gallery WHERE deletedAt IS NULL") ?? 0,
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM galleryItem JOIN gallery ON gallery.id = galleryItem.galleryId
                        WHERE gallery.deletedAt IS NULL
                        """) ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM gallery WHERE deletedAt IS NOT NULL") ?? 0,
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM galleryItem JOIN gallery ON gallery.id = galleryItem.galleryId
                        WHERE gallery.deletedAt IS NOT NULL
                        """) ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM libraryPhoto") ?? 0,
            ]
        }
        let ids = snapshot.galleries.map(\.id)
        let roots = Array(Set(snapshot.photos.map(\.root)))
        let (name, key) = (PostgresImageSecret.name, secret ?? Data())
        let shared = try await PostgresAppDatabase.withSingleConnection(url, logger: logger) { connection in
            func number(_ query: PostgresQuery) async throws -> Int {
                var value = 0
                for try await count in try await connection.query(query, logger: .quiet).decode(Int.self) {
                    value = count
                }
                return value
            }
            return [
                try await number("SELECT count(*) FROM gallery WHERE id = ANY(\(ids)) AND deleted_at IS NULL"),
                try await number(
                    """
                    SELECT count(*) FROM gallery_item JOIN gallery ON gallery.id = gallery_item.gallery_id
                    WHERE gallery.id = ANY(\(ids)) AND gallery.deleted_at IS NULL
                    """),
                try await number("SELECT count(*) FROM gallery WHERE id = ANY(\(ids)) AND deleted_at IS NOT NULL"),
                try await number(
                    """
                    SELECT count(*) FROM gallery_item JOIN gallery ON gallery.id = gallery_item.gallery_id
                    WHERE gallery.id = ANY(\(ids)) AND gallery.deleted_at IS NOT NULL
                    """),
                try await number("SELECT count(*) FROM library_photo WHERE root = ANY(\(roots))"),
                try await number("SELECT count(*) FROM setting WHERE name = \(name) AND value = \(key)"),
            ]
        }
        let names = [
            "galleries", "items", "galleries in Recently deleted", "items in Recently deleted", "library photos",
        ]
        var counts = zip(names, zip(local, shared)).map {
            MigrationReport.Count(what: $0.0, sqlite: $0.1.0, postgres: $0.1.1)
        }
        counts.append(
            MigrationReport.Count(what: "image-signing key", sqlite: secret == nil ? 0 : 1, postgres: shared[5]))
        if secret == nil { counts.removeLast() }
        return counts
    }

    /// Ids of the galleries whose items, read again from both databases, are not the same ids in the same order.
    func unorderedGalleries(_ sqlite: AppDatabase) async throws -> [String] {
        let local = try await sqlite.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT galleryId, id FROM galleryItem ORDER BY galleryId, position").reduce(
                into: [String: [String]]()
            ) { order, row in
                let (gallery, id): (String, String) = (row["galleryId"], row["id"])
                order[gallery, default: []].append(id)
            }
        }
        let galleries = try await sqlite.writer.read { db in try String.fetchAll(db, sql: "SELECT id FROM gallery") }
        let shared = try await PostgresAppDatabase.withSingleConnection(url, logger: logger) { connection in
            var order: [String: [String]] = [:]
            for try await (gallery, id) in try await connection.query(
                """
                SELECT gallery_id, id FROM gallery_item WHERE gallery_id = ANY(\(galleries))
                ORDER BY gallery_id, position
                """, logger: .quiet
            ).decode((String, String).self) {
                order[gallery, default: []].append(id)
            }
            return order
        }
        return galleries.filter { local[$0, default: []] != shared[$0, default: []] }.sorted()
    }

    /// Galleries PostgreSQL holds that this data folder does not: made there, or deleted for good in SQLite
    /// after an earlier run. Left alone, and said.
    func otherGalleries(_ snapshot: Snapshot) async throws -> Int {
        let ids = snapshot.galleries.map(\.id)
        return try await PostgresAppDatabase.withSingleConnection(url, logger: logger) { connection in
            var value = 0
            for try await count in try await connection.query(
                "SELECT count(*) FROM gallery WHERE NOT (id = ANY(\(ids)))", logger: .quiet
            ).decode(Int.self) {
                value = count
            }
            return value
        }
    }
}
