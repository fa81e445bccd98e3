import Foundation
import Synchronization
import TesseraCore
import TesseraPostgres
import TesseraSQLite
import TesseraTestSupport
import Testing

@testable import TesseraGalleries

/// The gallery store's contract on both engines: order and renumbering, revisions and If-Match, Recently
/// deleted, and changes told once each, in commit order.
@Suite("Gallery store on both engines")
struct GalleryStoreContractTests {
    struct Linker: ImageLinking {
        func link(_ upstreamURL: String, variant: ImageVariant) -> String {
            "/img/\(variant.rawValue)/s/\(upstreamURL)"
        }
    }

    static func image(_ number: Int, hash: String = String(repeating: "a", count: 64)) -> NewGalleryImage {
        NewGalleryImage(
            item: Item(id: ItemID(source: .upload, nativeID: "\(number)"), kind: .image, title: "Image \(number)"),
            sourceURL: nil, hash: hash, format: "image/jpeg", size: 10, width: 800, height: 600)
    }

    /// Runs `body` with a new store on an empty database of `engine`, telling `changes` of every change.
    private func withStore(
        _ engine: Engine, changes: ChangeRecord = ChangeRecord(),
        _ body: @escaping @Sendable (any GalleryStoring) async throws -> Void
    ) async throws {
        let onChange: @Sendable (GalleryID, GalleryChange) -> Void = { _, change in changes.append(change) }
        switch engine {
        case .sqlite:
            try await body(
                SQLiteGalleryStore(database: try AppDatabase.inMemory(), linker: Linker(), onChange: onChange))
        case .postgres:
            let server = try requirePostgres()
            try await TestPostgres.withRunningDatabase(on: server) { database in
                try await body(PostgresGalleryStore(database: database, linker: Linker(), onChange: onChange))
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func insertingAgainAndAgainAtOneSpotRenumbersAndKeepsTheOrder(engine: Engine) async throws {
        let changes = ChangeRecord()
        try await withStore(engine, changes: changes) { store in
            let gallery = try await store.create(name: "Crowded")
            let first = try await store.add(Self.image(0), to: gallery.id, at: nil, ifRevision: nil)
            let last = try await store.add(Self.image(1), to: gallery.id, at: nil, ifRevision: nil)
            var expected = [first.item.id, last.item.id]
            // Each insert halves the room between the first item and the one after it: 16 halvings use up
            // a gap of 2^16, so 40 inserts renumber the gallery at least twice.
            for number in 2..<42 {
                let added = try await store.add(Self.image(number), to: gallery.id, at: 1, ifRevision: nil)
                #expect(added.index == 1)
                expected.insert(added.item.id, at: 1)
            }
            let moved = try await store.move(expected[0], in: gallery.id, to: 20, ifRevision: nil)
            #expect(moved.index == 20)
            expected.insert(expected.remove(at: 0), at: 20)
            let now = try await store.gallery(gallery.id, items: true)
            #expect(now.items?.map(\.id) == expected)
            #expect(now.revision == 1 + 42 + 1)
        }
        #expect(changes.revisions == Array(2...44), "one change per revision after the creation, told in order")
    }

    @Test(arguments: Engine.allCases)
    func movesLandWhereAskedAndPastTheEndMeansLast(engine: Engine) async throws {
        try await withStore(engine) { store in
            let gallery = try await store.create(name: "Order")
            var expected: [GalleryItemID] = []
            for number in 0..<6 {
                expected.append(
                    try await store.add(Self.image(number), to: gallery.id, at: nil, ifRevision: nil).item.id)
            }
            for (from, to) in [(0, 5), (5, 0), (2, 3), (4, 1), (1, 99), (3, 3)] {
                let id = expected.remove(at: from)
                let placed = try await store.move(id, in: gallery.id, to: to, ifRevision: nil)
                expected.insert(id, at: min(to, expected.count))
                #expect(placed.index == min(to, expected.count - 1))
                #expect(try await store.gallery(gallery.id, items: true).items?.map(\.id) == expected)
            }
            let front = try await store.add(Self.image(9), to: gallery.id, at: 0, ifRevision: nil)
            #expect(front.index == 0)
            #expect(try await store.gallery(gallery.id, items: true).items?.first?.id == front.item.id)
        }
    }

    /// A list gives every gallery its own item count and its first item's thumbnail as the cover, however
    /// many galleries it holds; an empty gallery has no cover.
    @Test(arguments: Engine.allCases)
    func aListGivesEachGalleryItsCountAndCover(engine: Engine) async throws {
        try await withStore(engine) { store in
            let empty = try await store.create(name: "Empty")
            let one = try await store.create(name: "One")
            let three = try await store.create(name: "Three")
            let hashes = ["d", "e", "f", "0"].map { String(repeating: $0, count: 64) }
            _ = try await store.add(Self.image(0, hash: hashes[0]), to: one.id, at: nil, ifRevision: nil)
            var items: [GalleryItemID] = []
            for number in 1...3 {
                items.append(
                    try await store.add(
                        Self.image(number, hash: hashes[number]), to: three.id, at: nil, ifRevision: nil
                    )
                    .item.id)
            }
            // The last item moved to the front becomes the cover.
            _ = try await store.move(items[2], in: three.id, to: 0, ifRevision: nil)
            let listed = Dictionary(
                uniqueKeysWithValues: try await store.list(deleted: false).map { ($0.id, $0) })
            #expect(listed.count == 3)
            #expect(listed[empty.id]?.itemCount == 0 && listed[empty.id]?.cover == nil)
            #expect(listed[one.id]?.itemCount == 1)
            #expect(listed[one.id]?.cover?.url.contains(hashes[0]) == true, "\(String(describing: listed[one.id]))")
            #expect(listed[three.id]?.itemCount == 3)
            #expect(listed[three.id]?.cover?.url.contains(hashes[3]) == true, "\(String(describing: listed[three.id]))")
            let alone = try await store.gallery(three.id, items: false)
            #expect(alone.itemCount == 3 && alone.cover == listed[three.id]?.cover)
        }
    }

    @Test(arguments: Engine.allCases)
    func ifMatchRefusesAStaleRevisionAndChangesNothing(engine: Engine) async throws {
        try await withStore(engine) { store in
            let gallery = try await store.create(name: "Guarded")
            let added = try await store.add(Self.image(1), to: gallery.id, at: nil, ifRevision: 1)
            #expect(added.revision == 2)
            await #expect(throws: GalleryError.revisionMismatch(expected: 1, current: 2)) {
                _ = try await store.add(Self.image(2), to: gallery.id, at: nil, ifRevision: 1)
            }
            await #expect(throws: GalleryError.revisionMismatch(expected: 1, current: 2)) {
                _ = try await store.rename(gallery.id, to: "Other", ifRevision: 1)
            }
            let renamed = try await store.rename(gallery.id, to: "Other", ifRevision: 2)
            #expect(renamed.name == "Other" && renamed.revision == 3 && renamed.itemCount == 1)
            await #expect(throws: GalleryError.itemNotFound("gi_nosuchitem")) {
                _ = try await store.remove(GalleryItemID(unchecked: "gi_nosuchitem"), from: gallery.id, ifRevision: nil)
            }
            #expect(try await store.remove(added.item.id, from: gallery.id, ifRevision: 3) == 4)
            #expect(try await store.revisions(of: [gallery.id, GalleryID.random()]) == [gallery.id: 4])
        }
    }

