import TesseraTestSupport

@testable import TesseraPostgres

extension MigrationTests {
    /// A fresh database with the migrations before `version` only: older data for a test of that migration.
    static func withDatabase(before version: Int, _ body: (PostgresURL) async throws -> Void) async throws {
        let server = try requirePostgres()
        try await TestPostgres.withFreshDatabase(on: server) { url in
            try await PostgresAppDatabase.withSingleConnection(url, logger: quietLogger) { connection in
                try await PostgresMigrator.migrate(
                    connection, url: url, logger: quietLogger,
                    migrations: PostgresMigrator.migrations.filter { $0.version < version })
                return ()
            }
            try await body(url)
        }
    }
}
