import Foundation
import Logging
import PostgresNIO
import Synchronization
import TesseraCore

/// Sources' answers in PostgreSQL, shared by every server on the database: what one instance fetched, the others
/// answer from. The same contract as the SQLite store (`SQLiteResponseCache`): writes are queued behind the
/// answer (readable at once from memory) and written in order by one background task; any failure is logged
/// and is a miss, never a failed search.
///
/// Unlike the SQLite store it keeps no index of keys in memory: other instances add answers all the time, so
/// every lookup asks the database (one indexed read).
public final class PostgresResponseCache: ResponseCacheStoring {
    private enum Job: Sendable {
        case write(key: String, source: SourceID, body: Data, expiresAt: Date)
        case flush(CheckedContinuation<Void, Never>)
    }

    private let database: PostgresAppDatabase
    private let logger: Logger
    private let queued = QueuedCacheWrites()
    private let jobs: AsyncStream<Job>.Continuation

    public init(database: PostgresAppDatabase, logger: Logger = Logger(label: "tessera.cache")) {
        self.database = database
        self.logger = logger
        let (stream, jobs) = AsyncStream.makeStream(of: Job.self)
        self.jobs = jobs
        Task { [queued] in
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
        let moment = now.timeIntervalSince1970
        do {
            return try await database.withConnection { connection -> Data? in
                let rows = try await connection.query(
                    "SELECT body FROM response_cache WHERE key = \(key) AND expires_at > \(moment)",
                    logger: Logger.quiet)
                for try await body in rows.decode(Data.self) { return body }
                return nil
            }
        } catch {
            logger.warning("response cache read failed", metadata: ["error": "\(error)"])
            return nil
        }
    }

    public func store(_ body: Data, for key: String, source: SourceID, expiresAt: Date) async {
        queued.put(key, body, expiresAt)
        jobs.yield(.write(key: key, source: source, body: body, expiresAt: expiresAt))
    }

    public func flush() async {
        await withCheckedContinuation { jobs.yield(.flush($0)) }
    }

    @discardableResult
    public func purgeExpired(now: Date = Date()) async throws -> Int {
        await flush()
        let moment = now.timeIntervalSince1970
        return try await database.withConnection { connection -> Int in
            let rows = try await connection.query(
                "WITH gone AS (DELETE FROM response_cache WHERE expires_at <= \(moment) RETURNING 1) SELECT count(*) FROM gone",
                logger: Logger.quiet)
            var count = 0
            for try await value in rows.decode(Int.self) { count = value }
            return count
        }
    }

    public func count() async throws -> Int {
        await flush()
        return try await database.withConnection { connection -> Int in
            var count = 0
            for try await value in try await connection.query("SELECT count(*) FROM response_cache", logger: .quiet)
                .decode(Int.self)
            {
                count = value
            }
            return count
        }
    }

    private static func write(
        _ key: String, _ source: SourceID, _ body: Data, _ expiresAt: Date, database: PostgresAppDatabase,
        logger: Logger
    ) async {
        let storedAt = Date().timeIntervalSince1970
        let expires = expiresAt.timeIntervalSince1970
        let sourceName = source.rawValue
        do {
            try await database.withConnection { connection in
                try await connection.query(
                    """
                    INSERT INTO response_cache (key, source, body, stored_at, expires_at)
                    VALUES (\(key), \(sourceName), \(body), \(storedAt), \(expires))
                    ON CONFLICT (key) DO UPDATE SET
                        source = excluded.source, body = excluded.body,
                        stored_at = excluded.stored_at, expires_at = excluded.expires_at
                    """, logger: Logger.quiet)
                return ()
            }
        } catch {
            logger.warning("response cache write failed", metadata: ["error": "\(error)"])
        }
    }
}

extension Logger {
    /// postgres-nio logs every query at debug level with its parameters; our own logger never sees them.
    static let quiet = Logger(label: "tessera.postgres.query", factory: { _ in SwiftLogNoOpLogHandler() })
}
