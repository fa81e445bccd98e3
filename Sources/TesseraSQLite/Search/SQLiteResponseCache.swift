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
/// The queue is written a quarter of a second at a time, in one transaction, once 20 ms have passed without
/// a new answer, rather than as each answer comes: waking the writer for each one, and its insert on the
/// machine's other core, added ~0.3 ms to the slowest section of a search (docs/search.md,
/// "Caching"). An answer not yet written when the process dies is only a cache miss.
///
/// The keys and their expiry dates are also kept in memory (read once at start), so a miss, the common
/// case for a new search, costs a dictionary lookup rather than a trip to SQLite. Answers another process
/// writes to the same data folder meanwhile (a `tessera search` beside a running server) are seen after
/// a restart; until then they are misses, which only costs a request to the service.
public final class SQLiteResponseCache: ResponseCacheStoring {
    private struct Entry: Sendable {
        let key: String
        let source: SourceID
        let body: Data
        let expiresAt: Date
    }

    private enum Job: Sendable {
        case write
        case flush(CheckedContinuation<Void, Never>)
    }

    /// Answers stored and not yet handed to the writer, and when the last one came.
    private final class Pending: Sendable {
        private let state = Mutex<(entries: [Entry], last: ContinuousClock.Instant)>(([], .now))

        func append(_ entry: Entry) {
            state.withLock { state in
                state.entries.append(entry)
                state.last = .now
            }
        }
        var isEmpty: Bool { state.withLock { $0.entries.isEmpty } }
        var sinceLast: Duration { .now - state.withLock { $0.last } }
        func take() -> [Entry] {
            state.withLock { state in
                defer { state.entries = [] }
                return state.entries
            }
        }
    }

    /// How often the queue is written.
    static let writeInterval = Duration.milliseconds(250)
    /// How long no answer must have come before the queue is written, a few times at most: an answer's coming
    /// is when its search's last section is being finished, on the machine's other core.
    static let lull = Duration.milliseconds(20)

    private let database: AppDatabase
    private let logger: Logger
    private let queued: QueuedCacheWrites
    private let expiries: Mutex<[String: Date]>
    private let jobs: AsyncStream<Job>.Continuation
    private let pending = Pending()
    private let ticker: Task<Void, Never>

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
        let pending = pending
        Task {
            for await job in stream {
                let entries = pending.take()
                if !entries.isEmpty {
                    await Self.write(entries, database: database, logger: logger)
                    for entry in entries { queued.remove(entry.key, ifBody: entry.body) }
                }
                if case .flush(let done) = job { done.resume() }
            }
        }
        ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.writeInterval)
                for _ in 0..<5 where pending.sinceLast < Self.lull { try? await Task.sleep(for: Self.lull) }
                if !pending.isEmpty { jobs.yield(.write) }
            }
        }
    }

    deinit {
        ticker.cancel()
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
        pending.append(Entry(key: key, source: source, body: body, expiresAt: expiresAt))
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

    private static func write(_ entries: [Entry], database: AppDatabase, logger: Logger) async {
        do {
            try await database.write { db in
                let storedAt = Date().timeIntervalSince1970
                for entry in entries {
                    try db.execute(
                        sql: """
                            INSERT INTO responseCache (key, source, body, storedAt, expiresAt) VALUES (?, ?, ?, ?, ?)
                            ON CONFLICT(key) DO UPDATE SET
                                source = excluded.source, body = excluded.body,
                                storedAt = excluded.storedAt, expiresAt = excluded.expiresAt
                            """,
                        arguments: [
                            entry.key, entry.source.rawValue, entry.body, storedAt,
                            entry.expiresAt.timeIntervalSince1970,
                        ])
                }
            }
        } catch {
            logger.warning("response cache write failed", metadata: ["error": "\(error)"])
        }
    }
}