    @Test(arguments: Engine.allCases)
    func recentlyDeletedKeepsItemsUntilDeletedForGood(engine: Engine) async throws {
        try await withStore(engine) { store in
            let kept = try await store.create(name: "Kept")
            let gone = try await store.create(name: "Gone")
            let shared = String(repeating: "b", count: 64)
            let own = String(repeating: "c", count: 64)
            _ = try await store.add(Self.image(1, hash: shared), to: kept.id, at: nil, ifRevision: nil)
            let copy = try await store.add(Self.image(2, hash: shared), to: gone.id, at: nil, ifRevision: nil)
            _ = try await store.add(Self.image(3, hash: own), to: gone.id, at: nil, ifRevision: nil)
            let deleted = try await store.delete(gone.id, ifRevision: nil)
            #expect(deleted.deletedAt != nil)
            let state = try await store.state(of: gone.id)
            #expect(state.deleted && state.revision == deleted.revision)
            #expect(try await store.state(of: kept.id).deleted == false)
            #expect(try await store.list(deleted: false).map(\.id) == [kept.id])
            #expect(try await store.list(deleted: true).map(\.id) == [gone.id])
            await #expect(throws: GalleryError.galleryDeleted) {
                _ = try await store.add(Self.image(4), to: gone.id, at: nil, ifRevision: nil)
            }
            let restored = try await store.restore(gone.id, ifRevision: nil)
            #expect(restored.itemCount == 2 && restored.deletedAt == nil)
            let image = try await store.image(of: copy.item.id, in: gone.id)
            #expect(image.hash == shared && image.item.title == "Image 2")
            #expect(try await store.storedImages(of: gone.id).count == 2)
            #expect(try await store.referencedHashes() == [shared, own])
            let unused = try await store.deletePermanently(gone.id, ifRevision: nil)
            #expect(unused == [own], "the shared image is still used by the other gallery")
            await #expect(throws: GalleryError.galleryNotFound(gone.id.rawValue)) {
                _ = try await store.gallery(gone.id, items: false)
            }
            await #expect(throws: GalleryError.galleryNotFound(gone.id.rawValue)) {
                _ = try await store.state(of: gone.id)
            }
            #expect(try await store.referencedHashes() == [shared])
        }
    }
    @Test(arguments: Engine.allCases)
    func whichGalleriesHoldAnItemNewestFirstLeavingOutRecentlyDeleted(engine: Engine) async throws {
        try await withStore(engine) { store in
            let older = try await store.create(name: "Older")
            let newer = try await store.create(name: "Newer")
            let fox = Self.image(1)
            let owl = Self.image(2)
            _ = try await store.add(fox, to: older.id, at: nil, ifRevision: nil)
            _ = try await store.add(owl, to: older.id, at: nil, ifRevision: nil)
            _ = try await store.add(fox, to: older.id, at: nil, ifRevision: nil)
            _ = try await store.add(fox, to: newer.id, at: nil, ifRevision: nil)
            let foxID = fox.item.id.description
            let owlID = owl.item.id.description

            let holding = try await store.galleries(holding: [foxID, owlID, "upload:none"])
            #expect(holding[foxID]?.map(\.name) == ["Newer", "Older"], "newest change first, each gallery once")
            #expect(holding[owlID] == [GalleryRef(id: older.id, name: "Older")])
            #expect(holding["upload:none"] == nil)
            #expect(try await store.galleries(holding: []).isEmpty)

            _ = try await store.delete(newer.id, ifRevision: nil)
            #expect(try await store.galleries(holding: [foxID])[foxID]?.map(\.id) == [older.id])
        }
    }
}

final class ChangeRecord: Sendable {
    private let changes = Mutex<[GalleryChange]>([])
    func append(_ change: GalleryChange) { changes.withLock { $0.append(change) } }
    var revisions: [Int] { changes.withLock { $0.compactMap(\.revision) } }
    var kinds: [String] { changes.withLock { $0.map(\.kind) } }
    var all: [GalleryChange] { changes.withLock { $0 } }
}
