import Foundation
import HummingbirdTesting
import TesseraCore
import TesseraServer
import TesseraTestSupport
import Testing

/// `/api/search`'s `groups`: the copies of one picture among the answer's items, by identity and the hashes
/// of thumbnails already made, without waiting for (or making) any thumbnail.
@Suite("/api/search groups copies of one picture")
struct SearchGroupsAPITests {
    static func search(_ client: some TestClientProtocol, _ uri: String) async throws -> (SearchResponse, String) {
        let response = try await client.execute(uri: uri, method: .get)
        #expect(response.status == .ok)
        let text = response.text
        return (try JSONDecoder().decode(SearchResponse.self, from: Data(text.utf8)), text)
    }

    @Test(.timeLimit(.minutes(2))) func identityGroupsComeAtOnceAndThumbnailsMadeLaterJoinByLook() async throws {
        // Every image host answers the same picture: had any thumbnail been made, its items would group.
        try await withTessera(StandInSet().list) { client, server in
            let uri = "/api/search?q=otter&scope=all"
            let (page, body) = try await Self.search(client, uri)
            let groups = try #require(page.groups, "the answer carries its groups")
            let expected = try PictureGroupsStreamTests.copies(in: page.sections)
            #expect(!expected.isEmpty, "Openverse re-publishes Flickr photos that Flickr's section returns")
            #expect(Set(groups.map { Set($0.items) }) == expected)
            #expect(groups.allSatisfy { $0.items.first == $0.representative && $0.items.count == 2 })
            #expect(server.totalImageRequests == 0, "the whole answer makes no thumbnail")
            #expect(body.hasPrefix(#"{"groups":[{"items":[""#), "keys sorted, as the rest of the answer")
            #expect(body == String(decoding: JSONBody.encode(page), as: UTF8.self), "the same bytes as encoded whole")

            // Two thumbnails a browser asked for: their hashes are known, so the next answer joins them.
            let pixabay = try #require(page.sections.first { $0.id == .pixabay }?.items.prefix(2))
            for item in pixabay {
                let thumbnail = try await client.execute(uri: try #require(item.thumbnail?.url), method: .get)
                #expect(thumbnail.status == .ok)
            }
            let (again, _) = try await Self.search(client, uri)
            #expect(server.totalImageRequests == 2, "still only what the browser asked for")
            let regrouped = Set((again.groups ?? []).map { Set($0.items) })
            #expect(
                regrouped == (try PictureGroupsStreamTests.copies(in: again.sections)).union([Set(pixabay.map(\.id))]))
        }
    }

    @Test(.timeLimit(.minutes(2))) func oneSectionHasAnEmptyListWhenNothingIsShownTwice() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let (page, body) = try await Self.search(client, "/api/search?q=otter&scope=flickr")
            #expect(page.groups == [])
            #expect(body.hasPrefix(#"{"groups":[],"page":1,"#))
        }
    }
}
