import Foundation
import GRDB
import Testing

@testable import TesseraSQLite

@Suite("App database: migrations and reopening")
struct AppDatabaseTests {
    /// The migrations that have shipped, in order. New ones go after these; these never change.
    private static let shipped = ["v1-response-cache", "v2-library", "v3-galleries", "v4-accounts"]

    private func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-db-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    @Test func aNewDatabaseGetsEveryMigrationInOrder() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.read { db throws in
            let applied = try AppDatabase.migrator.appliedMigrations(db)
            #expect(applied == AppDatabase.migrator.migrations)
            #expect(Array(applied.prefix(Self.shipped.count)) == Self.shipped)
            #expect(try AppDatabase.migrator.hasCompletedMigrations(db))
            for table in [
                "responseCache", "libraryPhoto", "libraryPhotoSearch", "gallery", "galleryItem", "account",
                "accountSession",
                "accessToken", "loginFailure",
            ] {
                #expect(try db.tableExists(table), "\(table)")
            }
        }
    }

    @Test func openingCreatesTheFolderAndOneFileInWALMode() throws {
        try withFolder { folder in
            let database = try AppDatabase.open(inDirectory: folder.appendingPathComponent("nested"))
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("nested/tessera.sqlite").path))
            let (journal, synchronous) = try database.writer.read { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
            }
            #expect(journal == "wal")
            // 1 is NORMAL: a commit is in the WAL when it returns, without an fsync per commit.
            #expect(synchronous == 1)
        }
    }

    @Test func reopeningKeepsTheRowsAndRunsNoMigrationAgain() throws {
        try withFolder { folder in
            // Given a database that has been used and closed.
            do {
                let database = try AppDatabase.open(inDirectory: folder)
                try database.writer.write { db in
                    try db.execute(
                        sql:
                            "INSERT INTO responseCache (key, source, body, storedAt, expiresAt) VALUES (?, ?, ?, ?, ?)",
                        arguments: ["k", "pixabay", Data("kept".utf8), 1.0, 2.0])
                }
            }
            // When it is opened again, the migrator finds nothing to do and the row is still there.
            let reopened = try AppDatabase.open(inDirectory: folder)
            try reopened.writer.read { db throws in
                #expect(try AppDatabase.migrator.appliedMigrations(db) == AppDatabase.migrator.migrations)
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM grdb_migrations") == Self.migrationCount)
                #expect(
                    try Data.fetchOne(db, sql: "SELECT body FROM responseCache WHERE key = 'k'") == Data("kept".utf8))
            }
        }
    }

    @Test func anOlderDatabaseIsBroughtUpToDateKeepingItsRows() throws {
        // Given a database as the first release left it: only the response cache.
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v1-response-cache")
        try queue.write { db in
            try db.execute(
                sql:
                    "INSERT INTO responseCache (key, source, body, storedAt, expiresAt) VALUES ('old', 'flickr', x'00', 1, 2)"
            )
        }
        // When the app opens it, the later migrations run and the old rows stay.
        let database = try AppDatabase(queue)
        try database.writer.read { db throws in
            #expect(try AppDatabase.migrator.hasCompletedMigrations(db))
            #expect(try db.tableExists("galleryItem"))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM responseCache") == 1)
        }
    }

    /// `v6-filters` over a database migrated up to `v5-gallery-owners`: the library's rows stay, with empty
    /// filter columns that the indexer fills on its next run (docs/filters.md).
    @Test func anIndexFromBeforeTheFiltersKeepsItsPhotosWithEmptyFilterColumns() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v5-gallery-owners")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO libraryPhoto (id, root, path, size, modified, format, width, height, title, keywords,
                        tags, metadata, indexedAt)
                    VALUES ('a', '/photos', 'a.jpg', 1, 1, 'jpeg', 800, 600, 'Old', '[]', '[]', '[]', 1)
                    """)
        }
        let database = try AppDatabase(queue)
        try database.writer.read { db throws in
            let applied = try AppDatabase.migrator.appliedMigrations(db)
            let owners = try #require(applied.firstIndex(of: "v5-gallery-owners"))
            #expect(applied.firstIndex(of: "v6-filters") == owners + 1)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM libraryPhoto"))
            #expect(row["title"] == "Old")
            for column in ["colors", "licenseId", "licenseFamily", "commercialUse", "modificationAllowed"] {
                #expect(row.hasColumn(column) && (row[column] as DatabaseValue).isNull, "\(column)")
            }
        }
    }

    /// `v9-picture-hashes-again`: hashes made the old way (`PerceptualHash.version` 1) are dropped, the rows
    /// they were kept in stay, and the galleries' items are made again on first need (NULL).
    @Test func hashesMadeTheOldWayAreDroppedAndTheirItemsKept() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v8-picture-hashes")
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO gallery (id, name, createdAt, updatedAt, revision) VALUES ('g', 'Old', 1, 1, 3)")
            for (id, hash) in [("a", "0123456789abcdef" as String?), ("b", nil)] {
                try db.execute(
                    sql: """
                        INSERT INTO galleryItem (id, galleryId, position, item, imageHash, imageFormat, imageSize,
                            width, height, addedAt, pictureHash)
                        VALUES (?, 'g', ?, '{}', 'sha', 'jpeg', 10, 400, 300, 1, ?)
                        """,
                    arguments: [id, id == "a" ? 1 : 2, hash])
            }
            try db.execute(
                sql: "INSERT INTO thumbnailHash (source, hash, madeAt) VALUES ('https://cdn.example/a.jpg', 'ff', 1)")
        }
        let database = try AppDatabase(queue)
        try database.writer.read { db throws in
            let applied = try AppDatabase.migrator.appliedMigrations(db)
            let hashes = try #require(applied.firstIndex(of: "v8-picture-hashes"))
            #expect(applied.firstIndex(of: "v9-picture-hashes-again") == hashes + 1)
            #expect(try String.fetchAll(db, sql: "SELECT id FROM galleryItem ORDER BY id") == ["a", "b"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM galleryItem WHERE pictureHash IS NOT NULL") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM thumbnailHash") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT revision FROM gallery") == 3, "not a change to the gallery")
        }
    }

    private static var migrationCount: Int { AppDatabase.migrator.migrations.count }
}
