import Foundation
import PostgresNIO
import TesseraCore
import TesseraPostgres
import TesseraTestSupport
import Testing

/// `tessera library` against the index several servers share (`--database-url`, `TESSERA_DATABASE_URL`), run
/// as a process against the tests' PostgreSQL.
@Suite("tessera library on PostgreSQL, run as a process")
struct LibraryCommandPostgresTests {
    /// A library of the sample photos and two data folders (two machines), removed afterwards.
    private func withFolders(_ body: (_ library: URL, _ first: URL, _ second: URL) async throws -> Void) async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cli-\(UUID().uuidString)")
        let library = base.appendingPathComponent("Photos")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        for folder in ["Cafe", "Pets", "People", "Space"] {
            try FileManager.default.copyItem(
                at: ServePostgresTests.samples.appendingPathComponent(folder),
                to: library.appendingPathComponent(folder))
        }
        try await body(library, base.appendingPathComponent("one"), base.appendingPathComponent("two"))
    }

    @Test func indexesIntoTheSharedIndexAndSearchesItFromAnotherDataFolder() async throws {
        let server = try ServePostgresTests.server()
        try await withFolders { library, first, second in
            try await TestPostgres.withFreshDatabase(on: server) { url in
                let index = try await CLIProcess.run(
                    ["library", "index", library.path, "--database-url", url.urlText],
                    environment: ["TESSERA_DATA": first.path])
                #expect(index.status == 0, "\(index.stderr)")
                #expect(index.stdout.contains("6 added, 0 updated, 0 unchanged"), "\(index.stdout)")

                // Another data folder, the URL from the environment: the same index.
                let shared = ["TESSERA_DATA": second.path, "TESSERA_DATABASE_URL": url.urlText]
                let again = try await CLIProcess.run(["library", "index", library.path], environment: shared)
                #expect(again.stdout.contains("0 added, 0 updated, 6 unchanged"), "\(again.stdout)")
                let table = try await CLIProcess.run(["library", "search", "tabby"], environment: shared)
                #expect(table.status == 0, "\(table.stderr)")
                #expect(table.stdout.contains("Your library · 1 results · page 1"), "\(table.stdout)")
                let json = try await CLIProcess.run(["library", "search", "spa", "--json"], environment: shared)
                let response = try JSONDecoder().decode(SearchResponse.self, from: Data(json.stdout.utf8))
                #expect(response.sections.first?.total == 3, "\(json.stdout) \(json.stderr)")

                // The data folder's own index was never written.
                let local = try await CLIProcess.run(
                    ["library", "search", "tabby"], environment: ["TESSERA_DATA": first.path])
                #expect(local.status == 1)
                #expect(local.stderr.contains("nothing is indexed yet"), "\(local.stderr)")
            }
        }
    }

    @Test func indexingWaitsForNoOneWhileAnotherIndexes() async throws {
        let server = try ServePostgresTests.server()
        try await withFolders { library, first, _ in
            try await TestPostgres.withFreshDatabase(on: server) { url in
                _ = try await PostgresAppDatabase.open(url, poolSize: 1, logger: .init(label: "test"))
                // Given another session holding the indexing lock, as an indexing server does.
                let result = try await PostgresAppDatabase.withSingleConnection(url, logger: .init(label: "test")) {
                    connection in
                    try await connection.query(
                        "SELECT pg_advisory_lock(\(PostgresLibraryStore.indexingLockKey))",
                        logger: .init(label: "test"))
                    return try await CLIProcess.run(
                        ["library", "index", library.path, "--database-url", url.urlText],
                        environment: ["TESSERA_DATA": first.path])
                }
                #expect(result.status == 1)
                #expect(result.stderr.contains("is indexing the shared library index now"), "\(result.stderr)")
                let photos = try await MigrateCommandTests.rowCounts(url)[2]
                #expect(photos == 0)
            }
        }
    }

    @Test func aMalformedDatabaseURLIsBadInput() async throws {
        try await withFolders { library, first, _ in
            let result = try await CLIProcess.run(
                ["library", "search", "tabby", "--database-url", "postgres://nobody@/x"],
                environment: ["TESSERA_DATA": first.path])
            #expect(result.status == 2)
            #expect(result.stderr.contains("is not a PostgreSQL URL: it names no host"), "\(result.stderr)")
        }
    }
}
