import Foundation
import TesseraClient
import TesseraTestSupport
import Testing

/// Every gallery operation through `TesseraClient`, with revisions (412) and missing galleries (404).
@Suite("TesseraClient: galleries")
struct GalleryClientTests {
    @Test func aGalleryIsCreatedFilledReorderedRenamedDeletedAndRestored() async throws {
        try await withServer { client, standIns in
            let created = try await client.createGallery(named: "  Moodboard ")
            #expect(created.name == "Moodboard" && created.revision == 1 && created.cover == nil)
            #expect(created.items == [] && created.deletedAt == nil)

            let result = try #require(try await client.search("fox", scope: .pixabay).sections.first?.items.first)
            let first = try await client.addItem(result, to: created.id, revision: created.revision)
            #expect(first.revision == 2 && first.item.item.id == result.id)
            let url = standIns.origin + "/pixabay/cdn/imported_sunset-photo.jpg"
            // The stand-ins serve one picture everywhere: the import is the same picture, refused unless allowed.
            await #expect(
                throws: TesseraClientError.nearDuplicate(
                    itemID: first.item.id.rawValue, title: result.title,
                    message:
                        "This gallery already has a picture that looks the same (“\(result.title)”). Add it anyway?")
            ) {
                try await client.addItem(url: url, to: created.id, at: 0, revision: first.revision)
            }
            let second = try await client.addItem(
                url: url, to: created.id, at: 0, revision: first.revision, allowNearDuplicate: true)
            #expect(second.revision == 3 && second.item.sourceURL == url && second.item.item.source == "web")
            let third = try await client.addItem(
                upload: Data(StandInImage.jpeg), fileName: "beach day.jpg", to: created.id, revision: second.revision,
                allowNearDuplicate: true)
            #expect(third.revision == 4 && third.item.sourceURL == nil && third.item.size == StandInImage.jpeg.count)

            var gallery = try await client.gallery(created.id)
            #expect(gallery.items?.map(\.id) == [second.item.id, first.item.id, third.item.id])
            #expect(gallery.itemCount == 3 && gallery.cover == second.item.image.thumbnail)

            let moved = try await client.moveItem(third.item.id, in: created.id, to: 0, revision: gallery.revision)
            #expect(moved.revision == 5 && moved.index == 0)
            let removed = try await client.removeItem(second.item.id, from: created.id, revision: moved.revision)
            #expect(removed.revision == 6)
            gallery = try await client.gallery(created.id)
            #expect(gallery.items?.map(\.id) == [third.item.id, first.item.id])

            let renamed = try await client.renameGallery(created.id, to: "Beach", revision: gallery.revision)
            #expect(renamed.name == "Beach" && renamed.revision == 7)
            #expect(try await client.galleries().map(\.id) == [created.id])

            let deleted = try await client.deleteGallery(created.id, revision: renamed.revision)
            #expect(deleted.deletedAt != nil)
            #expect(try await client.galleries().isEmpty)
            #expect(try await client.galleries(deleted: true).map(\.id) == [created.id])
            let restored = try await client.restoreGallery(created.id)
            #expect(restored.deletedAt == nil && restored.revision > deleted.revision)

            let zip = try await client.exportGallery(created.id)
            #expect(zip.starts(with: [0x50, 0x4B, 0x03, 0x04]), "a ZIP file")

            try await client.deleteGalleryPermanently(created.id, revision: restored.revision)
            let gone = await clientError { () async throws(TesseraClientError) in try await client.gallery(created.id) }
            guard case .notFound = gone else {
                Issue.record("expected not found, got \(String(describing: gone))")
                return
            }
        }
    }

    @Test func aStaleRevisionIsAMismatchCarryingTheCurrentOne() async throws {
        try await withServer { client, _ in
            let gallery = try await client.createGallery(named: "One")
            _ = try await client.renameGallery(gallery.id, to: "Two", revision: gallery.revision)
            let stale = await clientError { () async throws(TesseraClientError) in
                try await client.renameGallery(gallery.id, to: "Three", revision: gallery.revision)
            }
            guard case .revisionMismatch(let current, _) = stale else {
                Issue.record("expected a revision mismatch, got \(String(describing: stale))")
                return
            }
            #expect(current == 2)
            #expect(stale?.description.contains("revision is now 2") == true)
            let staleAdd = await clientError { () async throws(TesseraClientError) in
                try await client.addItem(url: "https://example.com/a.jpg", to: gallery.id, revision: 1)
            }
            guard case .revisionMismatch(2, _) = staleAdd else {
                Issue.record("expected a revision mismatch, got \(String(describing: staleAdd))")
                return
            }
            // Retried with the revision the error carried, the change applies.
            let renamed = try await client.renameGallery(gallery.id, to: "Three", revision: current)
            #expect(renamed.name == "Three" && renamed.revision == 3)
            // Without a revision, a change applies to whatever the gallery is now.
            #expect(try await client.renameGallery(gallery.id, to: "Four").revision == 4)
        }
    }

    @Test func everyOperationOnAMissingGalleryIsNotFound() async throws {
        try await withServer { client, _ in
            let missing: GalleryID = "g_doesnotexist"
            let item: GalleryItemID = "i_doesnotexist"
            let calls: [(String, @Sendable () async throws(TesseraClientError) -> Void)] = [
                ("get", { () async throws(TesseraClientError) in _ = try await client.gallery(missing) }),
                (
                    "rename",
                    { () async throws(TesseraClientError) in _ = try await client.renameGallery(missing, to: "X") }
                ),
                ("delete", { () async throws(TesseraClientError) in _ = try await client.deleteGallery(missing) }),
                (
                    "delete for good",
                    { () async throws(TesseraClientError) in try await client.deleteGalleryPermanently(missing) }
                ),
                ("restore", { () async throws(TesseraClientError) in _ = try await client.restoreGallery(missing) }),
                (
                    "add",
                    { () async throws(TesseraClientError) in
                        _ = try await client.addItem(url: "https://example.com/a.jpg", to: missing)
                    }
                ),
                (
                    "remove",
                    { () async throws(TesseraClientError) in _ = try await client.removeItem(item, from: missing) }
                ),
                (
                    "move",
                    { () async throws(TesseraClientError) in _ = try await client.moveItem(item, in: missing, to: 0) }
                ),
                ("export", { () async throws(TesseraClientError) in _ = try await client.exportGallery(missing) }),
            ]
            for (name, call) in calls {
                let error = await clientError(call)
                guard case .notFound(let message) = error else {
                    Issue.record("\(name): expected not found, got \(String(describing: error))")
                    continue
                }
                #expect(!message.isEmpty, "\(name)")
            }
            // A missing item of a gallery that exists.
            let gallery = try await client.createGallery(named: "Here")
            let error = await clientError { () async throws(TesseraClientError) in
                try await client.removeItem(item, from: gallery.id)
            }
            guard case .notFound = error else {
                Issue.record("expected not found, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func aDeletedGalleryRefusesChangesAsAConflict() async throws {
        try await withServer { client, _ in
            let gallery = try await client.createGallery(named: "Old")
            _ = try await client.deleteGallery(gallery.id)
            let error = await clientError { () async throws(TesseraClientError) in
                try await client.renameGallery(gallery.id, to: "New")
            }
            guard case .conflict = error else {
                Issue.record("expected a conflict, got \(String(describing: error))")
                return
            }
        }
    }
}
