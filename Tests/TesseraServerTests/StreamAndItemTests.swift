import Foundation
import HTTPTypes
import HummingbirdTesting
import TesseraCore
import TesseraTestSupport
import Testing

@Suite("Streaming search and single items over HTTP")
struct StreamAndItemTests {
    @Test func streamSendsEachSectionThenDoneAndAStalledSourceComesLast() async throws {
        let standIns = StandInSet()
        standIns.openverse.state.behavior = .stall
        standIns.flickr.state.delay = .milliseconds(200)
        try await withTessera(standIns.list, sourceTimeout: "8") { client, _ in
            let response = try await client.execute(uri: "/api/search/stream?q=lynx&scope=all", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/event-stream") == true)
            let events = serverSentEvents(response.text)
            #expect(events.last?.event == "done")
            let sections = try events.filter { $0.event == "section" }.map {
                try JSONDecoder().decode(SectionResult.self, from: Data($0.data.utf8))
            }
            #expect(
                Set(sections.map(\.id))
                    == Set([.pixabay, .flickr, .openverse, .wikimedia, .movies, .music, .apps, .books]))
            #expect(sections.last?.id == .openverse, "the stalled source arrives last, after its timeout")
            #expect(sections.last?.error?.code == "timeout")
            #expect(sections.dropLast().allSatisfy { $0.error == nil && $0.items.count == 20 })
            struct Done: Decodable { let query: String; let scope: String; let page: Int; let sections: Int }
            let done = try JSONDecoder().decode(Done.self, from: Data(events.last!.data.utf8))
            #expect(done.query == "lynx" && done.scope == "all" && done.page == 1 && done.sections == 8)
        }
    }

    @Test func aStalledSourceDoesNotHoldBackTheWholeAnswer() async throws {
        let standIns = StandInSet()
        standIns.wikimedia.state.behavior = .stall
        try await withTessera(standIns.list, sourceTimeout: "8") { client, _ in
            let body = try await client.execute(uri: "/api/search?q=moth", method: .get).json(SearchResponse.self)
            #expect(body.sections.first { $0.id == .wikimedia }?.error?.code == "timeout")
            #expect(body.sections.filter { $0.error == nil }.count == 7)
        }
    }

    @Test func itemFromRecentResultsAndFromItsSource() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list) { client, _ in
            let section = try await client.execute(uri: "/api/search?q=ibis&scope=pixabay", method: .get)
                .json(SearchResponse.self).sections[0]
            let item = section.items[3]
            let before = standIns.pixabay.state.requestCount
            let fetched = try await client.execute(uri: "/api/items/pixabay/\(item.id.nativeID)", method: .get)
            #expect(fetched.status == .ok)
            #expect(try fetched.json(Item.self) == item)
            #expect(standIns.pixabay.state.requestCount == before, "recent results answer without the source")
        }
    }

    @Test func itemFetchedFromEachSourceByID() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list) { client, _ in
            // Learn real ids through one server, then ask a fresh one (no recent results) for each.
            let body = try await client.execute(uri: "/api/search?q=crane", method: .get).json(SearchResponse.self)
            let ids = body.sections.compactMap { $0.items.first?.id }
            #expect(ids.count == 8)
            try await withTessera(standIns.list) { fresh, _ in
                for id in ids {
                    let path = "/api/items/\(id.source.rawValue)/\(encoded(id.nativeID))"
                    let response = try await fresh.execute(uri: path, method: .get)
                    #expect(response.status == .ok, "\(path): \(response.text)")
                    #expect(try response.json(Item.self).id == id)
                }
            }
        }
    }

    @Test func itemErrorsMapToStatuses() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list, extraEnvironment: ["FLICKR_API_KEY": ""]) { client, _ in
            let missing = try await client.execute(uri: "/api/items/pixabay/999", method: .get)
            #expect(missing.status == .notFound)
            #expect(try missing.apiError().code == "not_found")

            let disabled = try await client.execute(uri: "/api/items/flickr/123", method: .get)
            #expect(disabled.status == .serviceUnavailable)
            #expect(try disabled.apiError().message.contains("FLICKR_API_KEY"))

            standIns.openverse.state.behavior = .rateLimited(retryAfter: 12)
            let limited = try await client.execute(
                uri: "/api/items/openverse/4bc43a04-ef46-4544-a0c1-63c63f56e276", method: .get)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "12")
        }
    }
}
