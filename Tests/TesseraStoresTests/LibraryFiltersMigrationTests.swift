import Foundation
import PostgresNIO
import TesseraCore
import TesseraLibrary
import TesseraTestSupport
import Testing

@testable import TesseraPostgres

/// Migration 8 (`library filters`) on an index made before it: the photos stay, with empty filter columns
/// that the indexer fills on its next run (docs/filters.md).
@Suite("PostgreSQL migration 8 on an older index")
struct LibraryFiltersMigrationTests {
    @Test func anIndexFromBeforeTheFiltersKeepsItsPhotosWithoutPalettes() async throws {
        try await MigrationTests.withDatabase(before: 8) { url in
            try await MigrationTests.execute(
                url,
                """
                INSERT INTO library_photo (id, root, path, size, modified, format, width, height, title, keywords,
                    tags, metadata, indexed_at, search)
                VALUES ('a', '/photos', 'a.jpg', 1, 1, 'jpeg', 800, 600, 'Old', '{}', '{}', '{}', 1, 'old'::tsvector)
                """)
            let database = try await PostgresAppDatabase.open(url, poolSize: 2, logger: quietLogger)
            #expect(try await MigrationTests.migrationRows(url).map(\.version).contains(8))
            let store = PostgresLibraryStore(database: database, logger: quietLogger)
            let photo = try await store.photo(root: "/photos", path: "a.jpg")
            #expect(photo?.title == "Old")
            #expect(photo != nil && photo?.palette == nil)
            #expect(try await store.pathsWithoutPalette(root: "/photos") == ["a.jpg"])
            let black = try await store.search(SearchQuery("old"), filters: .init(color: .black))
            #expect(black.total == 0, "no palette, no colour match, until the indexer has run")
        }
    }
}
