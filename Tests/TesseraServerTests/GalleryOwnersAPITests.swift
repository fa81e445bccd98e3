import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraGalleries
import TesseraTestSupport
import Testing

/// Owners and collaborators over real HTTP with accounts (docs/accounts.md): another user's gallery is a 404 on
/// every gallery route, the same answer as an id that does not exist; a viewer reads and every change is 403
/// `read_only_gallery`; an editor changes items and the name but not the gallery's life or its members (403
/// `owner_only`); members see the gallery as shared with them. On both engines.
@Suite("Gallery owners and members over HTTP")
struct GalleryOwnersAPITests {
    static let users: [(name: String, password: String, admin: Bool)] = [
        ("ada", "correct horse", true), ("bob", "battery staple", false), ("cy", "paper clip 9", false),
    ]

    /// A user's session: `call` sends a request from the app's own page with its cookie.
    struct User {
        let client: any TestClientProtocol
        let cookie: String

        func call(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil) async throws -> TestResponse {
            try await client.withSession(cookie, uri, method: method, body: body)
        }

        func upload(to id: GalleryID) async throws -> TestResponse {
            var (headers, body) = GalleriesAPITests.multipart(StandInImage.jpeg)
            headers[.cookie] = cookie
            headers[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
            return try await client.execute(
                uri: "/api/galleries/\(id)/items", method: .post, headers: headers, body: body)
        }

        func create(_ name: String) async throws -> Gallery {
            let response = try await call(.post, "/api/galleries", #"{"name":"\#(name)"}"#)
            try #require(response.status == .created, "\(response.text)")
            return try response.json(Gallery.self)
        }

        func list(deleted: Bool = false) async throws -> [Gallery] {
            try await call(.get, "/api/galleries\(deleted ? "?deleted=true" : "")").json([Gallery].self)
        }
    }

    /// Every gallery route but the event stream's success (a stream stays open): method, path, body.
    static func routes(_ id: GalleryID, item: GalleryItemID) -> [(HTTPRequest.Method, String, String?)] {
        [
            (.get, "/api/galleries/\(id)", nil),
            (.get, "/api/galleries/\(id)/events", nil),
            (.get, "/api/galleries/\(id)/export", nil),
            (.get, "/api/galleries/\(id)/credits", nil),
            (.get, "/api/galleries/\(id)/members", nil),
            (.patch, "/api/galleries/\(id)", #"{"name":"Mine now"}"#),
            (.post, "/api/galleries/\(id)/items", #"{"url":"https://example.org/a.jpg"}"#),
            (.post, "/api/galleries/\(id)/items/\(item)/move", #"{"index":0}"#),
            (.delete, "/api/galleries/\(id)/items/\(item)", nil),
            (.post, "/api/galleries/\(id)/members", #"{"name":"cy","role":"editor"}"#),
            (.delete, "/api/galleries/\(id)/members/cy", nil),
            (.post, "/api/galleries/\(id)/restore", nil),
            (.delete, "/api/galleries/\(id)", nil),
            (.delete, "/api/galleries/\(id)?permanent=true", nil),
        ]
    }

    /// The changes among `routes`, with what a viewer gets (every one: read only) and an editor (the owner's).
    static func changes(_ id: GalleryID, item: GalleryItemID) -> [(HTTPRequest.Method, String, String?)] {
        routes(id, item: item).filter { $0.0 != .get }
    }

    @Test(arguments: Engine.allCases)
    func anotherUsersGalleryIsNotFoundOnEveryRouteAndAViewerOnlyReads(engine: Engine) async throws {
        try await engine.withEnvironment { database in
            try await withAccounts(users: Self.users, extraEnvironment: database) { client, _ in
                let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
                let bob = User(client: client, cookie: try await client.signIn("bob", "battery staple"))
                let gallery = try await ada.create("Ada's trip")
                let added = try await ada.upload(to: gallery.id)
                try #require(added.status == .created, "\(added.text)")
                let item = try added.json(GalleryItem.self)
                let itemKey = item.item.id.description

                // Not shared: exactly what a gallery that does not exist answers, on every route.
                let missing = GalleryID.random()
                for (method, uri, body) in Self.routes(gallery.id, item: item.id) {
                    let answer = try await bob.call(method, uri, body)
                    #expect(answer.status == .notFound, "\(method) \(uri): \(answer.status)")
                    #expect(try answer.apiError().code == "gallery_not_found", "\(method) \(uri)")
                    let other = try await bob.call(
                        method, uri.replacingOccurrences(of: gallery.id.rawValue, with: missing.rawValue), body)
                    #expect(try other.status == answer.status && (other.apiError().code) == "gallery_not_found")
                }
                #expect(try await bob.upload(to: gallery.id).status == .notFound)
                #expect(try await bob.list().isEmpty)
                #expect(try await bob.list(deleted: true).isEmpty)
                let holding = try await bob.call(.get, "/api/items/galleries?id=\(itemKey)").json(HoldingAnswer.self)
                #expect(holding.items.isEmpty, "holdings name no gallery bob cannot see")
                // An admin manages accounts, not other people's galleries.
                let bobs = try await bob.create("Bob's")
                #expect(try await ada.call(.get, "/api/galleries/\(bobs.id)").status == .notFound)
                #expect(try await ada.list().map(\.id) == [gallery.id], "the gallery itself is untouched")

                // Shared as a viewer: listed as shared, readable, and every change refused.
                let shared = try await ada.call(
                    .post, "/api/galleries/\(gallery.id)/members", #"{"name":"Bob","role":"viewer"}"#)
                #expect(shared.status == .ok)
                #expect(try shared.json(Members.self).members == [GalleryMember(name: "bob", role: .viewer)])
                let listed = try await bob.list()
                #expect(listed.map(\.id) == [bobs.id, gallery.id])
                #expect(listed.map(\.role) == [.owner, .viewer] && listed.map(\.owner) == ["bob", "ada"])
                let read = try await bob.call(.get, "/api/galleries/\(gallery.id)").json(Gallery.self)
                #expect(read.items?.map(\.id) == [item.id] && read.role == .viewer)
                #expect(try await bob.call(.get, "/api/galleries/\(gallery.id)/export").status == .ok)
                #expect(try await bob.call(.get, "/api/galleries/\(gallery.id)/credits").status == .ok)
                #expect(try await bob.call(.get, "/api/galleries/\(gallery.id)/members").status == .ok)
                let nowHolding = try await bob.call(.get, "/api/items/galleries?id=\(itemKey)").json(HoldingAnswer.self)
                #expect(nowHolding.items[itemKey]?.map(\.id) == [gallery.id])
                for (method, uri, body) in Self.changes(gallery.id, item: item.id) {
                    let answer = try await bob.call(method, uri, body)
                    #expect(answer.status == .forbidden, "\(method) \(uri): \(answer.status)")
                    #expect(try answer.apiError().code == "read_only_gallery", "\(method) \(uri)")
                }
                let refusedUpload = try await bob.upload(to: gallery.id)
                #expect(refusedUpload.status == .forbidden)
                #expect(try await ada.call(.get, "/api/galleries/\(gallery.id)").json(Gallery.self).revision == 2)

                // In its owner's Recently deleted, the gallery is the owner's alone.
                #expect(try await ada.call(.delete, "/api/galleries/\(gallery.id)").status == .ok)
                #expect(try await bob.call(.get, "/api/galleries/\(gallery.id)").status == .notFound)
                #expect(try await ada.list(deleted: true).map(\.id) == [gallery.id])
                #expect(try await ada.call(.post, "/api/galleries/\(gallery.id)/restore").status == .ok)

                // Unshared: not found again.
                let removed = try await ada.call(.delete, "/api/galleries/\(gallery.id)/members/bob")
                #expect(removed.status == .noContent)
                #expect(try await bob.call(.get, "/api/galleries/\(gallery.id)").status == .notFound)
                let again = try await ada.call(.delete, "/api/galleries/\(gallery.id)/members/bob")
                #expect(try again.status == .notFound && (again.apiError().code) == "member_not_found")
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func anEditorChangesItemsButNotTheGallerysLifeNorItsMembers(engine: Engine) async throws {
        try await engine.withEnvironment { database in
            try await withAccounts(users: Self.users, extraEnvironment: database) { client, _ in
                let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
                let bob = User(client: client, cookie: try await client.signIn("bob", "battery staple"))
                let cy = User(client: client, cookie: try await client.signIn("cy", "paper clip 9"))
                let gallery = try await ada.create("Moodboard")
                let first = try await ada.upload(to: gallery.id).json(GalleryItem.self)

                let unknown = try await ada.call(
                    .post, "/api/galleries/\(gallery.id)/members", #"{"name":"nobody","role":"editor"}"#)
                #expect(try unknown.status == .notFound && (unknown.apiError().code) == "account_not_found")
                let herself = try await ada.call(
                    .post, "/api/galleries/\(gallery.id)/members", #"{"name":"ada","role":"editor"}"#)
                #expect(try herself.status == .badRequest && (herself.apiError().code) == "invalid_member")
                let badRole = try await ada.call(
                    .post, "/api/galleries/\(gallery.id)/members", #"{"name":"bob","role":"owner"}"#)
                #expect(badRole.status == .badRequest)
                _ = try await ada.call(
                    .post, "/api/galleries/\(gallery.id)/members", #"{"name":"bob","role":"viewer"}"#)
                let promoted = try await ada.call(
                    .post, "/api/galleries/\(gallery.id)/members", #"{"name":"bob","role":"editor"}"#)
                #expect(try promoted.json(Members.self).members == [GalleryMember(name: "bob", role: .editor)])

                let added = try await bob.upload(to: gallery.id)
                #expect(added.status == .created)
                let second = try added.json(GalleryItem.self)
                let moved = try await bob.call(
                    .post, "/api/galleries/\(gallery.id)/items/\(second.id)/move", #"{"index":0}"#)
                #expect(moved.status == .ok)
                let renamed = try await bob.call(.patch, "/api/galleries/\(gallery.id)", #"{"name":"Ours"}"#)
                #expect(try renamed.status == .ok && (renamed.json(Gallery.self).role) == .editor)
                let removed = try await bob.call(.delete, "/api/galleries/\(gallery.id)/items/\(first.id)")
                #expect(removed.status == .ok)
                let now = try await ada.call(.get, "/api/galleries/\(gallery.id)").json(Gallery.self)
                #expect(now.name == "Ours" && now.items?.map(\.id) == [second.id] && now.role == .owner)

                for (method, uri, body) in [
                    (HTTPRequest.Method.delete, "/api/galleries/\(gallery.id)", nil as String?),
                    (.delete, "/api/galleries/\(gallery.id)?permanent=true", nil),
                    (.post, "/api/galleries/\(gallery.id)/restore", nil),
                    (.post, "/api/galleries/\(gallery.id)/members", #"{"name":"cy","role":"viewer"}"#),
                    (.delete, "/api/galleries/\(gallery.id)/members/bob", nil),
                ] {
                    let answer = try await bob.call(method, uri, body)
                    #expect(answer.status == .forbidden, "\(method) \(uri): \(answer.status)")
                    #expect(try answer.apiError().code == "owner_only", "\(method) \(uri)")
                }
                #expect(try await cy.list().isEmpty, "nobody else was let in")
                #expect(try await bob.list().map(\.role) == [.editor])
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func aGallerysStoredCopiesAreServedOnlyToThoseWhoMayReadIt(engine: Engine) async throws {
        try await engine.withEnvironment { database in
            try await withAccounts(users: Self.users, extraEnvironment: database) { client, _ in
                let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
                let bob = User(client: client, cookie: try await client.signIn("bob", "battery staple"))
                let gallery = try await ada.create("Private")
                let item = try await ada.upload(to: gallery.id).json(GalleryItem.self)
                let urls = [item.image.thumbnail.url, item.image.preview.url, item.image.original.url]
                for url in urls {
                    let own = try await ada.call(.get, url)
                    #expect(own.status == .ok, "\(url)")
                    #expect(own.headers[.cacheControl]?.hasPrefix("private") == true, "never kept by a shared cache")
                    let refused = try await bob.call(.get, url)
                    #expect(refused.status == .notFound, "\(url): \(refused.status)")
                    #expect(try refused.apiError().code == "image_not_found")
                    var revalidating = sameOrigin
                    revalidating[.cookie] = bob.cookie
                    revalidating[.ifNoneMatch] = try #require(own.headers[.eTag])
                    let asked = try await client.execute(uri: url, method: .get, headers: revalidating)
                    #expect(asked.status == .notFound, "not even a 304 for its tag")
                }
                // Nor copied into a gallery of his own by sending the item with its addresses.
                let own = try await bob.create("Bob's")
                let copy = #"{"item":"# + String(decoding: try JSONEncoder().encode(item.item), as: UTF8.self) + "}"
                let copied = try await bob.call(.post, "/api/galleries/\(own.id)/items", copy)
                #expect(copied.status == .notFound, "\(copied.status): \(copied.text)")
                #expect(try copied.apiError().code == "image_not_found")
                _ = try await ada.call(
                    .post, "/api/galleries/\(gallery.id)/members", #"{"name":"bob","role":"viewer"}"#)
                for url in urls { #expect(try await bob.call(.get, url).status == .ok, "\(url)") }
                let allowed = try await bob.call(.post, "/api/galleries/\(own.id)/items", copy)
                #expect(allowed.status == .created, "a picture he may see he may keep: \(allowed.text)")
            }
        }
    }

    @Test func withoutAccountsNothingChanges() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            let list = try await client.execute(uri: "/api/galleries", method: .get)
            #expect(!list.text.contains("\"owner\"") && !list.text.contains("\"role\""))
            let members = try await client.execute(uri: "/api/galleries/\(gallery.id)/members", method: .get)
            #expect(try members.status == .notFound && (members.apiError().code) == "accounts_off")
        }
    }

    struct Members: Decodable {
        let members: [GalleryMember]
    }

    struct HoldingAnswer: Decodable {
        let items: [String: [GalleryRef]]
    }
}
