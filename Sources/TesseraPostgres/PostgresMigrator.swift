import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL schema as numbered migrations, applied in order at start, each in its own transaction with
/// its row in `schema_migrations`. Like the SQLite ones (`AppDatabase`): never edited after they ship; a
/// change is a new migration with the next number.
///
/// Servers starting together take `pg_advisory_lock` first, on the one connection that migrates (the lock
/// belongs to the session), so one migrates and the others then find nothing left to do.
enum PostgresMigrator {
    struct Migration: Sendable {
        let version: Int
        let name: String
        let sql: [String]
    }

    /// Any fixed number, the same in every Tessera: what servers wait on while one migrates.
    static let lockKey: Int64 = 0x7465_7373_6572_61  // "tessera"
    /// How long a starting server waits for another's migrations before it gives up.
    static let lockWaitSeconds = 300

    /// Every migration, in order: the tables', then those adding functions (`PostgresMigrator+Functions`).
    static let migrations: [Migration] = tables + functions

    static let tables: [Migration] = [
        Migration(
            version: 1, name: "response cache and settings",
            sql: [
                """
                CREATE TABLE response_cache (
                    key text PRIMARY KEY,
                    source text NOT NULL,
                    body bytea NOT NULL,
                    stored_at double precision NOT NULL,
                    expires_at double precision NOT NULL)
                """,
                "CREATE INDEX response_cache_expires_at ON response_cache (expires_at)",
                // Values every server must agree on, such as the image-signing secret: written once, then read.
                "CREATE TABLE setting (name text PRIMARY KEY, value bytea NOT NULL)",
            ]),
        Migration(
            version: 2, name: "galleries",
            sql: [
                """
                CREATE TABLE gallery (
                    id text PRIMARY KEY,
                    name text NOT NULL,
                    created_at double precision NOT NULL,
                    updated_at double precision NOT NULL,
                    deleted_at double precision,
                    revision integer NOT NULL)
                """,
                // Deferrable (checked at the end of each statement, not row by row): renumbering a gallery is
                // then one UPDATE that may pass through positions another row still holds.
                """
                CREATE TABLE gallery_item (
                    id text PRIMARY KEY,
                    gallery_id text NOT NULL REFERENCES gallery (id) ON DELETE CASCADE,
                    position bigint NOT NULL,
                    item text NOT NULL,
                    source_url text,
                    image_hash text NOT NULL,
                    image_format text NOT NULL,
                    image_size bigint NOT NULL,
                    width integer NOT NULL,
                    height integer NOT NULL,
                    added_at double precision NOT NULL,
                    UNIQUE (gallery_id, position) DEFERRABLE INITIALLY IMMEDIATE)
                """,
                "CREATE INDEX gallery_item_image_hash ON gallery_item (image_hash)",
            ]),
        // Request budgets every server shares (PostgresRequestBudgets): a row per budget (its pause, and the
        // row takers lock), and the requests counted per slot of each limit's period.
        Migration(
            version: 3, name: "source request budgets",
            sql: [
                "CREATE TABLE source_budget (budget text PRIMARY KEY, paused_until double precision NOT NULL)",
                """
                CREATE TABLE source_budget_slot (
                    budget text NOT NULL REFERENCES source_budget (budget) ON DELETE CASCADE,
                    period bigint NOT NULL,
                    slot bigint NOT NULL,
                    count bigint NOT NULL,
                    PRIMARY KEY (budget, period, slot))
                """,
            ]),
        Migration(
            version: 4, name: "gallery events",
            sql: [
                // One row per change, written in the change's transaction (PostgresGalleryEvents). No foreign
                // key: a gallery's last event ("gone") outlives it. `revision` is NULL for that one.
                """
                CREATE TABLE gallery_event (
                    id bigserial PRIMARY KEY,
                    gallery_id text NOT NULL,
                    revision integer,
                    change text NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now())
                """,
                "CREATE INDEX gallery_event_gallery ON gallery_event (gallery_id, revision)",
            ]),
        // The photo index every server searches (PostgresLibraryStore). `seq` plays SQLite's rowid: the order
        // photos were first indexed in. `metadata` is label, value, label, value... `search` holds the
        // words of title (A), keywords (B), tags (C) and caption (D), split and folded by the server.
        Migration(
            version: 5, name: "library index",
            sql: [
                """
                CREATE TABLE library_photo (
                    seq bigserial PRIMARY KEY,
                    id text NOT NULL UNIQUE,
                    root text NOT NULL,
                    path text NOT NULL,
                    size bigint NOT NULL,
                    modified bigint NOT NULL,
                    format text NOT NULL,
                    width integer,
                    height integer,
                    title text NOT NULL,
                    caption text,
                    keywords text[] NOT NULL,
                    tags text[] NOT NULL,
                    creator text,
                    copyright text,
                    captured_at double precision,
                    camera text,
                    metadata text[] NOT NULL,
                    indexed_at double precision NOT NULL,
                    search tsvector NOT NULL,
                    UNIQUE (root, path))
                """,
                "CREATE INDEX library_photo_search ON library_photo USING gin (search)",
            ]),
        // TESSERA_AUTH=accounts (PostgresAccountStore; docs/accounts.md): secrets only as SHA-256 or bcrypt.
        // `login_failure` is the sign-in back-off every server shares.
        Migration(
            version: 6, name: "accounts",
            sql: [
                """
                CREATE TABLE account (
                    id text PRIMARY KEY,
                    name text NOT NULL UNIQUE,
                    password_hash text NOT NULL,
                    is_admin boolean NOT NULL,
                    created_at double precision NOT NULL)
                """,
                """
                CREATE TABLE account_session (
                    hash text PRIMARY KEY,
                    account_id text NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                    created_at double precision NOT NULL,
                    last_seen_at double precision NOT NULL)
                """,
                "CREATE INDEX account_session_account ON account_session (account_id)",
                """
                CREATE TABLE access_token (
                    id text PRIMARY KEY,
                    account_id text NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                    name text NOT NULL,
                    scope text NOT NULL,
                    secret_hash text NOT NULL UNIQUE,
                    created_at double precision NOT NULL,
                    last_used_at double precision)
                """,
                "CREATE INDEX access_token_account ON access_token (account_id)",
                """
                CREATE TABLE login_failure (
                    key text PRIMARY KEY,
                    count integer NOT NULL,
                    last_failure_at double precision NOT NULL,
                    locked_until double precision)
                """,
            ]),
        // Accounts' galleries (docs/accounts.md): each gallery's owner (none for galleries made without accounts)
        // and its members. No cascade from an owner: `tessera user remove` hands galleries to an admin first.
        Migration(
            version: 7, name: "gallery owners",
            sql: [
                "ALTER TABLE gallery ADD COLUMN owner_id text REFERENCES account (id)",
                "CREATE INDEX gallery_owner ON gallery (owner_id)",
                """
                CREATE TABLE gallery_member (
                    gallery_id text NOT NULL REFERENCES gallery (id) ON DELETE CASCADE,
                    account_id text NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                    role text NOT NULL,
                    added_at double precision NOT NULL,
                    PRIMARY KEY (gallery_id, account_id))
                """,
                "CREATE INDEX gallery_member_account ON gallery_member (account_id)",
            ]),
        // The library's search filters (docs/filters.md). `colors` is the palette computed at index time, a
        // bit per colour (`LibraryPhoto.colorBits`), NULL for rows indexed before it (the indexer reads those
        // files again); the licence as the photo's metadata gave it when indexed, with its two facts.
        Migration(
            version: 8, name: "library filters",
            sql: [
                """
                ALTER TABLE library_photo
                    ADD COLUMN colors integer,
                    ADD COLUMN license_id text,
                    ADD COLUMN license_family text,
                    ADD COLUMN commercial_use boolean,
                    ADD COLUMN modification_allowed boolean
                """
            ]),
        // Public and drop links (docs/accounts.md, "Public and drop links"), as SQLite's `v7-links`: links to
        // one gallery each, gone with it when it is deleted for good and with the account that made them.
        Migration(
            version: 9, name: "gallery links",
            sql: [
                """
                CREATE TABLE gallery_link (
                    id text PRIMARY KEY,
                    gallery_id text NOT NULL REFERENCES gallery (id) ON DELETE CASCADE,
                    kind text NOT NULL,
                    slug text NOT NULL UNIQUE,
                    password_hash text,
                    expires_at double precision,
                    created_at double precision NOT NULL,
                    created_by text NOT NULL REFERENCES account (id) ON DELETE CASCADE,
                    opens integer NOT NULL DEFAULT 0,
                    last_opened_at double precision,
                    show_items boolean NOT NULL DEFAULT false,
                    per_hour integer NOT NULL,
                    drops integer NOT NULL DEFAULT 0,
                    drop_window_start double precision,
                    drop_window_count integer NOT NULL DEFAULT 0)
                """,
                "CREATE INDEX gallery_link_gallery ON gallery_link (gallery_id)",
                "CREATE INDEX gallery_link_created_by ON gallery_link (created_by)",
            ]),
        // One picture, shown once (docs/duplicates.md), as SQLite's `v8-picture-hashes`: each gallery item's perceptual hash (the 64 bits as a
        // bigint; NULL until made), and each thumbnail's by image source, shared by every server (a cache:
        // `tessera migrate` does not copy it).
        Migration(
            version: 10, name: "picture hashes",
            sql: [
                "ALTER TABLE gallery_item ADD COLUMN picture_hash bigint",
                """
                CREATE TABLE thumbnail_hash (
                    source text PRIMARY KEY,
                    hash bigint NOT NULL,
                    made_at double precision NOT NULL)
                """,
            ]),
        // As SQLite's `v9-picture-hashes-again`: hashes made the old way go (`PerceptualHash.version` 2), to be
        // made again on first need.
        Migration(
            version: 11, name: "picture hashes again",
            sql: [
                "UPDATE gallery_item SET picture_hash = NULL WHERE picture_hash IS NOT NULL",
                "DELETE FROM thumbnail_hash",
            ]),
    ]

