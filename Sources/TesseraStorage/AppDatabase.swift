import Foundation
import GRDB

/// Tessera's SQLite database: one file in the data folder, WAL mode, schema changes as named migrations.
///
/// Receives its writer (a `DatabasePool` on disk, a `DatabaseQueue` in memory for tests) and migrates it
/// before anything else can use it.
public final class AppDatabase: Sendable {
    public let writer: any DatabaseWriter

    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// Opens (creating if needed) `tessera.sqlite` in `directory`.
    public static func open(inDirectory directory: URL) throws -> AppDatabase {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        // WAL with synchronous=NORMAL: a commit is in the WAL before it returns, so it survives the process
        // being killed; only a power cut can lose the last commits. Without the fsync per commit a cache
        // write costs microseconds instead of milliseconds on every search's critical path.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let pool = try DatabasePool(
            path: directory.appendingPathComponent("tessera.sqlite").path, configuration: configuration)
        return try AppDatabase(pool)
    }

    /// A private in-memory database, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue())
    }

    /// Migrations are named once and never edited after they ship: add a new one instead.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-response-cache") { db in
            try db.create(table: "responseCache") { table in
                table.primaryKey("key", .text)
                table.column("source", .text).notNull()
                table.column("body", .blob).notNull()
                table.column("storedAt", .double).notNull()
                table.column("expiresAt", .double).notNull().indexed()
            }
        }
        return migrator
    }
}
