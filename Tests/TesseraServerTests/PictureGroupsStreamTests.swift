import Foundation
import HummingbirdTesting
import TesseraCore
import TesseraServer
import TesseraTestSupport
import Testing

/// The search stream's `groups` event: copies of one picture among a page's items, by identity and, once the
/// server has made their thumbnails (the prefetch) or they were made before, by look.
@Suite("The search stream groups copies of one picture")
struct PictureGroupsStreamTests {
    struct GroupsEvent: Decodable {
        struct Group: Decodable {
            let items: [ItemID]
            let representative: ItemID
        }
        let groups: [Group]
    }

    /// A stream as a reader sees it: its sections and its one `groups` event, checked to come right before
    /// `done`.
    /// A wait for the prefetch far past the 3 s default: these tests are about what groups, not about how
    /// fast a loaded machine makes thumbnails.
    static let patient = ["TESSERA_IMAGE_PREFETCH_WAIT": "60"]

    static func stream(_ client: some TestClientProtocol, _ uri: String) async throws -> (
        sections: [SectionResult], groups: [GroupsEvent.Group]
    ) {
        let events = serverSentEvents(try await client.execute(uri: uri, method: .get).text)
        #expect(events.suffix(2).map(\.event) == ["groups", "done"])
        #expect(events.filter { $0.event == "groups" }.count == 1)
        let sections = try events.filter { $0.event == "section" }.map {
            try JSONDecoder().decode(SectionResult.self, from: Data($0.data.utf8))
        }
        let groups = try #require(events.first { $0.event == "groups" }).data
        return (sections, try JSONDecoder().decode(GroupsEvent.self, from: Data(groups.utf8)).groups)
    }

    /// Each Openverse record and the Flickr photo it copies, when both are on the page: read from the wire
    /// fields (`provider`, the number its landing page ends in), not from the grouping code.
    static func copies(in sections: [SectionResult]) throws -> Set<Set<ItemID>> {
        let items = sections.flatMap(\.items)
        var pairs: Set<Set<ItemID>> = []
        for copy in sections.first(where: { $0.id == .openverse })?.items ?? [] {
            #expect(copy.metadata.first { $0.label == "Provider" }?.value == "flickr")
            let number = try #require(copy.pageURL?.split(whereSeparator: { !$0.isNumber }).last.map(String.init))
            let original = ItemID(source: .flickr, nativeID: number)
            if items.contains(where: { $0.id == original }) { pairs.insert([copy.id, original]) }
        }
        return pairs
    }

