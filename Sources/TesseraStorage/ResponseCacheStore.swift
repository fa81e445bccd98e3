import Foundation
import GRDB
import Logging
import Synchronization
import TesseraCore

/// Sources' answers kept in SQLite until their terms let them go (Pixabay: 24 hours).
///
/// Writes are behind the answer: `store` only queues the body (readable at once from memory) and one
/// background task writes the queue to SQLite in order, so a cache write never delays a search, even
/// when SQLite checkpoints its WAL. A cache failure is logged and treated as a miss: it never fails a search.
///
/// The keys and their expiry dates are also kept in memory (read once at start), so a miss, the common
/// case for a new search, costs a dictionary lookup rather than a trip to SQLite. Answers another process
/// writes to the same data folder meanwhile (a `tessera search` beside a running server) are seen after
/// a restart; until then they are misses, which only costs a request to the service.
public final class ResponseCacheStore: ResponseCacheStoring {
    private enum Job: Sendable {
        case write(key: String, source: SourceID, body: Data, expiresAt: Date)
        case flush(CheckedContinuation<Void, Never>)
    }

    private let database: AppDatabase
    private let logger: Logger
    private let queued: QueuedCacheWrites
    private let expiries: Mutex<[String: Date]>
    private let jobs: AsyncStream<Job>.Continuation

    public init(database: AppDatabase, logger: Logger = Logger(label: "tessera.cache")) {
        self.database = database
        self.logger = logger
        let queued = QueuedCacheWrites()
        self.queued = queued
        do {
            expiries = Mutex(
                try database.writer.read { db in
                    var expiries: [String: Date] = [:]
                    let rows = try Row.fetchCursor(db, sql: "SELECT key, expiresAt FROM responseCache")
                    while let row = try rows.next() {
                        expiries[row["key"]] = Date(timeIntervalSince1970: row["expiresAt"])
                    }
                    return expiries
                })
        } catch {
            logger.warning("response cache unreadable, starting empty", metadata: ["error": "\(error)"])
            expiries = Mutex([:])
        }
        let (stream, jobs) = AsyncStream.makeStream(of: Job.self)
        self.jobs = jobs
        Task {
            for await job in stream {
                switch job {
                case .write(let key, let source, let body, let expiresAt):
                    await Self.write(key, source, body, expiresAt, database: database, logger: logger)
                    queued.remove(key, ifBody: body)
                case .flush(let done):
                    done.resume()
                }
            }
        }
    }

    deinit {
        jobs.finish()
    }

    public func body(for key: String, now: Date) async -> Data? {
        if let (body, expiresAt) = queued.get(key) { return expiresAt > now ? body : nil }
        guard let expiresAt = expiries.withLock({ $0[key] }), expiresAt > now else { return nil }
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
        queued.put(key, body, expiresAt)
        expiries.withLock { $0[key] = expiresAt }
        jobs.yield(.write(key: key, source: source, body: body, expiresAt: expiresAt))
    }

    /// Returns once every answer stored so far is in SQLite. Shutdown and tests call it.
    public func flush() async {
        await withCheckedContinuation { jobs.yield(.flush($0)) }
    }

    /// Deletes answers whose time is up; returns how many. Run at start-up.
    @discardableResult
    public func purgeExpired(now: Date = Date()) async throws -> Int {
        await flush()
        expiries.withLock { $0 = $0.filter { $0.value > now } }
        return try await database.write { db in
            try db.execute(
                sql: "DELETE FROM responseCache WHERE expiresAt <= ?", arguments: [now.timeIntervalSince1970])
            return db.changesCount
        }
    }

    /// How many answers are stored, for tests and metrics.
    public func count() async throws -> Int {
        await flush()
        return try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM responseCache") ?? 0
        }
    }

    private static func write(
        _ key: String, _ source: SourceID, _ body: Data, _ expiresAt: Date, database: AppDatabase, logger: Logger
    ) async {
        do {
            try await database.write { db in
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
}
