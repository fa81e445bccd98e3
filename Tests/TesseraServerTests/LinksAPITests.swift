import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraGalleries
import TesseraTestSupport
import Testing

/// Public links over real HTTP with accounts (docs/accounts.md, "Public and drop links"): the owner makes,
/// lists and revokes them, nobody else can; a visitor without an account sees the gallery in the owner's
/// order through the link's own image URLs, and nothing else: no other gallery, no other image, no change.
@Suite("Public links over HTTP")
struct LinksAPITests {
    typealias User = GalleryOwnersAPITests.User

    @Test(arguments: Engine.allCases)
    func theOwnerMakesListsAndRevokesLinksAndAVisitorSeesTheGalleryInOrder(engine: Engine) async throws {
        try await engine.withEnvironment { database in
            try await withAccounts(users: Links.users, extraEnvironment: database) { client, _ in
                let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
                let gallery = try await ada.create("Ada's trip")
                let first = try await Links.upload(ada, gallery.id, Links.jpeg("one"))
                let second = try await Links.upload(ada, gallery.id, Links.jpeg("two"))
                let moved = try await ada.call(
                    .post, "/api/galleries/\(gallery.id)/items/\(second.id)/move", #"{"index":0}"#)
                try #require(moved.status == .ok)

                let link = try await Links.create(ada, gallery.id)
                #expect(link.kind == "view" && link.id.hasPrefix("l_") && !link.hasPassword)
                #expect(link.url.hasPrefix("/s/") && link.slug.count == 22)
                #expect(link.expiresAt == nil && link.opens == 0 && link.lastOpenedAt == nil)
                #expect(link.showItems == nil && link.perHour == nil && link.drops == nil, "drop fields: drop only")
                let listed = try await ada.call(.get, "/api/galleries/\(gallery.id)/links").json(Links.LinkList.self)
                #expect(listed.links.map(\.id) == [link.id] && listed.links.map(\.url) == [link.url])

                // A visitor: no account, no cookie.
                let visitor = Visitor(client)
                let page = try await visitor.get(link.url)
                #expect(page.status == .ok && page.text.contains("public.js"))
                #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
                let shared = try await visitor.get("/api/shared/\(link.slug)")
                try #require(shared.status == .ok, "\(shared.text)")
                let view = try shared.json(Links.Shared.self)
                #expect(view.kind == "view" && view.gallery.name == "Ada's trip" && view.gallery.itemCount == 2)
                #expect(view.items?.map(\.id) == [second.id, first.id], "the owner's order")
                #expect(view.perHour == nil && view.showItems == nil && view.expiresAt == nil)
                #expect(!shared.text.contains(gallery.id.rawValue), "no gallery id: nothing to try elsewhere")
                for item in view.items ?? [] {
                    let stored = try #require(item.image, "uploads are the person's own: never restricted")
                    let urls = [stored.thumbnail.url, stored.preview.url, stored.original.url]
                    #expect(urls.allSatisfy { $0.hasPrefix("/s/\(link.slug)/img/") }, "\(urls)")
                    #expect(item.item.full == stored.original && item.item.sizes.isEmpty && !item.restricted)
                    let image = try await visitor.get(stored.thumbnail.url)
                    #expect(image.status == .ok, "\(image.text)")
                    #expect(image.headers[.cacheControl]?.hasPrefix("private") == true)
                }
                let credits = try await visitor.get("/api/shared/\(link.slug)/credits")
                #expect(credits.status == .ok)
                let text = try await visitor.get("/api/shared/\(link.slug)/credits?format=text")
                #expect(text.status == .ok && text.headers[.contentType]?.hasPrefix("text/plain") == true)

                let counted = try await ada.call(.get, "/api/galleries/\(gallery.id)/links").json(Links.LinkList.self)
                #expect(counted.links.first?.opens == 1 && counted.links.first?.lastOpenedAt != nil)

                // Revoked: gone for the visitor at once, page and API alike.
                #expect(try await ada.call(.delete, "/api/links/\(link.id)").status == .noContent)
                let gone = try await visitor.get("/api/shared/\(link.slug)")
                #expect(try gone.status == .notFound && gone.apiError().code == "link_not_found")
                #expect(try await visitor.get(link.url).status == .notFound)
                let imageGone = try await visitor.get(view.items?.first?.image?.thumbnail.url ?? "")
                #expect(imageGone.status == .notFound)
                let again = try await ada.call(.delete, "/api/links/\(link.id)")
                #expect(try again.status == .notFound && again.apiError().code == "link_not_found")
                #expect(
                    try await ada.call(.get, "/api/galleries/\(gallery.id)/links").json(Links.LinkList.self)
                        .links.isEmpty)
                for slug in ["AAAAAAAAAAAAAAAAAAAAAA", "not-a-slug", link.slug + "x"] {
                    let unknown = try await visitor.get("/api/shared/\(slug)")
                    #expect(try unknown.status == .notFound && unknown.apiError().code == "link_not_found")
                }
            }
        }
    }

