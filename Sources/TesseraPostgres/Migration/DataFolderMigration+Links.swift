import Foundation
import GRDB
import PostgresNIO
import TesseraSQLite

/// Public and drop links (docs/accounts.md, "Public and drop links"), carried with their galleries: same ids,
/// same slugs (the addresses people were given keep working), password hashes, expiry and counts. The drop
/// rate's current hour is not carried (it starts afresh).
extension DataFolderMigration {
    struct LinkRow: Sendable {
        var id: String
        var kind: String
        var slug: String
        var passwordHash: String?
        var expiresAt: Double?
        var createdAt: Double
        var createdBy: String
        var opens: Int
        var lastOpenedAt: Double?
        var showItems: Bool
        var perHour: Int
        var drops: Int
    }

    static func readLinks(_ db: Database, into snapshot: inout Snapshot) throws {
        for row in try Row.fetchAll(db, sql: "SELECT * FROM galleryLink ORDER BY galleryId, createdAt, id") {
            snapshot.links[row["galleryId"], default: []].append(
                LinkRow(
                    id: row["id"], kind: row["kind"], slug: row["slug"], passwordHash: row["passwordHash"],
                    expiresAt: row["expiresAt"], createdAt: row["createdAt"], createdBy: row["createdBy"],
                    opens: row["opens"], lastOpenedAt: row["lastOpenedAt"], showItems: row["showItems"],
                    perHour: row["perHour"], drops: row["drops"]))
        }
    }

    /// Inside a gallery's transaction, after its members: links PostgreSQL has that SQLite no longer has (revoked
    /// since an earlier run) removed, the others upserted by id.
    static func copyLinks(_ links: [LinkRow], of gallery: String, _ connection: PostgresConnection) async throws {
        let ids = links.map(\.id)
        try await connection.query(
            "DELETE FROM gallery_link WHERE gallery_id = \(gallery) AND NOT (id = ANY(\(ids)))", logger: .quiet)
        for link in links {
            try await connection.query(
                """
                INSERT INTO gallery_link (id, gallery_id, kind, slug, password_hash, expires_at, created_at,
                    created_by, opens, last_opened_at, show_items, per_hour, drops)
                VALUES (\(link.id), \(gallery), \(link.kind), \(link.slug), \(link.passwordHash), \(link.expiresAt),
                    \(link.createdAt), \(link.createdBy), \(link.opens), \(link.lastOpenedAt), \(link.showItems),
                    \(link.perHour), \(link.drops))
                ON CONFLICT (id) DO UPDATE SET password_hash = excluded.password_hash,
                    expires_at = excluded.expires_at, opens = excluded.opens, last_opened_at = excluded.last_opened_at,
                    show_items = excluded.show_items, per_hour = excluded.per_hour, drops = excluded.drops
                """, logger: .quiet)
        }
    }

    /// Links counted on both sides; on PostgreSQL only those of this folder's galleries.
    func countLinks(_ snapshot: Snapshot, sqlite: AppDatabase) async throws -> MigrationReport.Count {
        let local = try await sqlite.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM galleryLink") ?? 0
        }
        let galleries = snapshot.galleries.map(\.id)
        let shared = try await PostgresAppDatabase.withSingleConnection(url, logger: logger) { connection in
            var count = 0
            for try await value in try await connection.query(
                "SELECT count(*) FROM gallery_link WHERE gallery_id = ANY(\(galleries))", logger: .quiet
            ).decode(Int.self) {
                count = value
            }
            return count
        }
        return MigrationReport.Count(what: "gallery links", sqlite: local, postgres: shared)
    }
}
