import Foundation
import GRDB
import Logging
import TesseraCore
import TesseraSources

/// Sources' answers kept in SQLite until their terms let them go (Pixabay: 24 hours).
///
/// A cache failure is logged and treated as a miss: it must never fail a search.
public struct ResponseCacheStore: ResponseCaching {
    private let database: AppDatabase
    private let logger: Logger

    public init(database: AppDatabase, logger: Logger = Logger(label: "tessera.cache")) {
        self.database = database
        self.logger = logger
    }

    public func body(for key: String, now: Date) async -> Data? {
        do {
            return try await database.writer.read { db in
                try Data.fetchOne(
                    db, sql: "SELECT body FROM responseCache WHERE key = ? AND expiresAt > ?",
                    arguments: [key, now.timeIntervalSince1970])
            }
        } catch {
            logger.warning("response cache read failed", metadata: ["error": "\(error)"])
            return nil
        }
    }

    public func store(_ body: Data, for key: String, source: SourceID, expiresAt: Date) async {
        do {
            try await database.writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO responseCache (key, source, body, storedAt, expiresAt) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT(key) DO UPDATE SET
                            source = excluded.source, body = excluded.body,
                            storedAt = excluded.storedAt, expiresAt = excluded.expiresAt
                        """,
                    arguments: [
                        key, source.rawValue, body, Date().timeIntervalSince1970, expiresAt.timeIntervalSince1970,
                    ])
            }
        } catch {
            logger.warning("response cache write failed", metadata: ["error": "\(error)"])
        }
    }

    /// Deletes answers whose time is up; returns how many. Run at start-up.
    @discardableResult
    public func purgeExpired(now: Date = Date()) async throws -> Int {
        try await database.writer.write { db in
            try db.execute(
                sql: "DELETE FROM responseCache WHERE expiresAt <= ?", arguments: [now.timeIntervalSince1970])
            return db.changesCount
        }
    }

    /// How many answers are stored, for tests and metrics.
    public func count() async throws -> Int {
        try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM responseCache") ?? 0 }
    }
}