    @Test func onlyTheOwnerManagesLinks() async throws {
        try await withAccounts(users: Links.users) { client, _ in
            let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
            let bob = User(client: client, cookie: try await client.signIn("bob", "battery staple"))
            let cy = User(client: client, cookie: try await client.signIn("cy", "paper clip 9"))
            let gallery = try await ada.create("Ada's")
            let link = try await Links.create(ada, gallery.id)
            let routes: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/api/galleries/\(gallery.id)/links", nil),
                (.post, "/api/galleries/\(gallery.id)/links", #"{"kind":"view"}"#),
            ]
            // Another user: the gallery does not exist for them, nor does the link.
            for (method, uri, body) in routes {
                let answer = try await bob.call(method, uri, body)
                #expect(try answer.status == .notFound && answer.apiError().code == "gallery_not_found", "\(uri)")
            }
            let notYours = try await bob.call(.delete, "/api/links/\(link.id)")
            #expect(try notYours.status == .notFound && notYours.apiError().code == "link_not_found")
            // Members, editor or viewer: the owner's alone.
            _ = try await ada.call(.post, "/api/galleries/\(gallery.id)/members", #"{"name":"bob","role":"editor"}"#)
            _ = try await ada.call(.post, "/api/galleries/\(gallery.id)/members", #"{"name":"cy","role":"viewer"}"#)
            for user in [bob, cy] {
                for (method, uri, body) in routes {
                    let answer = try await user.call(method, uri, body)
                    #expect(try answer.status == .forbidden && answer.apiError().code == "owner_only", "\(uri)")
                }
                #expect(try await user.call(.delete, "/api/links/\(link.id)").status == .notFound)
            }
            // Nobody signed in.
            let anonymous = try await Visitor(client).call(.get, "/api/galleries/\(gallery.id)/links")
            #expect(try anonymous.status == .unauthorized && anonymous.apiError().code == "sign_in_required")
            let stillThere = try await ada.call(.get, "/api/galleries/\(gallery.id)/links").json(Links.LinkList.self)
            #expect(stillThere.links.map(\.id) == [link.id])

            // What is wrong with the request comes first (400), before who asks (404).
            for body in [
                #"{"kind":"edit"}"#, #"{"kind":"view","password":"short"}"#,
                #"{"kind":"view","password":"\#(String(repeating: "é", count: 40))"}"#,
                #"{"kind":"view","expiresAt":"2001-01-01T00:00:00Z"}"#, #"{"kind":"view","expiresAt":"soon"}"#,
                #"{"kind":"drop","perHour":0}"#, #"{"kind":"drop","perHour":1001}"#, #"{"kind":1}"#, "[]",
            ] {
                for user in [ada, bob] {
                    let answer = try await user.call(.post, "/api/galleries/\(gallery.id)/links", body)
                    #expect(answer.status == .badRequest, "\(body): \(answer.status) \(answer.text)")
                }
            }
            // Not in Recently deleted.
            _ = try await ada.call(.delete, "/api/galleries/\(gallery.id)")
            let deleted = try await ada.call(.post, "/api/galleries/\(gallery.id)/links", #"{"kind":"view"}"#)
            #expect(try deleted.status == .conflict && deleted.apiError().code == "gallery_deleted")
        }
    }

    @Test(arguments: Engine.allCases)
    func aLinkReachesNoOtherGalleryNorItsImagesAndChangesNothing(engine: Engine) async throws {
        try await engine.withEnvironment { database in
            try await withAccounts(users: Links.users, extraEnvironment: database) { client, _ in
                let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
                let shared = try await ada.create("Shown")
                let mine = try await ada.create("Not shown")
                let item = try await Links.upload(ada, shared.id, Links.jpeg("shown"))
                let hidden = try await Links.upload(ada, mine.id, Links.jpeg("hidden"))
                let link = try await Links.create(ada, shared.id)
                let visitor = Visitor(client)
                let before = try await ada.call(.get, "/api/galleries/\(shared.id)").json(Gallery.self)

                // The other gallery's stored copy, through this link's image route: as if it did not exist.
                for url in [hidden.image.thumbnail.url, hidden.image.original.url] {
                    let answer = try await visitor.get("/s/\(link.slug)" + url)
                    #expect(try answer.status == .notFound && answer.apiError().code == "image_not_found", "\(url)")
                }
                #expect(try await visitor.get("/s/\(link.slug)" + item.image.thumbnail.url).status == .ok)
                // Not a stored copy at all (a search result's address): refused too, nothing fetched.
                let forged = "/s/\(link.slug)/img/thumb/AAAA/aHR0cHM6Ly9leGFtcGxlLm9yZy9hLmpwZw"
                #expect(try await visitor.get(forged).status != .ok)
                // The signed-in routes are closed to a visitor: every gallery route, both galleries, the images.
                for id in [shared.id, mine.id] {
                    for (method, uri, body) in GalleryOwnersAPITests.routes(id, item: item.id) {
                        let answer = try await visitor.call(method, uri, body)
                        #expect(answer.status == .unauthorized, "\(method) \(uri): \(answer.status)")
                    }
                }
                for uri in [
                    "/api/galleries", "/api/search?q=cat", hidden.image.thumbnail.url, item.image.thumbnail.url,
                ] {
                    #expect(try await visitor.get(uri).status == .unauthorized, "\(uri)")
                }
                let after = try await ada.call(.get, "/api/galleries/\(shared.id)").json(Gallery.self)
                #expect(after.revision == before.revision && after.items?.map(\.id) == [item.id], "nothing changed")
            }
        }
    }

    @Test func withoutAccountsThereAreNoLinks() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let created = try await client.execute(
                uri: "/api/galleries", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"name":"Mine"}"#))
            let gallery = try created.json(Gallery.self)
            let links = try await client.execute(uri: "/api/galleries/\(gallery.id)/links", method: .get)
            #expect(try links.status == .notFound && links.apiError().code == "accounts_off")
            let make = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/links", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"kind":"view"}"#))
            #expect(try make.status == .notFound && make.apiError().code == "accounts_off")
            let shared = try await client.execute(uri: "/api/shared/AAAAAAAAAAAAAAAAAAAAAA", method: .get)
            #expect(try shared.status == .notFound && shared.apiError().code == "link_not_found")
            #expect(try await client.execute(uri: "/s/AAAAAAAAAAAAAAAAAAAAAA", method: .get).status == .notFound)
        }
    }
}
