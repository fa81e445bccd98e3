import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

@testable import TesseraServer

/// `GET /api/items/galleries`: which galleries already hold some search results, on both engines.
@Suite("Which galleries hold an item, over HTTP")
struct HoldingAPITests {
    private struct Answer: Decodable {
        let items: [String: [Ref]]
        struct Ref: Decodable, Equatable {
            let id: String
            let name: String
        }
    }

    @Test(arguments: Engine.allCases)
    func resultsInGalleriesAreNamedNewestFirst(engine: Engine) async throws {
        try await engine.withEnvironment { environment in
            try await withTessera(StandInSet().list, extraEnvironment: environment) { client, _ in
                let search = try await client.execute(uri: "/api/search?q=fox&scope=flickr", method: .get)
                    .json(SearchResponse.self)
                let results = try #require(search.sections.first?.items)
                let (fox, owl) = (results[0], results[1])
                let picks = try await GalleriesAPITests.create(client, "Picks")
                let wall = try await GalleriesAPITests.create(client, "Wall")
                for (item, gallery) in [(fox, picks), (fox, wall), (owl, wall)] {
                    let added = try await GalleriesAPITests.add(
                        client, gallery.id, json: GalleriesAPITests.itemJSON(item))
                    #expect(added.status == .created)
                }

                let query = [fox.id.description, owl.id.description, "pixabay:404", fox.id.description]
                    .map { "id=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) }
                    .joined(separator: "&")
                let response = try await client.execute(uri: "/api/items/galleries?\(query)", method: .get)
                #expect(response.status == .ok)
                let answer = try response.json(Answer.self)
                #expect(
                    answer.items[fox.id.description]
                        == [.init(id: wall.id.rawValue, name: "Wall"), .init(id: picks.id.rawValue, name: "Picks")])
                #expect(answer.items[owl.id.description] == [.init(id: wall.id.rawValue, name: "Wall")])
                #expect(answer.items.count == 2, "items no gallery holds are left out")

                // An id with spaces and colons, as Wikimedia's are: asked about, held by none.
                let odd = try await client.execute(
                    uri: "/api/items/galleries?id=wikimedia%3AFile%3ARed%20fox.jpg", method: .get)
                #expect(odd.status == .ok)
                #expect(try odd.json(Answer.self).items.isEmpty)
            }
        }
    }

    @Test func badQuestionsGetTheErrorShape() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let many = (0...100).map { "id=pixabay:\($0)" }.joined(separator: "&")
            let long = "id=pixabay:" + String(repeating: "9", count: 300)
            for query in ["", "id=", many, long] {
                let response = try await client.execute(uri: "/api/items/galleries?\(query)", method: .get)
                #expect(response.status == .badRequest, "\(query.prefix(30))")
                #expect(try response.apiError().code == "invalid_item_id")
            }
            let hundred = (0..<100).map { "id=pixabay:\($0)" }.joined(separator: "&")
            #expect(try await client.execute(uri: "/api/items/galleries?\(hundred)", method: .get).status == .ok)
        }
    }
}
