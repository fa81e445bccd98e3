import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraGalleries
import TesseraTestSupport
import Testing

/// Drop links over real HTTP (docs/accounts.md, "Public and drop links"): a visitor without an account adds
/// images (upload or URL, through the guarded fetcher) at the end of the gallery, within the link's hourly
/// rate, seeing the gallery's items only when the link says so; a view link adds nothing; no link changes
/// anything else.
@Suite("Drop links over HTTP")
struct DropLinkTests {
    typealias User = GalleryOwnersAPITests.User

    @Test(arguments: Engine.allCases)
    func aDropLinkAddsAtTheEndWithinItsRateAndShowsNothingUnlessAsked(engine: Engine) async throws {
        let origin = try await ImageOrigin.start()
        origin.serve("/dropped.jpg", Links.jpeg("by url"), contentType: "image/jpeg")
        try await engine.withEnvironment { database in
            let environment = database.merging(["TESSERA_IMAGE_ALLOW_PRIVATE": "true"]) { $1 }
            try await withAccounts(users: Links.users, extraEnvironment: environment) { client, _ in
                let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
                let gallery = try await ada.create("Wedding photos")
                let existing = try await Links.upload(ada, gallery.id, Links.jpeg("the owner's"))
                let link = try await Links.create(ada, gallery.id, #"{"kind":"drop","perHour":2}"#)
                #expect(link.kind == "drop" && link.showItems == false && link.perHour == 2 && link.drops == 0)
                let visitor = Visitor(client)
                let api = "/api/shared/\(link.slug)"

                let shared = try await visitor.get(api)
                try #require(shared.status == .ok)
                let view = try shared.json(Links.Shared.self)
                #expect(view.kind == "drop" && view.items == nil && view.showItems == false && view.perHour == 2)
                #expect(view.gallery.name == "Wedding photos" && view.gallery.itemCount == 1)
                let hidden = try await visitor.get(api + "/credits")
                #expect(try hidden.status == .forbidden && hidden.apiError().code == "link_items_hidden")
                let ownersImage = try await visitor.get("/s/\(link.slug)" + existing.image.thumbnail.url)
                #expect(ownersImage.status == .notFound, "not the other items' images")

                // An upload and a URL, each at the end, recorded as coming through the link.
                let uploaded = try await visitor.upload(link.slug, Links.jpeg("upload"), name: "guest.jpg")
                try #require(uploaded.status == .created, "\(uploaded.text)")
                let first = try uploaded.json(Links.Dropped.self).item
                #expect(first.item.metadata.contains { $0.label == "Added through" && $0.value.contains(link.id) })
                let byURL = try await visitor.call(.post, api + "/items", #"{"url":"\#(origin.url("/dropped.jpg"))"}"#)
                try #require(byURL.status == .created, "\(byURL.text)")
                let second = try byURL.json(Links.Dropped.self).item
                let now = try await ada.call(.get, "/api/galleries/\(gallery.id)").json(Gallery.self)
                #expect(now.items?.map(\.id) == [existing.id, first.id, second.id])

                // Over the link's rate: refused, with when to come back; nothing added.
                let third = try await visitor.upload(link.slug, Links.jpeg("one too many"))
                #expect(try third.status == .tooManyRequests && third.apiError().code == "rate_limited")
                #expect(Int(third.headers[.retryAfter] ?? "") ?? 0 > 0)
                #expect(try await ada.call(.get, "/api/galleries/\(gallery.id)").json(Gallery.self).itemCount == 3)
                let listed = try await ada.call(.get, "/api/galleries/\(gallery.id)/links").json(Links.LinkList.self)
                #expect(listed.links.first?.drops == 2)

                // A drop link never removes, moves or renames: it has no way into the gallery's own routes.
                for (method, uri, body) in GalleryOwnersAPITests.changes(gallery.id, item: existing.id) {
                    let answer = try await visitor.call(method, uri, body)
                    #expect(answer.status == .unauthorized, "\(method) \(uri): \(answer.status)")
                }
                // Another site's form cannot drop.
                let crossSite = try await client.execute(
                    uri: api + "/items", method: .post, headers: [.contentType: "text/plain"],
                    body: ByteBuffer(string: #"{"url":"\#(origin.url("/dropped.jpg"))"}"#))
                #expect(try crossSite.status == .forbidden && crossSite.apiError().code == "cross_site")

                // A drop link that shows the items: they are there, with images the visitor can load.
                let showing = try await Links.create(ada, gallery.id, #"{"kind":"drop","showItems":true}"#)
                #expect(showing.perHour == 60 && showing.showItems == true)
                let all = try await visitor.get("/api/shared/\(showing.slug)").json(Links.Shared.self)
                #expect(all.items?.map(\.id) == [existing.id, first.id, second.id])
                let image = try await visitor.get(all.items?.first?.image?.preview.url ?? "")
                #expect(image.status == .ok)
                // The picture dropped by its address has no licence Tessera knows: a card, not the picture.
                #expect(all.items?.map(\.restricted) == [false, false, true])
                #expect(all.items?.last?.image == nil && all.items?.last?.item.thumbnail == nil)
            }
        }
        await origin.stop()
    }

    /// Every answer of the link routes, against docs/openapi.yaml's schemas (the fuzzer runs without accounts, so
    /// it never sees a link's 200).
    @Test func linkAnswersMatchTheirSchemas() async throws {
        try await withAccounts(users: Links.users) { client, _ in
            let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
            let gallery = try await ada.create("Schemas")
            _ = try await Links.upload(ada, gallery.id, Links.jpeg("schema"))
            let visitor = Visitor(client)
            var samples: [OpenAPIEventSchemaTests.Sample] = []
            for body in [
                #"{"kind":"view"}"#, #"{"kind":"view","password":"open sesame 1","expiresAt":"2099-01-01T00:00:00Z"}"#,
                #"{"kind":"drop","showItems":true,"perHour":5}"#, #"{"kind":"drop"}"#,
            ] {
                let made = try await ada.call(.post, "/api/galleries/\(gallery.id)/links", body)
                try #require(made.status == .created, "\(made.text)")
                samples.append(.init(schema: "GalleryLink", data: made.text))
                let link = try made.json(Links.Link.self)
                let shared = try await visitor.get("/api/shared/\(link.slug)", password: "open sesame 1")
                samples.append(
                    .init(schema: shared.status == .ok ? "SharedGallery" : "ErrorEnvelope", data: shared.text))
                if link.kind == "drop" {
                    let dropped = try await visitor.upload(link.slug, Links.jpeg(body))
                    try #require(dropped.status == .created, "\(dropped.text)")
                    samples.append(.init(schema: "GalleryDrop", data: dropped.text))
                }
            }
            let listed = try await ada.call(.get, "/api/galleries/\(gallery.id)/links")
            samples.append(.init(schema: "GalleryLinkList", data: listed.text))
            try await OpenAPIEventSchemaTests.validate(samples)
        }
    }

    @Test(.timeLimit(.minutes(2)), arguments: Engine.allCases)
    func theOwnerSeesDroppedImagesArriveLive(engine: Engine) async throws {
        try await engine.withEnvironment { database in
            try await withAccounts(users: Links.users, extraEnvironment: database) { client, _ in
                let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
                let gallery = try await ada.create("Guest book")
                let link = try await Links.create(ada, gallery.id, #"{"kind":"drop"}"#)
                let stream = try await EventStream.open(
                    port: try #require(client.port), gallery: gallery.id, cookie: ada.cookie)
                #expect(try await stream.next(timeout: .seconds(30)).name == "snapshot")
                let dropped = try await Visitor(client).upload(link.slug, Links.jpeg("live"), name: "hello.jpg")
                try #require(dropped.status == .created, "\(dropped.text)")
                let item = try dropped.json(Links.Dropped.self).item
                let added = try await stream.next(timeout: .seconds(30))
                #expect(added.name == "added" && added.data.contains(item.id.rawValue))
                await stream.close()
            }
        }
    }

    @Test func aViewLinkAddsNothingAndTheGuardedFetcherStillGuards() async throws {
        let origin = try await ImageOrigin.start()
        origin.serve("/private.jpg", Links.jpeg("private"), contentType: "image/jpeg")
        try await withAccounts(users: Links.users) { client, _ in
            let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
            let gallery = try await ada.create("Look only")
            let view = try await Links.create(ada, gallery.id)
            let visitor = Visitor(client)
            let refused = try await visitor.upload(view.slug)
            #expect(try refused.status == .forbidden && refused.apiError().code == "link_read_only")
            let byURL = try await visitor.call(
                .post, "/api/shared/\(view.slug)/items", #"{"url":"\#(origin.url("/private.jpg"))"}"#)
            #expect(try byURL.status == .forbidden && byURL.apiError().code == "link_read_only")

            let drop = try await Links.create(ada, gallery.id, #"{"kind":"drop"}"#)
            // Loopback is a private address: refused as for the owner's own imports, nothing fetched.
            let local = try await visitor.call(
                .post, "/api/shared/\(drop.slug)/items", #"{"url":"\#(origin.url("/private.jpg"))"}"#)
            #expect(try local.status == .forbidden && local.apiError().code == "refused_address")
            #expect(origin.totalHits == 0)
            // Not an image, and a malformed body: 400s, before anything about the link.
            let notImage = try await visitor.upload(drop.slug, Array("<html>hi</html>".utf8))
            #expect(notImage.status == .unsupportedMediaType)
            for slug in [drop.slug, "AAAAAAAAAAAAAAAAAAAAAA"] {
                let malformed = try await visitor.call(.post, "/api/shared/\(slug)/items", #"{"item":{}}"#)
                #expect(malformed.status == .badRequest, "\(malformed.text)")
            }
            #expect(try await ada.call(.get, "/api/galleries/\(gallery.id)").json(Gallery.self).itemCount == 0)
        }
        await origin.stop()
    }
}
