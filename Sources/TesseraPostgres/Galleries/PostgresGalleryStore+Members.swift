import Foundation
import PostgresNIO
import TesseraCore
import TesseraGalleries

/// Owners and members (docs/accounts.md), as `SQLiteGalleryStore+Members` on SQLite: account names come from the
/// `account` table of the same database.
extension PostgresGalleryStore {
    public func access(of account: String, to id: GalleryID) async throws(GalleryError) -> GalleryAccess? {
        try await read { connection in
            let rows = try await connection.query(
                """
                SELECT g.owner_id, g.deleted_at, a.name, m.role
                FROM gallery g
                LEFT JOIN account a ON a.id = g.owner_id
                LEFT JOIN gallery_member m ON m.gallery_id = g.id AND m.account_id = \(account)
                WHERE g.id = \(id.rawValue)
                """, logger: .quiet)
            for try await (ownerID, deletedAt, owner, role) in rows.decode((String?, Double?, String?, String?).self) {
                if ownerID == account { return GalleryAccess(role: .owner, owner: owner) }
                // A member does not see the gallery while it is in its owner's Recently deleted.
                guard deletedAt == nil, let role = role.flatMap(GalleryRole.init(rawValue:)) else { return nil }
                return GalleryAccess(role: role, owner: owner)
            }
            return nil
        }
    }

    public func members(of id: GalleryID) async throws(GalleryError) -> [GalleryMember] {
        try await read { connection in
            var members: [GalleryMember] = []
            for try await (name, role) in try await connection.query(
                """
                SELECT a.name, m.role FROM gallery_member m JOIN account a ON a.id = m.account_id
                WHERE m.gallery_id = \(id.rawValue) ORDER BY a.name
                """, logger: .quiet
            ).decode((String, String).self) {
                if let role = GalleryRole(rawValue: role) { members.append(GalleryMember(name: name, role: role)) }
            }
            return members
        }
    }

    public func setMember(named name: String, role: GalleryRole, in id: GalleryID) async throws(GalleryError) {
        guard role != .owner else { throw .invalidMember("A member is an editor or a viewer.") }
        let time = now()
        let lowered = name.lowercased()
        try await write(id) { connection in
            let owner = try await Self.owner(of: id, connection)
            var account: String?
            for try await found in try await connection.query(
                "SELECT id FROM account WHERE name = \(lowered)", logger: .quiet
            ).decode(String.self) {
                account = found
            }
            guard let account else { throw GalleryError.accountNotFound(name) }
            guard account != owner else { throw GalleryError.invalidMember("\(name) owns this gallery already.") }
            try await connection.query(
                """
                INSERT INTO gallery_member (gallery_id, account_id, role, added_at)
                VALUES (\(id.rawValue), \(account), \(role.rawValue), \(time))
                ON CONFLICT (gallery_id, account_id) DO UPDATE SET role = excluded.role
                """, logger: .quiet)
            return ((), nil)
        }
    }

    public func removeMember(named name: String, from id: GalleryID) async throws(GalleryError) {
        let lowered = name.lowercased()
        try await write(id) { connection in
            _ = try await Self.owner(of: id, connection)
            var removed = 0
            for try await _ in try await connection.query(
                """
                DELETE FROM gallery_member WHERE gallery_id = \(id.rawValue)
                AND account_id = (SELECT id FROM account WHERE name = \(lowered)) RETURNING account_id
                """, logger: .quiet
            ).decode(String.self) {
                removed += 1
            }
            guard removed > 0 else { throw GalleryError.memberNotFound(name) }
            return ((), nil)
        }
    }

    public func holdsImage(_ hash: String, visibleTo account: String) async throws(GalleryError) -> Bool {
        try await read { connection in
            for try await held in try await connection.query(
                """
                SELECT EXISTS (
                    SELECT 1 FROM gallery_item i JOIN gallery g ON g.id = i.gallery_id
                    WHERE i.image_hash = \(hash) AND (g.owner_id = \(account) OR (g.deleted_at IS NULL AND EXISTS (
                        SELECT 1 FROM gallery_member m WHERE m.gallery_id = g.id AND m.account_id = \(account)))))
                """, logger: .quiet
            ).decode(Bool.self) {
                return held
            }
            return false
        }
    }

    public func adoptOwnerless(by account: String) async throws(GalleryError) -> Int {
        try await Self.galleryErrors {
            try await database.withConnection { connection in
                var count = 0
                for try await _ in try await connection.query(
                    "UPDATE gallery SET owner_id = \(account) WHERE owner_id IS NULL RETURNING id", logger: .quiet
                ).decode(String.self) {
                    count += 1
                }
                return count
            }
        }
    }

    public func handOver(from account: String, to heir: String?) async throws(GalleryError) -> Int {
        let time = now()
        let onChange = onChange
        let (count, changes): (Int, [HandedOver]) = try await Self.galleryErrors {
            try await database.withTransaction { connection in
                let owned = try await GalleryRow.all(
                    connection.query(
                        "SELECT \(unescaped: GalleryRow.columns) FROM gallery WHERE owner_id = \(account) ORDER BY id FOR UPDATE",
                        logger: .quiet))
                var changes: [HandedOver] = []
                for var row in owned where row.deletedAt == nil {
                    Self.bump(&row, at: time)
                    let change = GalleryChange.deleted(revision: row.revision, deletedAt: Timestamp.text(time))
                    try await connection.query(
                        "UPDATE gallery SET deleted_at = \(time) WHERE id = \(row.id)", logger: .quiet)
                    let id = GalleryID(unchecked: row.id)
                    try await PostgresGalleryEvents.record(change, of: id, bumping: row, connection)
                    changes.append(HandedOver(id: id, change: change))
                }
                try await connection.query(
                    "UPDATE gallery SET owner_id = \(heir) WHERE owner_id = \(account)", logger: .quiet)
                // The heir owns them now: not a member besides. The account's own memberships end.
                try await connection.query(
                    """
                    DELETE FROM gallery_member WHERE account_id = \(account)
                    OR (account_id = \(heir) AND gallery_id IN (SELECT id FROM gallery WHERE owner_id = \(heir)))
                    """, logger: .quiet)
                return (owned.count, changes)
            }
        }
        for handed in changes { onChange(handed.id, handed.change) }
        return count
    }

    /// The gallery's owner (nil: nobody); throws `galleryNotFound`.
    private static func owner(of id: GalleryID, _ connection: PostgresConnection) async throws -> String? {
        for try await owner in try await connection.query(
            "SELECT owner_id FROM gallery WHERE id = \(id.rawValue)", logger: .quiet
        ).decode(String?.self) {
            return owner
        }
        throw GalleryError.galleryNotFound(id.rawValue)
    }
}

/// A gallery `handOver` moved to Recently deleted, and its event.
private struct HandedOver: Sendable {
    var id: GalleryID
    var change: GalleryChange
}
