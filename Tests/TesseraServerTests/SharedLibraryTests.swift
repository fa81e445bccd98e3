import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import TesseraCore
import TesseraLibrary
import TesseraPostgres
import TesseraTestSupport
import Testing

/// Servers on one PostgreSQL database share one library index, which one of them at a time fills.
@Suite("The shared library index on PostgreSQL")
struct SharedLibraryTests {
    @Test func aServerThatDoesNotGetTheIndexingLockSaysSoAndSearchesTheSharedIndex() async throws {
        guard let server = try TestPostgres.server() else {
            try Test.cancel(Comment(rawValue: TestPostgres.skipMessage))
        }
        let library = try LocalLibraryAPITests.libraryCopy()
        defer { try? FileManager.default.removeItem(at: library) }
        let root = library.resolvingSymlinksInPath().path
        try await TestPostgres.withFreshDatabase(on: server) { url in
            try await TestPostgres.running(
                try await PostgresAppDatabase.open(url, poolSize: 2, logger: quiet)
            ) { database in
                // Given another server indexing, which has saved one photo so far.
                let other = PostgresLibraryStore(database: database, logger: quiet)
                try await other.save([
                    LibraryPhoto(
                        root: root, path: "Pets/chelsea-the-tabby-cat.jpg",
                        stamp: FileStamp(size: 1, modifiedNanoseconds: 1), format: "jpeg", width: 451, height: 300,
                        title: "Lighthouse keeper", indexedAt: Date())
                ])
                let (holding, hold) = AsyncStream.makeStream(of: Void.self)
                let (release, letGo) = AsyncStream.makeStream(of: Void.self)
                let indexing = Task {
                    try await other.whileIndexing {
                        hold.yield()
                        for await _ in release { break }
                    }
                }
                for await _ in holding { break }
                // When a server starts with the same library folder.
                let log = LogCapture()
                try await withTessera(
                    StandInSet().list,
                    extraEnvironment: ["TESSERA_DATABASE_URL": url.urlText, "TESSERA_LIBRARY": library.path],
                    logger: log.logger()
                ) { client, _ in
                    // Then it finds what the other one indexed, and nothing it would have indexed itself.
                    let found = try await LocalLibraryAPITests.search(client, "lighthouse")
                    #expect(found.items.map(\.title) == ["Lighthouse keeper"])
                    for _ in 0..<500
                    where !log.entries.contains(where: { $0.message.hasPrefix("library not indexed here") }) {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                    #expect(log.entries.contains { $0.message.hasPrefix("library not indexed here: another server") })
                    let own = try await client.execute(uri: "/api/search?q=tabby&scope=local", method: .get)
                        .json(SearchResponse.self)
                    #expect(own.sections.first?.items.isEmpty == true, "it did not index the folder itself")
                }
                letGo.yield()
                try await indexing.value
            }
        }
    }
}

private let quiet = Logger(label: "tessera.test", factory: { _ in SwiftLogNoOpLogHandler() })
