import Foundation
import HTTPTypes
import HummingbirdTesting
import TesseraCore
import TesseraTestSupport
import Testing

/// Filters over HTTP: refused at the edge, sent to each service as its own parameters, applied by Tessera
/// where the service cannot, and reported per section (docs/filters.md).
@Suite("Search filters over HTTP")
struct SearchFiltersAPITests {
    @Test(arguments: [
        ("/api/search?q=a&orientation=wide", "invalid_filter"),
        ("/api/search?q=a&size=huge", "invalid_filter"),
        ("/api/search?q=a&color=purple", "invalid_filter"),
        ("/api/search?q=a&type=photograph", "invalid_filter"),
        ("/api/search?q=a&license=", "invalid_filter"),
        ("/api/search?q=a&license=mit", "invalid_filter"),
        ("/api/search?q=a&license=cc-by-9.0", "invalid_filter"),
        ("/api/search?q=a&license=commercial,,cc0", "invalid_filter"),
        ("/api/search?q=a&license=" + Array(repeating: "cc0", count: 17).joined(separator: ","), "invalid_filter"),
        ("/api/search/stream?q=a&color=", "invalid_filter"),
    ])
    func badFiltersAre400(uri: String, code: String) async throws {
        try await withTessera([PixabayStandIn()]) { client, server in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .badRequest)
            let error = try response.apiError()
            #expect(error.code == code)
            #expect(!error.message.isEmpty)
            #expect(server.providers[0].state.requestCount == 0, "bad input never reaches a source")
        }
    }

    private func section(_ client: any TestClientProtocol, _ query: String) async throws -> SectionResult {
        let uri = "/api/search?" + (query.hasPrefix("q=") ? query : "q=fox&" + query)
        let response = try await client.execute(uri: uri, method: .get)
        #expect(response.status == .ok)
        return try #require(try response.json(SearchResponse.self).sections.first)
    }

    @Test func pixabayTakesTypeColourOrientationAndSizeOnTheWire() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list) { client, _ in
            let result = try await section(
                client, "scope=pixabay&type=vector&color=red&orientation=landscape&size=large")
            #expect(result.error == nil)
            #expect(
                result.filters
                    == FilterReport(native: [.orientation, .size, .color, .type], tessera: [], unsupported: []))
            let sent = try #require(standIns.pixabay.state.requests.last)
            #expect(sent["image_type"] == "vector" && sent["colors"] == "red" && sent["orientation"] == "horizontal")
            #expect(sent["min_width"] == "1600" && sent["min_height"] == "1600")
            #expect(result.items.isEmpty, "the stand-in's corpus has only photos, as Pixabay would answer")

            // The stand-in's photos are all landscape, 1600–2800 × 1200 px.
            let portrait = try await section(client, "scope=pixabay&orientation=portrait")
            #expect(portrait.items.isEmpty && standIns.pixabay.state.requests.last?["orientation"] == "vertical")
            let medium = try await section(client, "scope=pixabay&orientation=landscape&size=medium")
            #expect(
                medium.items.count == 20,
                "\(medium.items.map { ($0.full?.width, $0.full?.height, $0.sizes.map(\.width)) })")
            #expect(medium.filters?.native == [.orientation, .size])
            for item in medium.items {
                let full = try #require(item.full)
                let (width, height) = (try #require(full.width), try #require(full.height))
                #expect(SearchFilters.orientation(width: width, height: height) == .landscape, "\(item.id)")
            }
        }
    }

    @Test func tesseraFiltersWhatTheServiceCannotAndSaysWhenNothingIsLeft() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list) { client, _ in
            // Every Pixabay image is under Pixabay's licence: a CC0-only search leaves nothing, after reading
            // at most three of Pixabay's pages.
            let none = try await section(client, "scope=pixabay&license=cc0")
            #expect(none.error == nil && none.items.isEmpty)
            #expect(none.filters == FilterReport(native: [], tessera: [.license], unsupported: []))
            #expect(standIns.pixabay.state.requests.map { $0["page"] } == ["1", "2", "3"])

            standIns.pixabay.state.clearRequests()
            let commercial = try await section(client, "q=heron&scope=pixabay&license=commercial,modification")
            #expect(commercial.items.count == 20 && commercial.hasMore)
            #expect(commercial.filters == FilterReport(native: [], tessera: [.license], unsupported: []))
            #expect(standIns.pixabay.state.requests.count == 1, "a full page needs no further pages")

            // Pixabay has no square: Tessera checks it, and the stand-in's 4:3 photos all fail.
            standIns.pixabay.state.clearRequests()
            let square = try await section(client, "q=owl&scope=pixabay&orientation=square")
            #expect(square.filters == FilterReport(native: [], tessera: [.orientation], unsupported: []))
            #expect(square.items.isEmpty)
            #expect(standIns.pixabay.state.requests.map { $0["orientation"] } == [nil, nil, nil])
        }
    }

    @Test func aFilterASourceCannotHonourFailsItsSectionNotTheSearch() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list) { client, _ in
            let response = try await client.execute(uri: "/api/search?q=fox&scope=all&color=red", method: .get)
            let body = try response.json(SearchResponse.self)
            let flickr = try #require(body.sections.first { $0.id == .flickr })
            #expect(flickr.error?.code == "unsupported_filter" && flickr.items.isEmpty)
            #expect(flickr.error?.message.contains("colour") == true)
            #expect(flickr.filters == FilterReport(native: [], tessera: [], unsupported: [.color]))
            #expect(standIns.flickr.state.requestCount == 0, "nothing is asked that could not be filtered")
            let pixabay = try #require(body.sections.first { $0.id == .pixabay })
            #expect(pixabay.error == nil && pixabay.filters?.native == [.color])
            #expect(response.text.contains(#""filters":{"native":["color"],"tessera":[],"unsupported":[]}"#))

            let stream = try await client.execute(uri: "/api/search/stream?q=fox&scope=flickr&color=red", method: .get)
            #expect(stream.text.contains("unsupported_filter"))
            #expect(stream.text.contains(#""unsupported":["color"]"#))
        }
    }

    @Test func flickrOpenverseAndWikimediaGetTheirOwnParameters() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list) { client, _ in
            let flickr = try await section(client, "scope=flickr&license=commercial")
            #expect(flickr.filters?.native == [.license])
            #expect(standIns.flickr.state.requests.last?["license"] == "4,5,6,7,8,9,10,11,12,13")

            // Flickr is asked for photos only in every search: a photo filter is its own; other types it cannot.
            let photos = try await section(client, "scope=flickr&type=photo")
            #expect(photos.error == nil && photos.items.count == 20)
            #expect(photos.filters == FilterReport(native: [.type], tessera: [], unsupported: []))
            let asked = try #require(standIns.flickr.state.requests.last)
            #expect(asked["content_type"] == "1" && asked["media"] == "photos")
            let before = standIns.flickr.state.requestCount
            let drawings = try await section(client, "scope=flickr&type=illustration")
            #expect(drawings.error?.code == "unsupported_filter" && drawings.items.isEmpty)
            #expect(drawings.filters == FilterReport(native: [], tessera: [], unsupported: [.type]))
            #expect(standIns.flickr.state.requestCount == before, "not asked for what it cannot filter")

            let openverse = try await section(
                client, "scope=openverse&license=cc-by,cc0,modification&orientation=portrait&size=small&type=vector")
            #expect(openverse.filters?.native == [.license, .orientation, .size, .type])
            let sent = try #require(standIns.openverse.state.requests.last)
            #expect(sent["license"] == "by,cc0" && sent["license_type"] == "modification")
            #expect(sent["aspect_ratio"] == "tall" && sent["size"] == "small" && sent["extension"] == "svg")

            let commercial = try await section(client, "scope=openverse&license=commercial,modification")
            #expect(!commercial.items.isEmpty && commercial.filters?.native == [.license])
            #expect(standIns.openverse.state.requests.last?["license_type"] == "commercial,modification")
            for item in commercial.items {
                let license = try #require(item.license)
                #expect(license.allowsCommercialUse && license.allowsModification, "\(item.id): \(license.id)")
            }

            let wikimedia = try await section(client, "scope=wikimedia&type=vector&size=large")
            #expect(wikimedia.filters?.native == [.size, .type])
            let search = try #require(standIns.wikimedia.state.requests.last?["gsrsearch"])
            #expect(search.hasPrefix("filetype:drawing filew:>1599 fileh:>1599 fox"))
        }
    }

    @Test func theResponseCacheKeepsFilteredAnswersApart() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list) { client, _ in
            for query in ["scope=openverse", "scope=openverse&size=large", "scope=openverse&size=large"] {
                _ = try await section(client, query)
            }
            let sizes = standIns.openverse.state.requests.map { $0["size"] }
            #expect(sizes == [nil, "large"], "a filtered search is not answered from the unfiltered one's cache")
        }
    }
}
