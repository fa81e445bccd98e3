import Foundation
import HummingbirdTesting
import TesseraCore
import TesseraTestSupport
import Testing

/// Every item an answer carries says how it may be reused and credited (`credit`, docs/licences.md, "Names"),
/// read from the one table of names: the search, the stream and the item route alike, over real HTTP.
@Suite("An item's credit in every answer")
struct ItemCreditAPITests {
    /// The `credit` object as the API sends it.
    struct Credit: Decodable, Equatable {
        let badge: String
        let deed: String?
        let html: String
        let label: String
        let licenseName: String
        let reusable: Bool
        let text: String
    }

    struct Section: Decodable {
        struct Entry: Decodable {
            let id: String
            let credit: Credit
        }
        let id: String
        let items: [Entry]
    }

    struct Answer: Decodable { let sections: [Section] }

    /// The credit the table gives for `item`.
    static func expected(_ item: Item) -> Credit {
        let naming = item.license?.naming ?? LicenseNames.naming(nil)
        let attribution = Attribution(item: item)
        return Credit(
            badge: naming.badge, deed: naming.deed, html: attribution.html, label: naming.label,
            licenseName: naming.name, reusable: item.license?.allowsReuse ?? false, text: attribution.text)
    }

    @Test func searchStreamAndItemRouteCarryTheTablesCredit() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let response = try await client.execute(uri: "/api/search?q=fox&scope=all", method: .get)
            let answer = try response.json(Answer.self)
            let typed = try response.json(SearchResponse.self)
            var badges: Set<String> = []
            for (section, typedSection) in zip(answer.sections, typed.sections) {
                for (entry, item) in zip(section.items, typedSection.items) {
                    #expect(entry.credit == Self.expected(item), "\(entry.id)")
                    badges.insert(entry.credit.badge)
                }
            }
            // The stand-ins' Flickr licences (CC BY, CC BY-NC, public domain), Pixabay's, Openverse's and the
            // store's all rights reserved.
            #expect(badges.isSuperset(of: ["CC BY", "CC BY-NC", "Pixabay", "©"]), "\(badges)")
            let flickr = try #require(answer.sections.first { $0.id == "flickr" }?.items)
            #expect(flickr.contains { $0.credit.label == "CC BY 2.0: you may reuse it with credit" })
            #expect(flickr.allSatisfy { !$0.credit.text.contains("Attribution License") }, "the licensor's naming")
            let store = try #require(answer.sections.first { $0.id == "movies" }?.items.first)
            #expect(
                store.credit.label == "All rights reserved: ask the creator before any reuse" && !store.credit.reusable)

            let stream = try await client.execute(uri: "/api/search/stream?q=fox&scope=flickr", method: .get)
            let event = try #require(serverSentEvents(stream.text).first { $0.event == "section" })
            let streamed = try JSONDecoder().decode(Section.self, from: Data(event.data.utf8))
            let streamedTyped = try JSONDecoder().decode(SectionResult.self, from: Data(event.data.utf8))
            #expect(streamed.items.count == streamedTyped.items.count && !streamed.items.isEmpty)
            for (entry, item) in zip(streamed.items, streamedTyped.items) {
                #expect(entry.credit == Self.expected(item))
            }

            let first = try #require(typed.sections.first { $0.id == .pixabay }?.items.first)
            let fetched = try await client.execute(uri: "/api/items/pixabay/\(first.id.nativeID)", method: .get)
            struct One: Decodable { let credit: Credit }
            #expect(try fetched.json(One.self).credit == Self.expected(first))
            #expect(try fetched.json(One.self).credit.badge == "Pixabay")
        }
    }
}
