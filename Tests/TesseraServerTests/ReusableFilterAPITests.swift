import Foundation
import HummingbirdTesting
import TesseraCore
import TesseraTestSupport
import Testing

/// `license=reusable` over HTTP (docs/filters.md): only items whose licence lets a person reuse them, in every
/// section of the search and its stream; the store sections, whose items never are, keep none.
@Suite("Only what you may use, over HTTP")
struct ReusableFilterAPITests {
    private static let stores: [SectionID] = [.movies, .music, .apps, .books]

    private static func storeItem(_ item: Item) -> Bool { item.source == .itunes }

    @Test func everySectionKeepsOnlyWhatYouMayUseAndTheStoreSectionsHoldNothing() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list) { client, _ in
            let unfiltered = try await client.execute(uri: "/api/search?q=fox&scope=all", method: .get)
            let every = try unfiltered.json(SearchResponse.self).sections.flatMap(\.items)
            #expect(every.contains { $0.license?.allowsReuse != true }, "the services answer with items not to reuse")

            let response = try await client.execute(uri: "/api/search?q=fox&scope=all&license=reusable", method: .get)
            #expect(response.status == .ok)
            let body = try response.json(SearchResponse.self)
            let items = body.sections.flatMap(\.items)
            #expect(!items.isEmpty && items.allSatisfy { $0.license?.allowsReuse == true })
            // In `all` a section left with nothing is left out: the store sections, whose items never pass.
            #expect(body.sections.filter { Self.stores.contains($0.id) }.allSatisfy { $0.items.isEmpty })
            #expect(every.contains { Self.storeItem($0) } && !items.contains { Self.storeItem($0) })
            let flickr = standIns.flickr.state.requests.last?["license"]?.split(separator: ",").map(String.init)
            #expect(flickr?.isEmpty == false && flickr?.contains("0") == false, "Flickr is asked for open licences")

            let stream = try await client.execute(
                uri: "/api/search/stream?q=fox&scope=all&license=reusable", method: .get)
            #expect(stream.status == .ok && stream.text.contains("event: done"))
            #expect(stream.text.contains(#""license":{"#) && !stream.text.contains(#""id":"all-rights-reserved""#))
        }
    }

    @Test func itCombinesWithTheOtherLicenceValues() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let response = try await client.execute(
                uri: "/api/search?q=fox&scope=all&license=reusable,commercial", method: .get)
            let items = try response.json(SearchResponse.self).sections.flatMap(\.items)
            #expect(
                !items.isEmpty
                    && items.allSatisfy { $0.license?.allowsReuse == true && $0.license?.allowsCommercialUse == true })
            let bad = try await client.execute(uri: "/api/search?q=fox&license=reusable,mit", method: .get)
            #expect(bad.status == .badRequest)
            #expect(try bad.apiError().message.contains("reusable"))
        }
    }
}
