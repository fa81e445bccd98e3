import Foundation
import Logging
import PostgresNIO
import TesseraPostgres

/// A PostgreSQL database of its own for each test, on the throw-away cluster `./scripts/test` starts
/// (`scripts/lib/postgres.sh`; by hand: `scripts/postgres`). Tests in parallel never share one, and each is
/// dropped when its test ends.
///
/// Without `TESSERA_TEST_DATABASE_URL` the PostgreSQL tests are skipped (`swift test` by hand), unless
/// `TESSERA_TEST_REQUIRE_DATABASE=1` (set by `./scripts/test`): then they fail, so a broken set-up never
/// passes quietly.
public enum TestPostgres {
    public enum SetupError: Error, CustomStringConvertible {
        case missingURL

        public var description: String {
            "TESSERA_TEST_DATABASE_URL is not set but TESSERA_TEST_REQUIRE_DATABASE is: the PostgreSQL tests cannot run."
        }
    }

    public static let skipMessage =
        "PostgreSQL tests skipped: TESSERA_TEST_DATABASE_URL is not set (./scripts/test sets it; scripts/postgres starts a cluster by hand)."

    /// The cluster's URL (a user allowed to create databases); `nil` when the tests should be skipped.
    public static func server() throws -> PostgresURL? {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["TESSERA_TEST_DATABASE_URL"], !text.isEmpty else {
            if environment["TESSERA_TEST_REQUIRE_DATABASE"] == "1" { throw SetupError.missingURL }
            return nil
        }
        return try PostgresURL(parsing: text)
    }

    /// Creates an empty database with a random name on `server`, runs `body` with its URL, then drops it.
    public static func withFreshDatabase<T>(
        on server: PostgresURL, _ body: (PostgresURL) async throws -> T
    ) async throws -> T {
        let name = "tessera_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try await administer(server, "CREATE DATABASE \(name)")
        do {
            let result = try await body(server.with(database: name))
            try await administer(server, "DROP DATABASE \(name) WITH (FORCE)")
            return result
        } catch {
            try? await administer(server, "DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
    }

    /// A fresh database, migrated, its pool running while `body` runs.
    public static func withRunningDatabase<T: Sendable>(
        on server: PostgresURL, poolSize: Int = 4, _ body: @escaping @Sendable (PostgresAppDatabase) async throws -> T
    ) async throws -> T {
        try await withFreshDatabase(on: server) { url in
            let database = try await PostgresAppDatabase.open(url, poolSize: poolSize, logger: logger)
            return try await running(database, body)
        }
    }

    /// Runs `database`'s pool while `body` runs.
    public static func running<T: Sendable>(
        _ database: PostgresAppDatabase, _ body: @escaping @Sendable (PostgresAppDatabase) async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await database.run()
                return nil
            }
            group.addTask { try await body(database) }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            throw CancellationError()
        }
    }

    /// Runs one statement on the server's own `postgres` database.
    public static func administer(_ server: PostgresURL, _ sql: String) async throws {
        try await PostgresAppDatabase.withSingleConnection(server.with(database: "postgres"), logger: logger) {
            connection in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            return ()
        }
    }

    static let logger = Logger(label: "tessera.test.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
}
