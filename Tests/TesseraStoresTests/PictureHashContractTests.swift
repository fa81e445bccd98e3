import Foundation
import TesseraCore
import TesseraPostgres
import TesseraSQLite
import TesseraTestSupport
import Testing

@testable import TesseraGalleries

/// Picture hashes on both engines (docs/galleries.md, "Near duplicates"; docs/duplicates.md, "The hash in the
/// database"): each gallery item's, kept with its row, changing neither revision nor events; and each
/// thumbnail's by source, shared by every store on the database, replaced, and purged by age.
@Suite("Picture hashes on both engines")
struct PictureHashContractTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The high bit set too, so a bigint column must keep all 64 bits.
    static let hashes = [PerceptualHash(bits: 0x8000_0000_0000_0001), PerceptualHash(bits: 0x0123_4567_89AB_CDEF)]

    private func withStores(
        _ engine: Engine,
        _ body:
            @escaping @Sendable (any GalleryStoring, _ open: @escaping @Sendable () throws -> any ThumbnailHashStoring)
            async throws -> Void
    ) async throws {
        switch engine {
        case .sqlite:
            try await withTemporaryFolder { folder in
                let database = try AppDatabase.open(inDirectory: folder)
                try await body(SQLiteGalleryStore(database: database, linker: GalleryStoreContractTests.Linker())) {
                    SQLiteThumbnailHashes(database: try AppDatabase.open(inDirectory: folder), logger: quietLogger)
                }
            }
        case .postgres:
            let server = try requirePostgres()
            try await TestPostgres.withRunningDatabase(on: server) { database in
                try await body(PostgresGalleryStore(database: database, linker: GalleryStoreContractTests.Linker())) {
                    PostgresThumbnailHashes(database: database, logger: quietLogger)
                }
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func anItemsHashIsKeptWithItsRowAndIsNotAChange(engine: Engine) async throws {
        try await withStores(engine) { store, _ in
            let gallery = try await store.create(name: "Hashes")
            let first = try await store.add(
                GalleryStoreContractTests.image(0), to: gallery.id, at: nil, ifRevision: nil)
            let second = try await store.add(
                GalleryStoreContractTests.image(1), to: gallery.id, at: nil, ifRevision: nil)
            let other = try await store.create(name: "Other")
            #expect(try await store.pictureHashes(of: gallery.id).isEmpty, "none made yet")

            try await store.setPictureHash(Self.hashes[0], of: first.item.id, in: gallery.id)
            try await store.setPictureHash(Self.hashes[1], of: second.item.id, in: gallery.id)
            // Named in another gallery: left alone.
            try await store.setPictureHash(Self.hashes[1], of: first.item.id, in: other.id)
            #expect(
                try await store.pictureHashes(of: gallery.id)
                    == [first.item.id: Self.hashes[0], second.item.id: Self.hashes[1]])
            #expect(try await store.pictureHashes(of: other.id).isEmpty)
            #expect(try await store.state(of: gallery.id).revision == second.revision, "not a change")
        }
    }

    /// Items without a hash, in every gallery (Recently deleted too), a page at a time by item id: what the
    /// start-up backfill reads.
    @Test(arguments: Engine.allCases)
    func itemsWithoutAHashAreListedAcrossGalleriesInPages(engine: Engine) async throws {
        try await withStores(engine) { store, _ in
            let kept = try await store.create(name: "Kept")
            let deleted = try await store.create(name: "Deleted")
            var expected: [UnhashedPicture] = []
            for (number, gallery) in [kept.id, deleted.id, kept.id, deleted.id, kept.id].enumerated() {
                let image = GalleryStoreContractTests.image(number, hash: String(repeating: "\(number)", count: 64))
                let added = try await store.add(image, to: gallery, at: nil, ifRevision: nil)
                if number == 2 {
                    try await store.setPictureHash(Self.hashes[0], of: added.item.id, in: gallery)
                } else {
                    expected.append(UnhashedPicture(gallery: gallery, item: added.item.id, imageHash: image.hash))
                }
            }
            _ = try await store.delete(deleted.id, ifRevision: nil)
            expected.sort { $0.item.rawValue < $1.item.rawValue }
            let first = try await store.unhashedPictures(after: nil, limit: 3)
            let rest = try await store.unhashedPictures(after: first.last?.item, limit: 3)
            #expect(first == Array(expected.prefix(3)))
            #expect(rest == Array(expected.dropFirst(3)))
            #expect(try await store.unhashedPictures(after: rest.last?.item, limit: 3).isEmpty)
        }
    }

    @Test(arguments: Engine.allCases)
    func anAddWritesTheHashItBringsInItsOwnRow(engine: Engine) async throws {
        try await withStores(engine) { store, _ in
            let gallery = try await store.create(name: "Hashes")
            var image = GalleryStoreContractTests.image(0)
            image.pictureHash = Self.hashes[0]
            let hashed = try await store.add(image, to: gallery.id, at: nil, ifRevision: nil)
            let plain = try await store.add(
                GalleryStoreContractTests.image(1), to: gallery.id, at: 0, ifRevision: nil)
            #expect(try await store.pictureHashes(of: gallery.id) == [hashed.item.id: Self.hashes[0]])
            #expect(plain.revision == hashed.revision + 1, "one revision an add, the hash in it")
            let items = try await store.gallery(gallery.id, items: true).items ?? []
            #expect(items.map(\.id) == [plain.item.id, hashed.item.id], "the row reads back as before")
            // What the near-duplicate check reads: in order, each item's result id read from its stored JSON.
            #expect(
                try await store.pictures(of: gallery.id) == [
                    GalleryPicture(id: plain.item.id, itemID: items[0].item.id.description, hash: nil),
                    GalleryPicture(id: hashed.item.id, itemID: items[1].item.id.description, hash: Self.hashes[0]),
                ])
            #expect(items[0].item.id != items[1].item.id)
        }
    }

    @Test(arguments: Engine.allCases)
    func thumbnailHashesAreSharedReplacedAndPurgedByAge(engine: Engine) async throws {
        try await withStores(engine) { _, open in
            let (one, another) = (try open(), try open())
            #expect(await one.hash(of: "https://example.org/a.jpg") == nil)
            await one.store(Self.hashes[0], for: "https://example.org/a.jpg", now: now)
            await one.store(Self.hashes[1], for: "https://example.org/b.jpg", now: now.addingTimeInterval(100))
            #expect(await another.hash(of: "https://example.org/a.jpg") == Self.hashes[0], "another store sees it")
            await another.store(Self.hashes[1], for: "https://example.org/a.jpg", now: now.addingTimeInterval(200))
            #expect(await one.hash(of: "https://example.org/a.jpg") == Self.hashes[1], "replaced")

            #expect(try await one.purge(before: now.addingTimeInterval(150)) == 1)
            #expect(await another.hash(of: "https://example.org/b.jpg") == nil, "made before the cutoff: gone")
            #expect(await another.hash(of: "https://example.org/a.jpg") == Self.hashes[1])
        }
    }

    /// What the proxy writes: the hashes made together, in one call, one of them replacing a row kept before.
    @Test(arguments: Engine.allCases)
    func aBatchOfThumbnailHashesIsKeptInOneCall(engine: Engine) async throws {
        try await withStores(engine) { _, open in
            let store = try open()
            let sources = (0..<3).map { "https://example.org/\($0).jpg" }
            await store.store(Self.hashes[0], for: sources[0], now: now)
            await store.store(
                [sources[0]: Self.hashes[1], sources[1]: Self.hashes[0], sources[2]: Self.hashes[1]],
                now: now.addingTimeInterval(100))
            let kept = [sources[0]: Self.hashes[1], sources[1]: Self.hashes[0], sources[2]: Self.hashes[1]]
            #expect(try await open().hashes(of: sources) == kept)
            #expect(try await store.purge(before: now.addingTimeInterval(50)) == 0, "all stamped with the batch")
            // An empty batch writes nothing (and is no statement PostgreSQL refuses).
            await store.store([:], now: now)
            #expect(try await open().hashes(of: sources) == kept)
        }
    }

    /// What a search page reads: the hashes kept for any of its pictures, in one call. A store opened later
    /// sees what was kept before; a source never hashed, or purged, has none.
    @Test(arguments: Engine.allCases)
    func aPagesThumbnailHashesAreReadTogether(engine: Engine) async throws {
        try await withStores(engine) { _, open in
            let (a, b, never) = ("https://example.org/a.jpg", "https://example.org/b.jpg", "https://example.org/c.jpg")
            let one = try open()
            #expect(await one.hashes(of: [a, b, never]).isEmpty)
            await one.store(Self.hashes[0], for: a, now: now)
            await one.store(Self.hashes[1], for: b, now: now.addingTimeInterval(100))
            #expect(await one.hashes(of: [a, b, never]) == [a: Self.hashes[0], b: Self.hashes[1]])
            let later = try open()
            #expect(await later.hashes(of: [never, b]) == [b: Self.hashes[1]], "kept before it opened")
            #expect(try await later.purge(before: now.addingTimeInterval(50)) == 1)
            #expect(await later.hashes(of: [a, b]) == [b: Self.hashes[1]], "purged: gone")
            await later.store(Self.hashes[0], for: a, now: now.addingTimeInterval(200))
            #expect(await later.hashes(of: [a]) == [a: Self.hashes[0]], "kept again after the purge")
        }
    }
}
