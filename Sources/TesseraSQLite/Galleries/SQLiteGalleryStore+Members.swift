import Foundation
import GRDB
import TesseraCore
import TesseraGalleries

/// Owners and members (docs/accounts.md). Account names are read from the `account` table the accounts'
/// store keeps in the same database: galleries name accounts by id, people name them by name.
extension SQLiteGalleryStore {
    public func access(of account: String, to id: GalleryID) async throws(GalleryError) -> GalleryAccess? {
        try await run {
            try await self.writer.read { db in
                guard
                    let row = try Row.fetchOne(
                        db,
                        sql: """
                            SELECT g.ownerId, g.deletedAt, a.name AS ownerName, m.role
                            FROM gallery g
                            LEFT JOIN account a ON a.id = g.ownerId
                            LEFT JOIN galleryMember m ON m.galleryId = g.id AND m.accountId = ?
                            WHERE g.id = ?
                            """, arguments: [account, id.rawValue])
                else { return nil }
                let owner: String? = row["ownerName"]
                if (row["ownerId"] as String?) == account { return GalleryAccess(role: .owner, owner: owner) }
                // A member does not see the gallery while it is in its owner's Recently deleted.
                guard (row["deletedAt"] as Double?) == nil, let role = (row["role"] as String?) else { return nil }
                return GalleryRole(rawValue: role).map { GalleryAccess(role: $0, owner: owner) }
            }
        }
    }

    public func members(of id: GalleryID) async throws(GalleryError) -> [GalleryMember] {
        try await run {
            try await self.writer.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT a.name, m.role FROM galleryMember m JOIN account a ON a.id = m.accountId
                        WHERE m.galleryId = ? ORDER BY a.name
                        """, arguments: [id.rawValue]
                ).compactMap { row in
                    GalleryRole(rawValue: row["role"]).map { GalleryMember(name: row["name"], role: $0) }
                }
            }
        }
    }

    public func setMember(named name: String, role: GalleryRole, in id: GalleryID) async throws(GalleryError) {
        guard role != .owner else { throw .invalidMember("A member is an editor or a viewer.") }
        let time = now()
        try await run {
            try await self.database.write { db in
                guard let gallery = try GalleryRecord.fetchOne(db, key: id.rawValue) else {
                    throw GalleryError.galleryNotFound(id.rawValue)
                }
                guard
                    let account = try String.fetchOne(
                        db, sql: "SELECT id FROM account WHERE name = ?", arguments: [name.lowercased()])
                else { throw GalleryError.accountNotFound(name) }
                guard account != gallery.ownerId else {
                    throw GalleryError.invalidMember("\(name) owns this gallery already.")
                }
                try db.execute(
                    sql: """
                        INSERT INTO galleryMember (galleryId, accountId, role, addedAt) VALUES (?, ?, ?, ?)
                        ON CONFLICT (galleryId, accountId) DO UPDATE SET role = excluded.role
                        """, arguments: [id.rawValue, account, role.rawValue, time])
            }
        }
    }

    public func removeMember(named name: String, from id: GalleryID) async throws(GalleryError) {
        try await run {
            try await self.database.write { db in
                guard try GalleryRecord.exists(db, key: id.rawValue) else {
                    throw GalleryError.galleryNotFound(id.rawValue)
                }
                try db.execute(
                    sql: """
                        DELETE FROM galleryMember WHERE galleryId = ?
                        AND accountId = (SELECT id FROM account WHERE name = ?)
                        """, arguments: [id.rawValue, name.lowercased()])
                if db.changesCount == 0 { throw GalleryError.memberNotFound(name) }
            }
        }
    }

    public func holdsImage(_ hash: String, visibleTo account: String) async throws(GalleryError) -> Bool {
        try await run {
            try await self.writer.read { db in
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (
                            SELECT 1 FROM galleryItem i JOIN gallery g ON g.id = i.galleryId
                            WHERE i.imageHash = ? AND (g.ownerId = ? OR (g.deletedAt IS NULL AND EXISTS (
                                SELECT 1 FROM galleryMember m WHERE m.galleryId = g.id AND m.accountId = ?))))
                        """, arguments: [hash, account, account]) ?? false
            }
        }
    }

    public func adoptOwnerless(by account: String) async throws(GalleryError) -> Int {
        try await run {
            try await self.database.write { db in
                try GalleryRecord.filter(GalleryRecord.Columns.ownerId == nil)
                    .updateAll(db, GalleryRecord.Columns.ownerId.set(to: account))
            }
        }
    }

    public func handOver(from account: String, to heir: String?) async throws(GalleryError) -> Int {
        let time = now()
        let onChange = onChange
        return try await run {
            try await self.database.write { db in
                let owned = try GalleryRecord.filter(GalleryRecord.Columns.ownerId == account).fetchAll(db)
                var changes: [(GalleryID, GalleryChange)] = []
                for var record in owned {
                    record.ownerId = heir
                    if record.deletedAt == nil {
                        record.deletedAt = time
                        record.revision += 1
                        record.updatedAt = time
                        changes.append(
                            (
                                GalleryID(unchecked: record.id),
                                .deleted(revision: record.revision, deletedAt: Timestamp.text(time))
                            ))
                    }
                    try record.update(db)
                }
                // The heir owns them now: not a member besides. The account's own memberships end.
                if let heir {
                    try db.execute(
                        sql:
                            "DELETE FROM galleryMember WHERE accountId = ? AND galleryId IN (SELECT id FROM gallery WHERE ownerId = ?)",
                        arguments: [heir, heir])
                }
                try db.execute(sql: "DELETE FROM galleryMember WHERE accountId = ?", arguments: [account])
                let told = changes
                db.afterNextTransaction { _ in
                    for (id, change) in told { onChange(id, change) }
                }
                return owned.count
            }
        }
    }
}
