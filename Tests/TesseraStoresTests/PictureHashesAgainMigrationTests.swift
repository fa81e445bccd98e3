import Foundation
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

@testable import TesseraPostgres

/// Migration 11 (`picture hashes again`, as SQLite's `v9-picture-hashes-again`) on a database with hashes made
/// the old way (`PerceptualHash.version` 1): they go, the rows that kept them stay, and the items' hashes are
/// made again on first need.
@Suite("PostgreSQL migration 11 on hashes made the old way")
struct PictureHashesAgainMigrationTests {
    @Test func hashesMadeTheOldWayAreDroppedAndTheirItemsKept() async throws {
        try await MigrationTests.withDatabase(before: 11) { url in
            let gallery = GalleryID(unchecked: "g")
            for statement in [
                "INSERT INTO gallery (id, name, created_at, updated_at, revision) VALUES ('g', 'Old', 1, 1, 3)",
                """
                INSERT INTO gallery_item (id, gallery_id, position, item, image_hash, image_format, image_size,
                    width, height, added_at, picture_hash)
                VALUES ('a', 'g', 1, '{}', 'sha', 'jpeg', 10, 400, 300, 1, 81985529216486895),
                    ('b', 'g', 2, '{}', 'sha', 'jpeg', 10, 400, 300, 1, NULL)
                """,
                "INSERT INTO thumbnail_hash (source, hash, made_at) VALUES ('https://cdn.example/a.jpg', 255, 1)",
            ] {
                try await MigrationTests.execute(url, statement)
            }
            let database = try await PostgresAppDatabase.open(url, poolSize: 2, logger: quietLogger)
            #expect(
                try await MigrationTests.migrationRows(url).map(\.version).filter { $0 >= 10 }.prefix(2) == [10, 11])
            let store = PostgresGalleryStore(database: database, linker: GalleryStoreContractTests.Linker())
            #expect(try await store.pictureHashes(of: gallery).isEmpty, "made again on first need")
            #expect(try await store.storedImages(of: gallery).count == 2, "the items stay")
            let thumbnails = PostgresThumbnailHashes(database: database, logger: quietLogger)
            #expect(await thumbnails.hash(of: "https://cdn.example/a.jpg") == nil)
            // A hash made the new way is kept as before.
            try await store.setPictureHash(PerceptualHash(bits: 7), of: GalleryItemID(unchecked: "a"), in: gallery)
            #expect(
                try await store.pictureHashes(of: gallery) == [GalleryItemID(unchecked: "a"): PerceptualHash(bits: 7)])
        }
    }
}
