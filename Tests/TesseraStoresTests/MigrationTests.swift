import Foundation
import PostgresNIO
import TesseraPostgres
import TesseraTestSupport
import Testing

/// The schema's migrations on the real PostgreSQL cluster: once, in order, under the advisory lock.
@Suite("PostgreSQL migrations")
struct MigrationTests {
    @Test func aFreshDatabaseIsMigratedToTheLatestVersion() async throws {
        let server = try requirePostgres()
        try await TestPostgres.withFreshDatabase(on: server) { url in
            _ = try await PostgresAppDatabase.open(url, poolSize: 2, logger: quietLogger)
            let rows = try await Self.migrationRows(url)
            #expect(rows.map(\.version) == PostgresAppDatabase.schemaVersions)
            #expect(try await Self.tables(url).isSuperset(of: ["response_cache", "setting", "schema_migrations"]))
            // Opening again finds nothing to do.
            _ = try await PostgresAppDatabase.open(url, poolSize: 2, logger: quietLogger)
            #expect(try await Self.migrationRows(url).map(\.version) == rows.map(\.version))
        }
    }

    @Test func serversStartingTogetherMigrateOnce() async throws {
        let server = try requirePostgres()
        try await TestPostgres.withFreshDatabase(on: server) { url in
            // Six "servers" at once on one empty database.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<6 {
                    group.addTask { _ = try await PostgresAppDatabase.open(url, poolSize: 2, logger: quietLogger) }
                }
                try await group.waitForAll()
            }
            let rows = try await Self.migrationRows(url)
            #expect(rows.map(\.version) == PostgresAppDatabase.schemaVersions, "each version once, in order")
            #expect(try await Self.tables(url).contains("response_cache"))
            // The advisory lock was let go: another connection takes it at once.
            let free = try await PostgresAppDatabase.withSingleConnection(url, logger: quietLogger) { connection in
                var taken = false
                for try await value in try await connection.query(
                    "SELECT pg_try_advisory_lock(\(PostgresAppDatabase.migrationLockKey))", logger: quietLogger
                ).decode(Bool.self) {
                    taken = value
                }
                return taken
            }
            #expect(free)
        }
    }

    @Test func aSchemaNewerThanThisBinaryIsRefused() async throws {
        let server = try requirePostgres()
        try await TestPostgres.withFreshDatabase(on: server) { url in
            _ = try await PostgresAppDatabase.open(url, poolSize: 2, logger: quietLogger)
            let future = PostgresAppDatabase.schemaVersion + 1
            try await Self.execute(
                url, "INSERT INTO schema_migrations (version, name) VALUES (\(future), 'from the future')")
            await #expect {
                _ = try await PostgresAppDatabase.open(url, poolSize: 2, logger: quietLogger)
            } throws: { error in
                guard let error = error as? SharedDatabaseError, case .schemaTooNew(let found, let known) = error else {
                    return false
                }
                return found == future && known == PostgresAppDatabase.schemaVersion
            }
        }
    }

    // MARK: - Helpers

    static func migrationRows(_ url: PostgresURL) async throws -> [(version: Int, name: String)] {
        try await PostgresAppDatabase.withSingleConnection(url, logger: quietLogger) { connection in
            var rows: [(Int, String)] = []
            for try await row in try await connection.query(
                "SELECT version, name FROM schema_migrations ORDER BY version", logger: quietLogger
            ).decode((Int, String).self) {
                rows.append(row)
            }
            return rows.map { (version: $0.0, name: $0.1) }
        }
    }

    static func tables(_ url: PostgresURL) async throws -> Set<String> {
        try await PostgresAppDatabase.withSingleConnection(url, logger: quietLogger) { connection in
            var names: Set<String> = []
            for try await name in try await connection.query(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'", logger: quietLogger
            ).decode(String.self) {
                names.insert(name)
            }
            return names
        }
    }

    static func execute(_ url: PostgresURL, _ sql: String) async throws {
        try await PostgresAppDatabase.withSingleConnection(url, logger: quietLogger) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: quietLogger)
            return ()
        }
    }
}
