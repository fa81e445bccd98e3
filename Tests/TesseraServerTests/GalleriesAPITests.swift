import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// The galleries API over real HTTP: lifecycle, items from every kind of source, order, errors,
/// revisions, events and export. (Durability under SIGKILL: TesseraCLITests; many clients at once: below.)
@Suite("Galleries over HTTP")
struct GalleriesAPITests {
    // MARK: - Helpers

    static func create(_ client: any TestClientProtocol, _ name: String = "Moodboard") async throws -> Gallery {
        let response = try await client.execute(
            uri: "/api/galleries", method: .post, body: ByteBuffer(string: #"{"name": \#(quoted(name))}"#))
        #expect(response.status == .created)
        return try response.json(Gallery.self)
    }

    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    static func firstResult(_ client: any TestClientProtocol, scope: String = "pixabay", query: String = "fox")
        async throws -> Item
    {
        let search = try await client.execute(uri: "/api/search?q=\(query)&scope=\(scope)", method: .get)
            .json(SearchResponse.self)
        return try #require(search.sections.first?.items.first)
    }

    @discardableResult
    static func add(
        _ client: any TestClientProtocol, _ galleryID: GalleryID, json: String, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        try await client.execute(
            uri: "/api/galleries/\(galleryID)/items", method: .post, headers: headers, body: ByteBuffer(string: json))
    }

    /// An add body for `item`. The stand-ins serve one picture at every address, so adding several results
    /// to one gallery adds near duplicates: allowed unless a test says otherwise (NearDuplicateAPITests).
    static func itemJSON(_ item: Item, index: Int? = nil, allowNearDuplicate: Bool = true) throws -> String {
        let encoded = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
        let allow = allowNearDuplicate ? #", "allowNearDuplicate": true"# : ""
        return index.map { #"{"item": \#(encoded), "index": \#($0)\#(allow)}"# } ?? #"{"item": \#(encoded)\#(allow)}"#
    }

    static func gallery(_ client: any TestClientProtocol, _ id: GalleryID) async throws -> Gallery {
        try await client.execute(uri: "/api/galleries/\(id)", method: .get).json(Gallery.self)
    }

    // MARK: - Galleries

    @Test func aGalleryIsCreatedRenamedDeletedRestoredAndRemoved() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let created = try await Self.create(client, "  Moodboard  ")
            #expect(created.name == "Moodboard", "trimmed")
            #expect(created.revision == 1 && created.itemCount == 0 && created.cover == nil && created.items == [])
            #expect(created.id.rawValue.hasPrefix("g_"))
            let raw = try await client.execute(uri: "/api/galleries/\(created.id)", method: .get)
            #expect(raw.headers[.eTag] == "\"1\"")
            #expect(raw.text.contains(#""deletedAt":null"#) && raw.text.contains(#""cover":null"#))

            let renamed = try await client.execute(
                uri: "/api/galleries/\(created.id)", method: .patch, body: ByteBuffer(string: #"{"name":"Blues"}"#))
            #expect(renamed.status == .ok)
            #expect(try renamed.json(Gallery.self).name == "Blues")
            #expect(renamed.headers[.eTag] == "\"2\"")
            _ = try await Self.create(client, "Blues")  // duplicates allowed
            let list = try await client.execute(uri: "/api/galleries", method: .get).json([Gallery].self)
            #expect(list.map(\.name) == ["Blues", "Blues"])
            #expect(list.allSatisfy { $0.items == nil })

            let deleted = try await client.execute(uri: "/api/galleries/\(created.id)", method: .delete)
            #expect(deleted.status == .ok)
            #expect(try deleted.json(Gallery.self).deletedAt != nil)
            #expect(try await client.execute(uri: "/api/galleries", method: .get).json([Gallery].self).count == 1)
            let bin = try await client.execute(uri: "/api/galleries?deleted=true", method: .get).json([Gallery].self)
            #expect(bin.map(\.id) == [created.id])
            let blocked = try await client.execute(
                uri: "/api/galleries/\(created.id)", method: .patch, body: ByteBuffer(string: #"{"name":"x"}"#))
            #expect(blocked.status == .conflict)
            #expect(try blocked.apiError().code == "gallery_deleted")

            let restored = try await client.execute(uri: "/api/galleries/\(created.id)/restore", method: .post)
            #expect(try restored.json(Gallery.self).deletedAt == nil)
            let gone = try await client.execute(uri: "/api/galleries/\(created.id)?permanent=true", method: .delete)
            #expect(gone.status == .noContent)
            let missing = try await client.execute(uri: "/api/galleries/\(created.id)", method: .get)
            #expect(missing.status == .notFound)
            #expect(try missing.apiError().code == "gallery_not_found")
        }
    }

    @Test func badInputGetsTheErrorShape() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let cases: [(String, HTTPRequest.Method, String, HTTPResponse.Status, String)] = [
                ("/api/galleries", .post, #"{"name":"   "}"#, .badRequest, "invalid_name"),
                (
                    "/api/galleries", .post, #"{"name":"\#(String(repeating: "x", count: 101))"}"#, .badRequest,
                    "invalid_name"
                ),
                // 30 letters with 4 combining marks each: 30 characters to the eye, 150 code points to the contract.
                (
                    "/api/galleries", .post,
                    #"{"name":"\#(String(repeating: "o\u{301}\u{302}\u{303}\u{304}", count: 30))"}"#,
                    .badRequest, "invalid_name"
                ),
                ("/api/galleries", .post, "{\"name\":\" \\u001c\"}", .badRequest, "invalid_name"),
                ("/api/galleries", .post, #"{"title":"x"}"#, .badRequest, "invalid_body"),
                ("/api/galleries", .post, "not json", .badRequest, "invalid_body"),
                ("/api/galleries", .post, #"{"name": 5}"#, .badRequest, "invalid_body"),
                ("/api/galleries/g_nope", .get, "", .notFound, "gallery_not_found"),
                (
                    "/api/galleries/g_aaaaaaaaaaaaaaaaaaaa/items", .post, #"{"url":"https://example.com/a.jpg"}"#,
                    .notFound,
                    "gallery_not_found"
                ),
            ]
            for (uri, method, body, status, code) in cases {
                let response = try await client.execute(uri: uri, method: method, body: ByteBuffer(string: body))
                #expect(response.status == status, "\(method) \(uri) \(body.prefix(30))")
                #expect(try response.apiError().code == code, "\(method) \(uri) \(body.prefix(30))")
            }
            let gallery = try await Self.create(client)
            let itemCases: [(String, String)] = [
                (#"{}"#, "invalid_body"),
                (#"{"url":"https://example.com/a.jpg","index":-1}"#, "invalid_index"),
                (#"{"url": 7}"#, "invalid_body"),
            ]
            for (body, code) in itemCases {
                let response = try await Self.add(client, gallery.id, json: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(try response.apiError().code == code, "\(body)")
            }
            let move = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items/gi_aaaaaaaaaaaaaaaaaaaa/move", method: .post,
                body: ByteBuffer(string: #"{"index":0}"#))
            #expect(move.status == .notFound)
            #expect(try move.apiError().code == "item_not_found")
            let remove = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items/gi_aaaaaaaaaaaaaaaaaaaa", method: .delete)
            #expect(remove.status == .notFound)
        }
    }

    @Test func aStaleIfMatchIs412AndChangesNothing() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await Self.create(client)
            let ok = try await client.execute(
                uri: "/api/galleries/\(gallery.id)", method: .patch, headers: [.ifMatch: "\"1\""],
                body: ByteBuffer(string: #"{"name":"Two"}"#))
            #expect(ok.status == .ok)
            let stale = try await client.execute(
                uri: "/api/galleries/\(gallery.id)", method: .patch, headers: [.ifMatch: "\"1\""],
                body: ByteBuffer(string: #"{"name":"Three"}"#))
            #expect(stale.status == .preconditionFailed)
            #expect(try stale.apiError().code == "revision_mismatch")
            #expect(stale.headers[.eTag] == "\"2\"")
            let item = try await Self.firstResult(client)
            let staleAdd = try await Self.add(
                client, gallery.id, json: try Self.itemJSON(item), headers: [.ifMatch: "1"])
            #expect(staleAdd.status == .preconditionFailed)
            // A body that is wrong in itself is a 400 whatever the revision: an item without an image of ours.
            var withoutImage = item
            (withoutImage.thumbnail, withoutImage.preview, withoutImage.full) = (nil, nil, nil)
            let imageless = try await Self.add(
                client, gallery.id, json: try Self.itemJSON(withoutImage), headers: [.ifMatch: "1"])
            #expect(imageless.status == .badRequest)
            #expect(try imageless.apiError().code == "invalid_item")
            let now = try await Self.gallery(client, gallery.id)
            #expect(now.name == "Two" && now.revision == 2 && now.items == [])
            let bad = try await client.execute(
                uri: "/api/galleries/\(gallery.id)", method: .patch, headers: [.ifMatch: "yesterday"],
                body: ByteBuffer(string: #"{"name":"Four"}"#))
            #expect(bad.status == .badRequest)
        }
    }

    // MARK: - Items

    @Test func aSearchResultIsKeptWithItsOwnCopyAndServedWithoutTheSource() async throws {
        try await withTessera(StandInSet().list) { client, standIns in
            let gallery = try await Self.create(client)
            let item = try await Self.firstResult(client)
            let response = try await Self.add(client, gallery.id, json: try Self.itemJSON(item))
            #expect(response.status == .created)
            #expect(response.headers[.eTag] == "\"2\"")
            let added = try response.json(GalleryItem.self)
            #expect(added.item.id == item.id && added.item.title == item.title)
            #expect(added.sourceURL == item.pageURL)
            #expect(added.size == StandInImage.jpeg.count)
            #expect(added.image.original.width == 96 && added.image.original.height == 64)

            // The stored copy answers while the source is gone.
            let hitsBefore = standIns.totalImageRequests
            standIns.imageDelay = .seconds(30)
            let thumbnail = try await client.execute(uri: added.image.thumbnail.url, method: .get)
            #expect(thumbnail.status == .ok)
            #expect(Array(thumbnail.body.readableBytesView.prefix(3)) == [0xFF, 0xD8, 0xFF])
            let original = try await client.execute(uri: added.image.original.url, method: .get)
            #expect(Array(original.body.readableBytesView) == StandInImage.jpeg)
            #expect(standIns.totalImageRequests == hitsBefore, "served from the stored copy")

            let now = try await Self.gallery(client, gallery.id)
            #expect(now.items?.map(\.id) == [added.id])
            #expect(now.itemCount == 1 && now.cover == added.image.thumbnail)

            // An item whose image address was not made by this server is refused, and nothing is fetched.
            var forged = item
            forged.full = ImageRef(url: "https://evil.example/x.jpg", width: 1, height: 1)
            forged.preview = nil
            forged.thumbnail = nil
            let refused = try await Self.add(client, gallery.id, json: try Self.itemJSON(forged))
            #expect(refused.status == .badRequest)
            #expect(try refused.apiError().code == "invalid_item")
        }
    }

    @Test func urlImportsGoThroughTheGuardedFetcher() async throws {
        let origin = try await ImageOrigin.start()
        origin.serve("/photo.jpg", StandInImage.jpeg, contentType: "image/jpeg")
        origin.serve("/page.jpg", Array("<html>hello</html>".utf8), contentType: "image/jpeg")
        origin.serve("/big.jpg", StandInImage.jpeg + [UInt8](repeating: 0, count: 1_100_000), contentType: "image/jpeg")
        try await withTessera(StandInSet().list) { client, standIns in
            let gallery = try await Self.create(client)
            // Loopback is a private address: refused unless configured, with nothing fetched.
            let refused = try await Self.add(client, gallery.id, json: #"{"url":"\#(origin.url("/photo.jpg"))"}"#)
            #expect(refused.status == .forbidden)
            #expect(try refused.apiError().code == "refused_address")
            #expect(origin.totalHits == 0)
            let scheme = try await Self.add(client, gallery.id, json: #"{"url":"file:///etc/passwd"}"#)
            #expect(scheme.status == .forbidden)

            // The stand-ins' host is trusted (a configured source), as a source's image host would be.
            let url = standIns.origin + "/pixabay/cdn/imported_sunset-photo.jpg"
            let added = try await Self.add(client, gallery.id, json: #"{"url":"\#(url)", "index": 0}"#)
            #expect(added.status == .created)
            let item = try added.json(GalleryItem.self)
            #expect(item.item.source == .web && item.item.title == "imported sunset photo")
            #expect(item.sourceURL == url && item.item.pageURL == url)
            #expect(item.item.full == item.image.original)
        }
        try await withTessera(
            StandInSet().list, extraEnvironment: ["TESSERA_IMAGE_ALLOW_PRIVATE": "true", "TESSERA_IMAGE_MAX_MB": "1"]
        ) { client, _ in
            let gallery = try await Self.create(client)
            let html = try await Self.add(client, gallery.id, json: #"{"url":"\#(origin.url("/page.jpg"))"}"#)
            #expect(html.status == .unsupportedMediaType)
            #expect(try html.apiError().code == "not_an_image")
            let big = try await Self.add(client, gallery.id, json: #"{"url":"\#(origin.url("/big.jpg"))"}"#)
            #expect(big.status == .contentTooLarge)
            let huge = ImageProxyAPITests.pngDeclaring(width: 30_000, height: 30_000)
            origin.serve("/huge.png", huge, contentType: "image/png")
            let pixels = try await Self.add(client, gallery.id, json: #"{"url":"\#(origin.url("/huge.png"))"}"#)
            #expect(pixels.status == .contentTooLarge)
            #expect(try pixels.apiError().code == "too_many_pixels")
            #expect(try await Self.gallery(client, gallery.id).items == [], "nothing half-written")
        }
        await origin.stop()
    }

    /// An upload body; `allowNearDuplicate` is the form field's value (`nil`: no field), `true` by default as for
    /// `itemJSON`: the tests upload the one sample picture again and again.
    static func multipart(
        _ file: [UInt8], fileName: String = "beach day.jpg", index: Int? = nil, allowNearDuplicate: String? = "true"
    ) -> (HTTPFields, ByteBuffer) {
        let boundary = "----tessera\(UUID().uuidString)"
        var body = ByteBuffer()
        if let allowNearDuplicate {
            body.writeString(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"allowNearDuplicate\"\r\n\r\n"
                    + "\(allowNearDuplicate)\r\n")
        }
        if let index {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"index\"\r\n\r\n\(index)\r\n")
        }
        body.writeString(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\n"
                + "Content-Type: image/jpeg\r\n\r\n")
        body.writeBytes(file)
        body.writeString("\r\n--\(boundary)--\r\n")
        return ([.contentType: "multipart/form-data; boundary=\(boundary)"], body)
    }

    @Test func uploadsAreCheckedLikeEveryImage() async throws {
        try await withTessera(StandInSet().list, extraEnvironment: ["TESSERA_IMAGE_MAX_MB": "1"]) { client, _ in
            let gallery = try await Self.create(client)
            let (headers, body) = Self.multipart(StandInImage.jpeg)
            let uploaded = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items", method: .post, headers: headers, body: body)
            #expect(uploaded.status == .created)
            let item = try uploaded.json(GalleryItem.self)
            #expect(item.item.source == .upload && item.item.title == "beach day" && item.sourceURL == nil)
            #expect(uploaded.text.contains(#""sourceURL":null"#))

            let (textHeaders, text) = Self.multipart(Array("just text".utf8), fileName: "notes.txt")
            let notImage = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items", method: .post, headers: textHeaders, body: text)
            #expect(notImage.status == .unsupportedMediaType)
            let (bigHeaders, big) = Self.multipart(StandInImage.jpeg + [UInt8](repeating: 0, count: 1_200_000))
            let tooBig = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items", method: .post, headers: bigHeaders, body: big)
            #expect(tooBig.status == .contentTooLarge)
            let noFile = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items", method: .post,
                headers: [.contentType: "multipart/form-data; boundary=x"], body: ByteBuffer(string: "--x--\r\n"))
            #expect(noFile.status == .badRequest)
            #expect(try await Self.gallery(client, gallery.id).items?.count == 1)
        }
    }

    @Test func aRemovedImportComesBackByUndoUntilARestartCollectsItsCopy() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-undo-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let files = GalleryImageFiles(directory: data.appendingPathComponent("gallery-images"))
        let hash = GalleryImageFiles.hash(of: Data(StandInImage.jpeg))
        try await withTessera(StandInSet().list, dataFolder: data) { client, _ in
            let gallery = try await Self.create(client)
            let (headers, body) = Self.multipart(StandInImage.jpeg)
            let uploaded = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items", method: .post, headers: headers, body: body
            ).json(GalleryItem.self)
            _ = try await client.execute(uri: "/api/galleries/\(gallery.id)/items/\(uploaded.id)", method: .delete)
            #expect(FileManager.default.fileExists(atPath: files.url(forHash: hash).path), "kept for Undo")
            // Undo: the same item again, its image read from the kept copy.
            let again = try await Self.add(client, gallery.id, json: try Self.itemJSON(uploaded.item))
            #expect(again.status == .created)
            _ = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items/\(try again.json(GalleryItem.self).id)", method: .delete)
        }
        // Collected at the next start once old enough (younger files may be another process's add in flight).
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-2 * GalleryImageFiles.unreferencedGrace)],
            ofItemAtPath: files.url(forHash: hash).path)
        try await withTessera(StandInSet().list, dataFolder: data) { _, _ in
            #expect(!FileManager.default.fileExists(atPath: files.url(forHash: hash).path), "collected at start")
        }
    }

    @Test func itemsKeepTheUsersOrderThroughAddsMovesAndRemovals() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await Self.create(client)
            let search = try await client.execute(uri: "/api/search?q=fox&scope=flickr", method: .get)
                .json(SearchResponse.self)
            let results = try #require(search.sections.first?.items)
            var ids: [String] = []
            for (offset, item) in results.prefix(5).enumerated() {
                // 0 at the end, 1 at the start, 2 in the middle, ...
                let index = [nil, 0, 1, nil, 2][offset]
                let added = try await Self.add(client, gallery.id, json: try Self.itemJSON(item, index: index))
                let id = try added.json(GalleryItem.self).id.rawValue
                ids.insert(id, at: min(index ?? ids.count, ids.count))
            }
            #expect(try await Self.gallery(client, gallery.id).items?.map(\.id.rawValue) == ids)

            let move = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items/\(ids[0])/move", method: .post,
                body: ByteBuffer(string: #"{"index": 3}"#))
            #expect(move.status == .ok)
            #expect(move.text == #"{"index":3,"revision":7}"#)
            ids.insert(ids.remove(at: 0), at: 3)
            let toEnd = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items/\(ids[1])/move", method: .post,
                body: ByteBuffer(string: #"{"index": 99}"#))
            #expect(try toEnd.json(RevisionAnswer.self).index == 4)
            ids.append(ids.remove(at: 1))
            let removed = try await client.execute(uri: "/api/galleries/\(gallery.id)/items/\(ids[2])", method: .delete)
            #expect(removed.status == .ok)
            ids.remove(at: 2)
            let now = try await Self.gallery(client, gallery.id)
            #expect(now.items?.map(\.id.rawValue) == ids)
            #expect(now.revision == 9 && now.itemCount == 4, "1 + 5 adds + 2 moves + 1 removal")
        }
    }

    struct RevisionAnswer: Decodable {
        let revision: Int
        let index: Int?
    }
}
