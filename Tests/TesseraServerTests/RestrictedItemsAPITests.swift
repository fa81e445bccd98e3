import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// Pictures whose licence does not allow sharing copies stay in their gallery (docs/galleries.md, "Restricted
/// items"): the add says so, an export leaves their files out unless the owner asks for a private copy, and a
/// link shows them as cards and answers 404 for their pictures. On both engines, over real HTTP.
@Suite("Restricted items over HTTP")
struct RestrictedItemsAPITests {
    typealias User = GalleryOwnersAPITests.User

    /// The parts of a gallery item these tests read, `image` optional as a link's answer has it.
    struct Entry: Decodable {
        struct Stored: Decodable { let thumbnail: ImageRef }
        struct Inner: Decodable {
            struct Credit: Decodable {
                let badge: String
                let reusable: Bool
                let text: String
            }
            let credit: Credit
            let thumbnail: ImageRef?
        }
        let id: String
        let restricted: Bool
        let image: Stored?
        let item: Inner
    }

    struct Items: Decodable { let items: [Entry] }
    struct LinkCount: Decodable {
        let url: String
        let restrictedCount: Int
    }

    @Test(arguments: Engine.allCases)
    func restrictedItemsStayInTheirGallery(engine: Engine) async throws {
        let standIns = try await StandInServer.start(StandInSet().list)
        defer { Task { await standIns.stop() } }
        try await engine.withEnvironment { database in
            let environment = database.merging(standIns.environment) { first, _ in first }
            try await withAccounts(users: Links.users, extraEnvironment: environment) { client, _ in
                let ada = User(client: client, cookie: try await client.signIn("ada", "correct horse"))
                let gallery = try await ada.create("Mixed")
                let own = try await Links.upload(ada, gallery.id, Links.jpeg("mine"))
                #expect(!own.item.isRestricted, "the person's own upload is theirs")

                // A search result whose licence is all rights reserved (as a Flickr photo under licence 0).
                let search = try await ada.call(.get, "/api/search?q=fox&scope=pixabay").json(SearchResponse.self)
                var closed = try #require(search.sections.first?.items.first)
                closed.license = Licenses.license(.allRightsReserved)
                let added = try await ada.call(
                    .post, "/api/galleries/\(gallery.id)/items", try GalleriesAPITests.itemJSON(closed))
                try #require(added.status == .created, "\(added.text)")
                let answer = try added.json(Entry.self)
                #expect(answer.restricted && answer.item.credit.badge == "©" && !answer.item.credit.reusable)
                #expect(answer.item.credit.text.contains("All rights reserved: ask the creator before any reuse."))
                let listed = try await ada.call(.get, "/api/galleries/\(gallery.id)").json(Items.self)
                #expect(listed.items.map(\.restricted) == [false, true])
                let closedThumbnail = try #require(listed.items[1].image?.thumbnail.url)

                // Export: the restricted file is left out, and the credits say which and why.
                let export = try await ada.call(.get, "/api/galleries/\(gallery.id)/export")
                try #require(export.status == .ok)
                let shared = try await Self.unzip(export)
                #expect(shared.files == ["images/001-a.jpg", nil], "\(shared.files)")
                #expect(shared.names.filter { $0.hasPrefix("images/") } == ["images/001-a.jpg"])
                #expect(shared.credits.contains("Files left out: 1 of 2 items may not be shared"))
                #expect(
                    shared.credits.contains(
                        "File left out: all rights reserved. Source page: \(closed.pageURL ?? "?")"),
                    "\(shared.credits)")

                // The owner's private copy has every file and says so; anyone else may not ask for it.
                let full = try await ada.call(.get, "/api/galleries/\(gallery.id)/export?includeRestricted=true")
                let private_ = try await Self.unzip(full)
                #expect(private_.files.compactMap { $0 }.count == 2)
                #expect(private_.credits.contains("Private copy: this export includes the files of 1 of 2 items"))
                #expect(private_.credits.contains("File included in this private copy only: all rights reserved."))
                let wrong = try await ada.call(.get, "/api/galleries/\(gallery.id)/export?includeRestricted=yes")
                #expect(try wrong.status == .badRequest && wrong.apiError().code == "invalid_parameter")
                let member = try await ada.call(
                    .post, "/api/galleries/\(gallery.id)/members", #"{"name":"bob","role":"editor"}"#)
                try #require(member.status == .ok || member.status == .created, "\(member.text)")
                let bob = User(client: client, cookie: try await client.signIn("bob", "battery staple"))
                let refused = try await bob.call(.get, "/api/galleries/\(gallery.id)/export?includeRestricted=true")
                #expect(try refused.status == .forbidden && refused.apiError().code == "owner_only", "\(refused.text)")
                #expect(try await bob.call(.get, "/api/galleries/\(gallery.id)/export").status == .ok)

                // A view link: its owner is told how many; a visitor gets a card, never the picture.
                let made = try await ada.call(.post, "/api/galleries/\(gallery.id)/links", #"{"kind":"view"}"#)
                let link = try made.json(LinkCount.self)
                #expect(link.restrictedCount == 1)
                let slug = String(link.url.dropFirst(3))
                let visitor = Visitor(client)
                let view = try await visitor.get("/api/shared/\(slug)").json(Items.self)
                #expect(view.items.map(\.restricted) == [false, true])
                #expect(view.items[1].image == nil && view.items[1].item.thumbnail == nil)
                #expect(view.items[0].image != nil)
                let card = try await visitor.get("/s/\(slug)" + closedThumbnail)
                #expect(card.status == .notFound, "a restricted picture never leaves through a link")
                let open = try await visitor.get(try #require(view.items[0].image?.thumbnail.url))
                #expect(open.status == .ok)
            }
        }
    }

    struct Unzipped: Decodable {
        let names: [String]
        let files: [String?]
        let credits: String
    }

    /// The ZIP read by Python's zipfile, an independent reader.
    static func unzip(_ response: TestResponse) async throws -> Unzipped {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("restricted-\(UUID()).zip")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(response.body.readableBytesView).write(to: file)
        let script = """
            import json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            manifest = json.loads(z.read('gallery.json'))
            print(json.dumps({'names': z.namelist(), 'files': [i.get('file') for i in manifest['items']],
              'credits': z.read('CREDITS.txt').decode('utf-8')}))
            """
        let finished = try await SpawnedProcess.run("/usr/bin/python3", ["-c", script, file.path])
        try #require(finished.status == 0, "\(finished.stderr)")
        return try JSONDecoder().decode(Unzipped.self, from: Data(finished.stdout.utf8))
    }
}
