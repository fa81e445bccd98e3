import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraGalleries
import TesseraSQLite
import TesseraTestSupport
import Testing

/// Near duplicates on adding to a gallery (docs/galleries.md, "Near duplicates"): the same picture again (the
/// same bytes, or other bytes that look the same) is refused with 409 `near_duplicate` naming the item already
/// there, and leaves nothing behind (no stored copy, same revision, no event), unless the request says
/// `allowNearDuplicate`; a different picture is added; drop links never ask. On both engines.
@Suite("Near duplicates over HTTP")
struct NearDuplicateAPITests {
    /// The app's near-duplicate answer (`ErrorEnvelope` with `duplicateOf`).
    struct Refusal: Decodable {
        struct Info: Decodable {
            struct Duplicate: Decodable {
                let id: String
                let title: String
                let thumbnail: String
            }
            let code: String
            let message: String
            let duplicateOf: Duplicate?
        }
        let error: Info
    }

    static func upload(
        _ client: any TestClientProtocol, _ gallery: GalleryID, _ bytes: [UInt8], name: String,
        allow: String? = nil
    ) async throws -> TestResponse {
        let (headers, body) = GalleriesAPITests.multipart(bytes, fileName: name, allowNearDuplicate: allow)
        return try await client.execute(
            uri: "/api/galleries/\(gallery)/items", method: .post, headers: headers, body: body)
    }

    /// The stored copies in the data folder's `gallery-images`, by file name (their hash).
    static func storedCopies(_ data: URL) -> Set<String> {
        let folder = data.appendingPathComponent("gallery-images")
        var names: Set<String> = []
        for sub in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let path = folder.appendingPathComponent(sub).path
            names.formUnion((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
        }
        return names
    }

    @Test(arguments: Engine.allCases)
    func theSamePictureIsRefusedWithWhatIsThereAndLeavesNothingUnlessAllowed(engine: Engine) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-neardup-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let origin = try await ImageOrigin.start()
        origin.serve("/again.jpg", Links.jpeg("fetched by url"), contentType: "image/jpeg")
        try await engine.withEnvironment { database in
            let environment = database.merging(["TESSERA_IMAGE_ALLOW_PRIVATE": "true"]) { $1 }
            try await withTessera(StandInSet().list, extraEnvironment: environment, dataFolder: data) { client, _ in
                let gallery = try await GalleriesAPITests.create(client, "Foxes")
                let first = try await Self.upload(client, gallery.id, Links.jpeg("first"), name: "red fox.jpg")
                try #require(first.status == .created, "\(first.text)")
                let kept = try first.json(GalleryItem.self)
                let before = try await GalleriesAPITests.gallery(client, gallery.id)
                let copies = Self.storedCopies(data)
                #expect(copies.count == 1)

                // The same picture in other bytes, by upload and by URL; the very same bytes (same item id).
                let attempts = [
                    try await Self.upload(client, gallery.id, Links.jpeg("second"), name: "fox again.jpg"),
                    try await GalleriesAPITests.add(
                        client, gallery.id, json: #"{"url":"\#(origin.url("/again.jpg"))"}"#),
                    try await Self.upload(client, gallery.id, Links.jpeg("first"), name: "red fox.jpg", allow: "false"),
                ]
                for refused in attempts {
                    #expect(refused.status == .conflict, "\(refused.text)")
                    let error = try refused.json(Refusal.self).error
                    #expect(error.code == "near_duplicate")
                    #expect(
                        error.message
                            == "This gallery already has a picture that looks the same (“red fox”). Add it anyway?")
                    #expect(error.duplicateOf?.id == kept.id.rawValue && error.duplicateOf?.title == "red fox")
                    #expect(error.duplicateOf?.thumbnail == kept.image.thumbnail.url)
                }
                let after = try await GalleriesAPITests.gallery(client, gallery.id)
                #expect(after.revision == before.revision && after.items?.map(\.id) == [kept.id])
                #expect(Self.storedCopies(data) == copies, "no copy of a refused image is left in media")

                // Asked to add it anyway: added, by upload and by URL.
                let anyway = try await Self.upload(
                    client, gallery.id, Links.jpeg("second"), name: "fox again.jpg", allow: "true")
                #expect(anyway.status == .created, "\(anyway.text)")
                let byURL = try await GalleriesAPITests.add(
                    client, gallery.id, json: #"{"url":"\#(origin.url("/again.jpg"))","allowNearDuplicate":true}"#)
                #expect(byURL.status == .created, "\(byURL.text)")
                // A different picture needs no asking.
                let other = try await Self.upload(
                    client, gallery.id, StandInImage.pattern(seed: 7), name: "pattern.png")
                #expect(other.status == .created, "\(other.text)")
                let now = try await GalleriesAPITests.gallery(client, gallery.id)
                #expect(now.itemCount == 4 && now.revision == before.revision + 3)
                #expect(Self.storedCopies(data).count == 4)

                // A search result already there is refused too (in a gallery of its own: the stand-ins' images
                // are the same picture as the uploads above), and added when allowed.
                let results = try await GalleriesAPITests.create(client, "Results")
                let result = try await GalleriesAPITests.firstResult(client)
                let json = try GalleriesAPITests.itemJSON(result, allowNearDuplicate: false)
                let added = try await GalleriesAPITests.add(client, results.id, json: json)
                try #require(added.status == .created, "\(added.text)")
                let again = try await GalleriesAPITests.add(client, results.id, json: json)
                #expect(again.status == .conflict && (try? again.json(Refusal.self).error.code) == "near_duplicate")
                #expect((try? again.json(Refusal.self).error.duplicateOf?.title) == result.title)
                let allowed = String(json.dropLast()) + #", "allowNearDuplicate": true}"#
                #expect(try await GalleriesAPITests.add(client, results.id, json: allowed).status == .created)
            }
        }
        await origin.stop()
    }

    @Test func anItemKeptBeforeHashesGetsItsHashFromItsCopyOnFirstNeed() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-neardup-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        try await withTessera(StandInSet().list, dataFolder: data) { client, _ in
            let gallery = try await GalleriesAPITests.create(client, "Older")
            let first = try await Self.upload(client, gallery.id, Links.jpeg("first"), name: "red fox.jpg")
            let kept = try first.json(GalleryItem.self)
            // As an item added before hashes were kept: none in its row (another connection, as the CLI's).
            let database = try AppDatabase.open(inDirectory: data)
            let hash: @Sendable () async throws -> String? = {
                try await database.writer.read { db in
                    try String.fetchOne(
                        db, sql: "SELECT pictureHash FROM galleryItem WHERE id = ?", arguments: [kept.id.rawValue])
                }
            }
            #expect(try await hash() != nil, "kept when added")
            try await database.write { db in try db.execute(sql: "UPDATE galleryItem SET pictureHash = NULL") }

            let refused = try await Self.upload(client, gallery.id, Links.jpeg("second"), name: "again.jpg")
            #expect(refused.status == .conflict, "\(refused.text)")
            #expect((try? refused.json(Refusal.self).error.duplicateOf?.id) == kept.id.rawValue)
            #expect(try await hash() != nil, "made from the stored copy and saved")
        }
    }

