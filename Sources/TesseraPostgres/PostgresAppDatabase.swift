import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization
import TesseraCore
import TesseraDatabaseMetrics

/// The PostgreSQL database several Tessera servers share: a pool of connections (`PostgresClient`) and the
/// schema's migrations, run once at start under an advisory lock.
///
/// `open` connects once on its own (bounded by the URL's `connect_timeout`), so a wrong URL, an unreachable
/// server, refused credentials or a schema newer than this binary end start-up with one `SharedDatabaseError`
/// instead of a pool that retries forever. The pool (`PostgresClient`) runs while this database runs as a
/// service of the application's `ServiceGroup`; before and after that (start-up work, the last writes at
/// shutdown, a CLI command) each query gets a connection of its own.
public final class PostgresAppDatabase: Service, Sendable {
    public let url: PostgresURL
    let client: PostgresClient
    /// 0 before `run`, 1 while the pool runs, 2 after.
    private let poolState = Atomic<Int>(0)
    /// How long a query may wait for a connection and its answer before it fails: the pool keeps trying to
    /// reconnect to a database that went away, and a request must not wait for that forever.
    public let queryTimeout: Duration
    let logger: Logger
    let poolSize: Int
    /// Pooled connections held by a `withConnection` now: one asked for while all are held has to wait.
    private let held = Atomic<Int>(0)
    let metrics: DatabaseMetrics

    /// Connects, migrates, and returns with the pool not yet running.
    public static func open(
        _ url: PostgresURL, poolSize: Int, queryTimeout: Duration = .seconds(10),
        metrics: DatabaseMetrics = .disabled, logger: Logger
    ) async throws(SharedDatabaseError) -> PostgresAppDatabase {
        do {
            _ = try await withSingleConnection(url, logger: logger) { connection in
                try await PostgresMigrator.migrate(connection, url: url, logger: logger)
            }
        } catch {
            throw SharedDatabaseError(error, server: url)
        }
        return try PostgresAppDatabase(
            url: url, poolSize: poolSize, queryTimeout: queryTimeout, metrics: metrics, logger: logger)
    }

    private init(
        url: PostgresURL, poolSize: Int, queryTimeout: Duration, metrics: DatabaseMetrics, logger: Logger
    ) throws(SharedDatabaseError) {
        self.url = url
        self.queryTimeout = queryTimeout
        self.logger = logger
        self.poolSize = poolSize
        self.metrics = metrics
        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: try url.clientTLS())
        // One more than asked for: `PostgresGalleryEvents` keeps one for its `LISTEN` while the server runs.
        configuration.options.maximumConnections = poolSize + 1
        // All of them open from the start and kept (postgres-nio pings idle ones): a burst of requests does not
        // wait for connecting and signing in (a few milliseconds of CPU on each side), nor does the first one
        // after a quiet minute.
        configuration.options.minimumConnections = poolSize
        configuration.options.connectTimeout = url.connectTimeout
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// Runs the pool until graceful shutdown (or cancellation).
    public func run() async throws {
        poolState.store(1, ordering: .sequentiallyConsistent)
        await client.run()
        poolState.store(2, ordering: .sequentiallyConsistent)
    }

