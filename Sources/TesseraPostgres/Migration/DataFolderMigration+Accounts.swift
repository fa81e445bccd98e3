import Foundation
import GRDB
import PostgresNIO
import TesseraSQLite

/// Accounts, their personal access tokens, and who owns and shares each gallery (docs/cluster.md). Sessions and
/// sign-in failures are not copied: everyone signs in once more, with the same password.
extension DataFolderMigration {
    struct AccountRow: Sendable {
        var id: String
        var name: String
        var passwordHash: String
        var isAdmin: Bool
        var createdAt: Double
    }

    struct TokenRow: Sendable {
        var id: String
        var accountID: String
        var name: String
        var scope: String
        var secretHash: String
        var createdAt: Double
        var lastUsedAt: Double?
    }

    struct MemberRow: Sendable {
        var accountID: String
        var role: String
        var addedAt: Double
    }

    // MARK: - Reading SQLite

    static func readAccounts(_ db: Database, into snapshot: inout Snapshot) throws {
        for row in try Row.fetchAll(
            db, sql: "SELECT id, name, passwordHash, isAdmin, createdAt FROM account ORDER BY createdAt, id")
        {
            snapshot.accounts.append(
                AccountRow(
                    id: row["id"], name: row["name"], passwordHash: row["passwordHash"], isAdmin: row["isAdmin"],
                    createdAt: row["createdAt"]))
        }
        for row in try Row.fetchAll(
            db,
            sql: "SELECT id, accountId, name, scope, secretHash, createdAt, lastUsedAt FROM accessToken ORDER BY id")
        {
            snapshot.tokens.append(
                TokenRow(
                    id: row["id"], accountID: row["accountId"], name: row["name"], scope: row["scope"],
                    secretHash: row["secretHash"], createdAt: row["createdAt"], lastUsedAt: row["lastUsedAt"]))
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, ownerId FROM gallery WHERE ownerId IS NOT NULL") {
            snapshot.owners[row["id"]] = row["ownerId"] as String
        }
        for row in try Row.fetchAll(
            db, sql: "SELECT galleryId, accountId, role, addedAt FROM galleryMember ORDER BY galleryId, accountId")
        {
            snapshot.members[row["galleryId"], default: []].append(
                MemberRow(accountID: row["accountId"], role: row["role"], addedAt: row["addedAt"]))
        }
    }

    // MARK: - Copying

    /// Refuses, before anything is copied, a database where a name this folder has belongs to another account
    /// (made there with `tessera user add`): copying would leave two people one name.
    func checkAccountNames(_ snapshot: Snapshot, _ postgres: PostgresAppDatabase) async throws {
        let idsByName = Dictionary(uniqueKeysWithValues: snapshot.accounts.map { ($0.name, $0.id) })
        let names = Array(idsByName.keys)
        guard !names.isEmpty else { return }
        let taken = try await postgres.withConnection { connection in
            var taken: [String] = []
            for try await (id, name) in try await connection.query(
                "SELECT id, name FROM account WHERE name = ANY(\(names))", logger: .quiet
            ).decode((String, String).self) where idsByName[name] != id {
                taken.append(name)
            }
            return taken
        }
        if !taken.isEmpty { throw MigrationError.accountNameTaken(names: taken.sorted(), server: url.redacted) }
    }

    /// Every account and token in one transaction, upserted by id (SQLite wins). Tokens a copied account has in
    /// PostgreSQL but no longer in SQLite (revoked since an earlier run) are removed, and a password changed
    /// since then ends that account's sessions there, as `tessera user passwd` does.
    func copyAccounts(_ snapshot: Snapshot, _ postgres: PostgresAppDatabase) async throws {
        guard !snapshot.accounts.isEmpty else { return }
        try await postgres.withTransaction { connection in
            for account in snapshot.accounts {
                try await connection.query(
                    """
                    DELETE FROM account_session WHERE account_id IN (
                        SELECT id FROM account WHERE id = \(account.id) AND password_hash <> \(account.passwordHash))
                    """, logger: .quiet)
                try await connection.query(
                    """
                    INSERT INTO account (id, name, password_hash, is_admin, created_at)
                    VALUES (\(account.id), \(account.name), \(account.passwordHash), \(account.isAdmin),
                        \(account.createdAt))
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, password_hash = excluded.password_hash,
                        is_admin = excluded.is_admin, created_at = excluded.created_at
                    """, logger: .quiet)
            }
            let (accounts, tokens) = (snapshot.accounts.map(\.id), snapshot.tokens.map(\.id))
            try await connection.query(
                "DELETE FROM access_token WHERE account_id = ANY(\(accounts)) AND NOT (id = ANY(\(tokens)))",
                logger: .quiet)
            for token in snapshot.tokens {
                try await connection.query(
                    """
                    INSERT INTO access_token (id, account_id, name, scope, secret_hash, created_at, last_used_at)
                    VALUES (\(token.id), \(token.accountID), \(token.name), \(token.scope), \(token.secretHash),
                        \(token.createdAt), \(token.lastUsedAt))
                    ON CONFLICT (id) DO UPDATE SET account_id = excluded.account_id, name = excluded.name,
                        scope = excluded.scope, secret_hash = excluded.secret_hash, created_at = excluded.created_at,
                        last_used_at = excluded.last_used_at
                    """, logger: .quiet)
            }
            return ()
        }
    }

