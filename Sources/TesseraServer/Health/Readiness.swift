import Foundation
import Logging
import Synchronization
import TesseraCore
import TesseraSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// Why the server cannot do its work; `/api/health` answers `503` with it (`APIError+Readiness.swift`).
public enum ReadinessError: Error, Equatable, CustomStringConvertible {
    /// The data folder is missing, not a folder, or not writable.
    case dataFolder(path: String, reason: String)
    /// The database file is missing, unreadable, not a database, or the database (SQLite's file, or the
    /// shared PostgreSQL named by its URL without the password) does not answer.
    case database(path: String, reason: String)

    public var description: String {
        switch self {
        case .dataFolder(let path, let reason): "The data folder \(path) \(reason)."
        case .database(let path, let reason): "The database \(path) \(reason)."
        }
    }
}

/// Whether the data folder and the database are usable, for `/api/health`.
///
/// Checked at most once per `maxAge` (a second): `/api/health` is polled by load balancers and benchmarked,
/// so most answers cost one lock; the check itself (a `stat`, an `access`, the database file's first 16
/// bytes and a `SELECT 1`) runs on a thread of its own, since a dying disk can block those calls. A change
/// of state is logged once, with the details the answer leaves out.
final class Readiness: Sendable {
    private struct State {
        var checkedAt: ContinuousClock.Instant?
        var problem: ReadinessError?
    }

    private let dataDirectory: URL
    private let database: AppDatabase
    private let shared: SharedDatabase?
    private let maxAge: Duration
    private let logger: Logger
    private let state = Mutex(State())
    private let pool = BlockingPool(size: 1, name: "readiness")

    /// The PostgreSQL database several servers share (`TESSERA_DATABASE_URL`): its name for messages (the URL
    /// without the password) and how to ask whether it answers.
    struct SharedDatabase: Sendable {
        var name: String
        var ping: @Sendable () async throws -> Void
    }

    init(
        dataDirectory: URL, database: AppDatabase, shared: SharedDatabase? = nil, maxAge: Duration = .seconds(1),
        logger: Logger
    ) {
        self.dataDirectory = dataDirectory
        self.database = database
        self.shared = shared
        self.maxAge = maxAge
        self.logger = logger
    }

    /// What is wrong, if anything, as of at most `maxAge` ago.
    func problem() async -> ReadinessError? {
        let now = ContinuousClock.now
        let cached: ReadinessError?? = state.withLock { state in
            guard let checkedAt = state.checkedAt, now - checkedAt < maxAge else { return nil }
            return .some(state.problem)
        }
        if let cached { return cached }
        let problem = await check()
        let before = state.withLock { state in
            defer { state = State(checkedAt: now, problem: problem) }
            return state.problem
        }
        if problem != before {
            if let problem {
                logger.error("not ready", metadata: ["reason": "\(problem)"])
            } else {
                logger.notice("ready again")
            }
        }
        return problem
    }

    private func check() async -> ReadinessError? {
        let folder = dataDirectory.path
        let file = database.path
        let files: ReadinessError?? = await pool.run { () -> ReadinessError? in
            if let reason = Self.folderProblem(folder) { return .dataFolder(path: folder, reason: reason) }
            if let reason = Self.databaseFileProblem(file) { return .database(path: file, reason: reason) }
            return nil
        }
        if case .some(.some(let problem)) = files { return problem }
        do {
            try await database.ping()
        } catch {
            return .database(path: file, reason: "does not answer (\(error))")
        }
        guard let shared else { return nil }
        do {
            // Shorter than the pool's query timeout: a load balancer polling this wants an answer soon.
            try await withDeadline(.now + .seconds(3), timedOut: { ReadinessTimeout() }) { try await shared.ping() }
            return nil
        } catch {
            return .database(path: shared.name, reason: "does not answer (\(error))")
        }
    }

    /// Why `path` is not a folder this process can write in, if it is not.
    private static func folderProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot be read (\(String(cString: strerror(errno))))" }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "is not a folder" }
        guard access(path, W_OK | X_OK) == 0 else { return "is not writable (\(String(cString: strerror(errno))))" }
        return nil
    }

    /// Why the file at `path` is not a readable, writable SQLite database, if it is not. (The open
    /// connections would still work on a file deleted or replaced under them, but what they write then
    /// is lost: the file at the path is what counts.)
    private static func databaseFileProblem(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return "cannot be opened (\(String(cString: strerror(errno))))" }
        defer { close(descriptor) }
        guard access(path, R_OK | W_OK) == 0 else { return "is not writable (\(String(cString: strerror(errno))))" }
        var header = [UInt8](repeating: 0, count: 16)
        let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 16) }
        guard count == 16, header == Array("SQLite format 3\0".utf8) else { return "is not a SQLite database" }
        return nil
    }
}

private struct ReadinessTimeout: Error, CustomStringConvertible {
    var description: String { "no answer within 3 seconds" }
}