    /// The image host's path a signed `/img/thumb/...` URL stands for.
    static func upstreamPath(_ item: Item) throws -> String {
        let encoded = try #require(item.thumbnail?.url.split(separator: "/").last.map(String.init))
        var text = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        let source = String(decoding: try #require(Data(base64Encoded: text)), as: UTF8.self)
        return try #require(URL(string: source)?.path)
    }

    @Test func thePrefetchIsOnUnlessTurnedOff() throws {
        #expect(try AppConfiguration(environment: [:]).images.prefetch)
        #expect(try !AppConfiguration(environment: ["TESSERA_IMAGE_PREFETCH": "false"]).images.prefetch)
        #expect(try AppConfiguration(environment: ["TESSERA_IMAGE_PREFETCH": "yes"]).images.prefetch)
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration(environment: ["TESSERA_IMAGE_PREFETCH": "maybe"])
        }
        #expect(try AppConfiguration(environment: [:]).images.prefetchWaitSeconds == 3)
        #expect(try AppConfiguration(environment: Self.patient).images.prefetchWaitSeconds == 60)
        for wrong in ["0", "61", "2.5", "soon"] {
            #expect(throws: ConfigurationError.self) {
                try AppConfiguration(environment: ["TESSERA_IMAGE_PREFETCH_WAIT": wrong])
            }
        }
    }

    @Test(.timeLimit(.minutes(2))) func openverseCopiesOfFlickrPhotosArriveAsGroupsBeforeDone() async throws {
        let standIns = StandInSet()
        let server = try await StandInServer.start(standIns.list)
        // Every address a picture of its own: only identity can join items here.
        server.images = StandInImage.distinct(for:)
        do {
            try await withTessera([], extraEnvironment: Self.patient, standIns: server) { client, server in
                let (sections, groups) = try await Self.stream(client, "/api/search/stream?q=red%20kite&scope=all")
                let expected = try Self.copies(in: sections)
                let openverse = sections.first { $0.id == .openverse }?.items ?? []
                #expect(!openverse.isEmpty && expected.count == openverse.count, "every copy's original is on the page")
                #expect(Set(groups.map { Set($0.items) }) == expected)
                #expect(groups.allSatisfy { $0.items.first == $0.representative && $0.items.count == 2 })

                // The server made the page's thumbnails itself (no one else asked for any), never artwork of
                // music, films, apps or books.
                let asked = server.requestedImagePaths
                #expect(asked.contains { $0.hasPrefix("/flickr/") } && asked.contains { $0.hasPrefix("/pixabay/") })
                #expect(!asked.contains { $0.hasPrefix("/itunes/") })
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test(.timeLimit(.minutes(2))) func twoItemsShowingTheSamePictureGroupByLook() async throws {
        let standIns = StandInSet()
        let server = try await StandInServer.start(standIns.list)
        server.images = StandInImage.distinct(for:)
        do {
            try await withTessera([], extraEnvironment: Self.patient, standIns: server) { client, server in
                // The page first without the stream (nothing is prefetched), to learn two items' image
                // addresses: a Pixabay upload and a Commons file, which share no identity.
                let page = try await client.execute(uri: "/api/search?q=heron&scope=all", method: .get)
                    .json(SearchResponse.self)
                let pixabay = try #require(page.sections.first { $0.id == .pixabay }?.items.dropFirst(2).first)
                let commons = try #require(page.sections.first { $0.id == .wikimedia }?.items.dropFirst(5).first)
                let same = Set([try Self.upstreamPath(pixabay), try Self.upstreamPath(commons)])
                #expect(server.totalImageRequests == 0)
                server.images = { path in
                    same.contains(path) ? StandInImage.pattern(seed: 7) : StandInImage.distinct(for: path)
                }

                let (sections, groups) = try await Self.stream(client, "/api/search/stream?q=heron&scope=all")
                let byLook = try #require(groups.first { $0.items.contains(pixabay.id) })
                #expect(Set(byLook.items) == [pixabay.id, commons.id])
                #expect(byLook.items.first == byLook.representative)
                // Everything else is Openverse's copies of Flickr photos, joined by identity.
                let others = Set(groups.map { Set($0.items) }).subtracting([[pixabay.id, commons.id]])
                #expect(others == (try Self.copies(in: sections)))
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test(.timeLimit(.minutes(2))) func withoutThePrefetchIdentityAndThumbnailsAlreadyMadeStillGroup() async throws {
        // Every image host answers the same picture: had any thumbnail been made, its items would group.
        try await withTessera(StandInSet().list, extraEnvironment: ["TESSERA_IMAGE_PREFETCH": "false"]) {
            client, server in
            let uri = "/api/search/stream?q=otter&scope=all"
            let (sections, groups) = try await Self.stream(client, uri)
            #expect(!sections.isEmpty)
            #expect(Set(groups.map { Set($0.items) }) == (try Self.copies(in: sections)))
            #expect(server.totalImageRequests == 0, "no thumbnail was made")

            // Two thumbnails the browser asked for: their hashes are known, so the next stream joins them.
            let pixabay = try #require(sections.first { $0.id == .pixabay }?.items.prefix(2))
            for item in pixabay {
                let thumbnail = try await client.execute(uri: try #require(item.thumbnail?.url), method: .get)
                #expect(thumbnail.status == .ok)
            }
            let (again, regrouped) = try await Self.stream(client, uri)
            #expect(server.totalImageRequests == 2, "still only what the browser asked for")
            let expected = (try Self.copies(in: again)).union([Set(pixabay.map(\.id))])
            #expect(Set(regrouped.map { Set($0.items) }) == expected)
        }
    }
}