    static var latestVersion: Int { migrations.map(\.version).max() ?? 0 }

    /// Brings the database to `latestVersion`; returns the versions this call applied.
    @discardableResult
    static func migrate(
        _ connection: PostgresConnection, url: PostgresURL, logger: Logger, migrations: [Migration] = migrations
    ) async throws -> [Int] {
        try await connection.query(PostgresQuery(unsafeSQL: "SET lock_timeout = '\(lockWaitSeconds)s'"), logger: logger)
        do {
            try await connection.query("SELECT pg_advisory_lock(\(lockKey))", logger: logger)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55P03" {  // lock_not_available
            throw SharedDatabaseError.migrationLockTimeout(seconds: lockWaitSeconds)
        }
        try await connection.query("RESET lock_timeout", logger: logger)
        do {
            let applied = try await migrateLocked(connection, url: url, logger: logger, migrations: migrations)
            try await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
            return applied
        } catch {
            // Closing the connection would release it too; unlocking says so sooner.
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
            throw error
        }
    }

    private static func migrateLocked(
        _ connection: PostgresConnection, url: PostgresURL, logger: Logger, migrations: [Migration]
    ) async throws -> [Int] {
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now())
            """, logger: logger)
        var current = 0
        for try await version in try await connection.query(
            "SELECT coalesce(max(version), 0) FROM schema_migrations", logger: logger
        ).decode(Int.self) {
            current = version
        }
        let known = migrations.map(\.version).max() ?? 0
        if current > known { throw SharedDatabaseError.schemaTooNew(found: current, known: known) }
        var applied: [Int] = []
        for migration in migrations.sorted(by: { $0.version < $1.version }) where migration.version > current {
            do {
                try await connection.withTransaction(logger: logger) { connection in
                    for statement in migration.sql {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query(
                        "INSERT INTO schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                        logger: logger)
                }
            } catch {
                let reason = SharedDatabaseError(error, server: url).description
                throw SharedDatabaseError.migrationFailed(
                    version: migration.version, name: migration.name, reason: reason)
            }
            logger.info(
                "postgres migrated", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
            applied.append(migration.version)
        }
        return applied
    }
}
