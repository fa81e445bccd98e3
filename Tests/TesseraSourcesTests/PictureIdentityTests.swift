import AsyncHTTPClient
import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

@testable import TesseraSources

/// Identity grouping on the services' own answers: Openverse re-publishes the Flickr and Commons photos
/// that Flickr's and Wikimedia's sections also return (the stand-ins share one corpus, so record N is
/// Flickr photo N, Commons page N and the Openverse record whose landing page names N).
@Suite("One picture, shown once: Openverse copies of Flickr and Commons photos")
struct PictureIdentityTests {
    @Test func openverseCopiesGroupWithTheirOriginalsWithoutAnyHash() async throws {
        let flickrStandIn = FlickrStandIn()
        let openverseStandIn = OpenverseStandIn(commonsEvery: 3)
        let wikimediaStandIn = WikimediaStandIn()
        let server = try await StandInServer.start([flickrStandIn, openverseStandIn, wikimediaStandIn])
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let http = SourceHTTP(client: client, cache: nil, requestTimeout: .seconds(10))
        let query = "red kite"
        let pages: [SourcePage]
        do {
            pages = [
                try await FlickrClient(
                    endpoint: Endpoint(base: URL(string: "\(server.origin)/flickr/services/rest/")!),
                    apiKey: FlickrStandIn.apiKey, http: http
                ).search(query, in: .flickr, page: 1),
                try await OpenverseClient(
                    endpoint: Endpoint(base: URL(string: "\(server.origin)/openverse/v1/")!), http: http
                ).search(query, in: .openverse, page: 1),
                try await WikimediaClient(
                    endpoint: Endpoint(base: URL(string: "\(server.origin)/wikimedia/w/api.php")!), http: http
                ).search(query, in: .wikimedia, page: 1),
            ]
        } catch {
            try? await client.shutdown()
            await server.stop()
            throw error
        }
        try await client.shutdown()
        await server.stop()
        let (flickr, openverse, wikimedia) = (pages[0], pages[1], pages[2])

        // A page as the server has it: its sections in order.
        let items = flickr.items + openverse.items + wikimedia.items
        let groups = PictureGrouping.groups(of: items, hashes: [:])

        // What each Openverse record says it copies, read from its wire fields (`provider`, the number its
        // landing page ends in), not from the grouping code.
        var expected: [Set<ItemID>] = []
        for copy in openverse.items {
            let provider = copy.metadata.first { $0.label == "Provider" }?.value
            let number = try #require(copy.pageURL?.split(whereSeparator: { !$0.isNumber }).last.map(String.init))
            let source: SourceID = provider == "wikimedia" ? .wikimedia : .flickr
            #expect(provider == "wikimedia" || provider == "flickr")
            let original = ItemID(source: source, nativeID: number)
            if items.contains(where: { $0.id == original }) { expected.append([copy.id, original]) }
        }
        #expect(expected.count == openverse.items.count, "every Openverse record's original is on the page")
        #expect(expected.contains { $0.contains { $0.source == .wikimedia } }, "some copies are of Commons photos")
        #expect(expected.contains { $0.contains { $0.source == .flickr } }, "some copies are of Flickr photos")
        #expect(Set(groups.map { Set($0.members) }) == Set(expected))
        #expect(groups.allSatisfy { !$0.byLook })

        // Each group is shown by its most permissive copy; on a tie, by the copy earlier on the page.
        let byID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for group in groups {
            let representative = try #require(byID[group.representative])
            #expect(group.members.first == group.representative)
            for member in group.members.dropFirst() {
                let other = try #require(byID[member])
                let (mine, theirs) = (
                    PictureGrouping.permissiveness(representative.license),
                    PictureGrouping.permissiveness(other.license)
                )
                let earlier = items.firstIndex { $0.id == representative.id }! < items.firstIndex { $0.id == other.id }!
                #expect(mine > theirs || (mine == theirs && earlier), "\(group)")
            }
        }
    }
}