    /// Runs `body` on a pooled connection (one of its own when the pool does not run) within `queryTimeout`.
    /// What the database throws becomes a `SharedDatabaseError`; what `body` throws itself comes out as it is.
    public func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let (url, logger) = (url, logger)
        let pooled = poolState.load(ordering: .sequentiallyConsistent) == 1
        let seconds = Int(queryTimeout.components.seconds)
        return try await Self.mapping(url) {
            try await withDeadline(
                .now + queryTimeout,
                timedOut: { SharedDatabaseError.unavailable("no answer within \(seconds) seconds") }
            ) {
                if pooled { return try await self.withPooledConnection(body) }
                return try await Self.withSingleConnection(url, logger: logger, body)
            }
        }
    }

    /// Runs `body` on a transaction of its own, counted in `metrics` as a write transaction.
    public func withTransaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let metrics = metrics
        return try await withConnection { connection in
            let start = ContinuousClock.now
            do {
                let value = try await connection.withTransaction(logger: .quiet) { try await body($0) }
                metrics.writeTransaction(took: ContinuousClock.now - start, committed: true)
                return value
            } catch {
                metrics.writeTransaction(took: ContinuousClock.now - start, committed: false)
                throw error
            }
        }
    }

    /// A checkout from the pool, counted: how long it took, whether every connection was held when asked
    /// (postgres-nio keeps its pool's own figures to itself, so these are the checkouts this server made).
    private func withPooledConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let metrics = metrics
        let asked = ContinuousClock.now
        let queued = held.load(ordering: .relaxed) >= poolSize
        return try await client.withConnection { connection in
            self.held.add(1, ordering: .relaxed)
            metrics.connectionTaken(waited: ContinuousClock.now - asked, queued: queued)
            defer {
                self.held.subtract(1, ordering: .relaxed)
                metrics.connectionReturned()
            }
            return try await body(connection)
        }
    }

    /// Runs `body` on a pooled connection for as long as it takes (a `LISTEN`; not counted in `metrics`, being
    /// the one connection the pool keeps beyond `poolSize` for it), only while the pool runs. The pool
    /// connects and, on cancellation, closes it: a connection of our own could be left unclosed by a
    /// cancellation in the middle of connecting.
    func withListeningConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await Self.mapping(url) { try await client.withConnection { try await body($0) } }
    }

    /// Whether the database answers (`SELECT 1` on a pooled connection), for the server's readiness.
    public func ping() async throws {
        try await withConnection { connection in
            _ = try await connection.query("SELECT 1", logger: .quiet)
        }
    }

    /// Runs `body` on a connection of its own, outside the pool (which may not run yet), closed afterwards.
    /// For start-up work (migrations), and whatever runs while the pool does not.
    public static func withSingleConnection<T: Sendable>(
        _ url: PostgresURL, logger: Logger, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        var settings = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: try url.connectionTLS())
        settings.options.connectTimeout = .seconds(url.connectTimeout.components.seconds)
        let configuration = settings
        // The TCP connect has its own timeout; this one also covers a server that accepts and then says nothing.
        let seconds = Int(url.connectTimeout.components.seconds) * 2
        // A connection that arrives after the deadline (or the caller's cancellation) is closed, not dropped:
        // postgres-nio requires every connection to be closed, and a debug build stops on one that is not.
        let late = LateConnection()
        let connection: PostgresConnection
        do {
            connection = try await mapping(url) {
                try await withDeadline(
                    .now + .seconds(seconds),
                    timedOut: {
                        SharedDatabaseError.unreachable(
                            server: url.redacted, reason: "no answer within \(seconds) seconds")
                    }
                ) {
                    let connection = try await PostgresConnection.connect(
                        configuration: configuration, id: 0, logger: logger)
                    guard late.hand(connection) else {
                        try? await connection.close()
                        throw CancellationError()
                    }
                    return connection
                }
            }
        } catch {
            if let connection = late.abandon() { try? await connection.close() }
            throw error
        }
        do {
            let result = try await mapping(url) { try await body(connection) }
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Runs `body`, turning what postgres-nio throws into a `SharedDatabaseError` that names the server without
    /// its password; other errors (a store's own, thrown in a transaction) come out as they are.
    static func mapping<T>(_ url: PostgresURL, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw SharedDatabaseError.mapped(error, server: url)
        }
    }
}

extension PostgresAppDatabase {
    /// The schema version this binary migrates to; a database at a higher one is refused.
    public static var schemaVersion: Int { PostgresMigrator.latestVersion }
    /// Every migration's version, in the order they are applied (numbers are reserved per branch, so a build
    /// may skip one that another branch brings).
    public static var schemaVersions: [Int] { PostgresMigrator.migrations.map(\.version).sorted() }
    /// The `pg_advisory_lock` key servers take while migrating.
    public static var migrationLockKey: Int64 { PostgresMigrator.lockKey }
}

/// Hands a connection made under a deadline to whoever still wants it: the waiting caller, or nobody once it
/// gave up, in which case the connecting side closes it. Exactly one of the two closes a late connection.
private final class LateConnection: Sendable {
    private let state = Mutex<(connection: PostgresConnection?, abandoned: Bool)>((nil, false))

    /// Keeps `connection` for the caller; `false` when the caller has given up.
    func hand(_ connection: PostgresConnection) -> Bool {
        state.withLock { state in
            guard !state.abandoned else { return false }
            state.connection = connection
            return true
        }
    }

    /// The caller gives up; returns a connection handed in meanwhile, for the caller to close.
    func abandon() -> PostgresConnection? {
        state.withLock { state in
            state.abandoned = true
            defer { state.connection = nil }
            return state.connection
        }
    }
}