    @Test func itemsWithoutAHashAreHashedInTheBackgroundWhenTheServerStarts() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-neardup-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let missing: @Sendable () async throws -> Int = {
            let database = try AppDatabase.open(inDirectory: data)
            return try await database.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM galleryItem WHERE pictureHash IS NULL") ?? -1
            }
        }
        try await withTessera(StandInSet().list, dataFolder: data) { client, _ in
            let kept = try await GalleriesAPITests.create(client, "Kept")
            let deleted = try await GalleriesAPITests.create(client, "Deleted")
            for (gallery, name) in [(kept.id, "fox"), (kept.id, "heron"), (deleted.id, "owl")] {
                let added = try await Self.upload(client, gallery, Links.jpeg(name), name: "\(name).jpg", allow: "true")
                #expect(added.status == .created, "\(added.text)")
            }
            let removed = try await client.execute(uri: "/api/galleries/\(deleted.id)", method: .delete)
            #expect(removed.status == .ok, "\(removed.text)")
        }
        // As items kept before hashes were, or added anyway (which makes no hash): three without one.
        let database = try AppDatabase.open(inDirectory: data)
        try await database.write { db in try db.execute(sql: "UPDATE galleryItem SET pictureHash = NULL") }
        #expect(try await missing() == 3)

        // A restart hashes them from their stored copies, Recently deleted too, with no add asking.
        try await withTessera(StandInSet().list, dataFolder: data) { _, _ in
            let deadline = ContinuousClock.now + .seconds(20)
            while try await missing() > 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try await missing() == 0)
        }
    }

    @Test func allowNearDuplicateIsABooleanOrTheRequestIsRefused() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            for value in ["1", #""true""#, "null", "{}"] {
                let answer = try await GalleriesAPITests.add(
                    client, gallery.id, json: #"{"url":"https://example.org/a.jpg","allowNearDuplicate":\#(value)}"#)
                #expect(answer.status == .badRequest, "\(value): \(answer.text)")
            }
            let form = try await Self.upload(client, gallery.id, StandInImage.jpeg, name: "a.jpg", allow: "yes")
            #expect(form.status == .badRequest && (try? form.apiError().code) == "invalid_body", "\(form.text)")
            #expect(try await GalleriesAPITests.gallery(client, gallery.id).itemCount == 0)
        }
    }

    @Test(arguments: Engine.allCases)
    func aDropLinkNeverAsks(engine: Engine) async throws {
        try await engine.withEnvironment { database in
            try await withAccounts(users: Links.users, extraEnvironment: database) { client, _ in
                let ada = GalleryOwnersAPITests.User(client: client, cookie: try await client.signIn())
                let gallery = try await ada.create("Guests")
                _ = try await Links.upload(ada, gallery.id, Links.jpeg("the owner's"))
                let link = try await Links.create(ada, gallery.id, #"{"kind":"drop"}"#)
                let dropped = try await Visitor(client).upload(link.slug, Links.jpeg("a guest's"))
                #expect(dropped.status == .created, "\(dropped.text)")
                let now = try await ada.call(.get, "/api/galleries/\(gallery.id)").json(Gallery.self)
                #expect(now.itemCount == 2)
            }
        }
    }
}