    /// Inside a gallery's transaction, after its row: members PostgreSQL has that SQLite no longer has removed,
    /// the others upserted.
    static func copyMembers(_ members: [MemberRow], of gallery: String, _ connection: PostgresConnection)
        async throws
    {
        let ids = members.map(\.accountID)
        try await connection.query(
            "DELETE FROM gallery_member WHERE gallery_id = \(gallery) AND NOT (account_id = ANY(\(ids)))",
            logger: .quiet)
        for member in members {
            try await connection.query(
                """
                INSERT INTO gallery_member (gallery_id, account_id, role, added_at)
                VALUES (\(gallery), \(member.accountID), \(member.role), \(member.addedAt))
                ON CONFLICT (gallery_id, account_id) DO UPDATE SET role = excluded.role, added_at = excluded.added_at
                """, logger: .quiet)
        }
    }

    // MARK: - Verifying

    /// Accounts, tokens, owned galleries and members counted on both sides; on PostgreSQL only those of this
    /// folder's accounts and galleries.
    func countAccounts(_ snapshot: Snapshot, sqlite: AppDatabase) async throws -> [MigrationReport.Count] {
        let local = try await sqlite.writer.read { db in
            [
                try Int.fetchOne(db, sql: "SELECT count(*) FROM account") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM accessToken") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM gallery WHERE ownerId IS NOT NULL") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM galleryMember") ?? 0,
            ]
        }
        let (accounts, galleries) = (snapshot.accounts.map(\.id), snapshot.galleries.map(\.id))
        let queries: [PostgresQuery] = [
            "SELECT count(*) FROM account WHERE id = ANY(\(accounts))",
            "SELECT count(*) FROM access_token WHERE account_id = ANY(\(accounts))",
            "SELECT count(*) FROM gallery WHERE id = ANY(\(galleries)) AND owner_id IS NOT NULL",
            "SELECT count(*) FROM gallery_member WHERE gallery_id = ANY(\(galleries))",
        ]
        let shared = try await PostgresAppDatabase.withSingleConnection(url, logger: logger) { connection in
            var shared: [Int] = []
            for query in queries {
                for try await count in try await connection.query(query, logger: .quiet).decode(Int.self) {
                    shared.append(count)
                }
            }
            return shared
        }
        let names = ["accounts", "access tokens", "galleries with an owner", "gallery members"]
        return zip(names, zip(local, shared)).map {
            MigrationReport.Count(what: $0.0, sqlite: $0.1.0, postgres: $0.1.1)
        }
    }

    /// Ids of the galleries whose owner or members (account and role), read again from both, differ.
    func unsharedGalleries(_ sqlite: AppDatabase) async throws -> [String] {
        typealias Sharing = [String: Set<String>]
        let local: (Sharing, [String]) = try await sqlite.writer.read { db in
            var sharing: Sharing = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, ownerId FROM gallery WHERE ownerId IS NOT NULL") {
                sharing[row["id"], default: []].insert("owner " + (row["ownerId"] as String))
            }
            for row in try Row.fetchAll(db, sql: "SELECT galleryId, accountId, role FROM galleryMember") {
                sharing[row["galleryId"], default: []].insert(
                    (row["role"] as String) + " " + (row["accountId"] as String))
            }
            return (sharing, try String.fetchAll(db, sql: "SELECT id FROM gallery"))
        }
        let galleries = local.1
        let shared = try await PostgresAppDatabase.withSingleConnection(url, logger: logger) { connection in
            var sharing: Sharing = [:]
            for try await (id, owner) in try await connection.query(
                "SELECT id, owner_id FROM gallery WHERE id = ANY(\(galleries)) AND owner_id IS NOT NULL",
                logger: .quiet
            ).decode((String, String).self) {
                sharing[id, default: []].insert("owner " + owner)
            }
            for try await (id, account, role) in try await connection.query(
                "SELECT gallery_id, account_id, role FROM gallery_member WHERE gallery_id = ANY(\(galleries))",
                logger: .quiet
            ).decode((String, String, String).self) {
                sharing[id, default: []].insert(role + " " + account)
            }
            return sharing
        }
        return galleries.filter { local.0[$0, default: []] != shared[$0, default: []] }.sorted()
    }

    /// Accounts PostgreSQL holds that this data folder does not: made there, or removed in SQLite after an
    /// earlier run (then still able to sign in there: `tessera user remove` them on PostgreSQL).
    func otherAccounts(_ snapshot: Snapshot) async throws -> [String] {
        let ids = snapshot.accounts.map(\.id)
        return try await PostgresAppDatabase.withSingleConnection(url, logger: logger) { connection in
            var names: [String] = []
            for try await name in try await connection.query(
                "SELECT name FROM account WHERE NOT (id = ANY(\(ids))) ORDER BY name", logger: .quiet
            ).decode(String.self) {
                names.append(name)
            }
            return names
        }
    }
}
