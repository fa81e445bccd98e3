import Foundation
import Synchronization
import TesseraCore
import TesseraSQLite
import Testing

@testable import TesseraGalleries

/// The store on its own, for what HTTP tests reach only by chance: positions running out of room.
@Suite("Gallery store")
struct GalleryStoreTests {
    struct Linker: ImageLinking {
        func link(_ upstreamURL: String, variant: ImageVariant) -> String {
            "/img/\(variant.rawValue)/s/\(upstreamURL)"
        }
    }

    static func image(_ number: Int) -> NewGalleryImage {
        NewGalleryImage(
            item: Item(id: ItemID(source: .upload, nativeID: "\(number)"), kind: .image, title: "Image \(number)"),
            sourceURL: nil, hash: String(repeating: "a", count: 64), format: "image/jpeg", size: 10, width: 800,
            height: 600)
    }

    @Test func insertingAgainAndAgainAtOneSpotRenumbersAndKeepsTheOrder() async throws {
        let changes = ChangeLog()
        let store = SQLiteGalleryStore(
            database: try AppDatabase.inMemory(), linker: Linker(), onChange: { _, change in changes.append(change) })
        let gallery = try await store.create(name: "Crowded")
        var expected: [GalleryItemID] = []
        let first = try await store.add(Self.image(0), to: gallery.id)
        let last = try await store.add(Self.image(1), to: gallery.id)
        expected = [first.item.id, last.item.id]
        // Each insert halves the room between the first item and the one after it: 16 halvings use up
        // a gap of 2^16, so 40 inserts renumber the gallery at least twice.
        for number in 2..<42 {
            let added = try await store.add(Self.image(number), to: gallery.id, at: 1)
            #expect(added.index == 1)
            expected.insert(added.item.id, at: 1)
        }
        let moved = try await store.move(expected[0], in: gallery.id, to: 20)
        #expect(moved.index == 20)
        expected.insert(expected.remove(at: 0), at: 20)
        let now = try await store.gallery(gallery.id)
        #expect(now.items?.map(\.id) == expected)
        #expect(now.revision == 1 + 42 + 1)
        #expect(changes.revisions == Array(2...44), "one change per revision after the creation, told in order")
    }

    @Test func renamingDeletingAndRestoringKeepItems() async throws {
        let store = SQLiteGalleryStore(database: try AppDatabase.inMemory(), linker: Linker())
        let gallery = try await store.create(name: "Keep")
        _ = try await store.add(Self.image(1), to: gallery.id)
        _ = try await store.delete(gallery.id)
        await #expect(throws: GalleryError.galleryDeleted) { try await store.add(Self.image(2), to: gallery.id) }
        let restored = try await store.restore(gallery.id)
        #expect(restored.itemCount == 1 && restored.deletedAt == nil)
        let unused = try await store.deletePermanently(gallery.id)
        #expect(unused == [String(repeating: "a", count: 64)], "its image is no longer used by anything")
        await #expect(throws: GalleryError.galleryNotFound(gallery.id.rawValue)) { try await store.gallery(gallery.id) }
    }
}

final class ChangeLog: Sendable {
    private let changes = Mutex<[GalleryChange]>([])
    func append(_ change: GalleryChange) { changes.withLock { $0.append(change) } }
    var revisions: [Int] { changes.withLock { $0.compactMap(\.revision) } }
}
