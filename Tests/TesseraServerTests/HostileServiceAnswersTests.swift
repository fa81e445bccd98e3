import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraCore
import TesseraTestSupport
import Testing

/// Services that answer with extreme numbers (totals of 1e300 and -1, sides of 0 and `Int64.max`, durations and
/// waits of `Int.max` seconds, prices of 1e308), each through the real server: the section's answer stays sane,
/// clamped or a section error, and the server still answers `/api/health` (docs/sources.md, "Numbers in
/// answers").
@Suite struct HostileServiceAnswersTests {
    static let huge = "9223372036854775807"
    static let overHuge = "9223372036854775808"

    @Test func pixabayTotalsAndSides() async throws {
        try await search("pixabay", \.pixabay) { origin in
            """
            {"total": 1e300, "totalHits": -1, "hits": [
              {"id": 1, "tags": "fox, snow", "previewURL": "\(origin)/pixabay/cdn/p1.jpg", "previewWidth": 0,
               "previewHeight": \(Self.huge), "webformatURL": "\(origin)/pixabay/cdn/w1.jpg",
               "webformatWidth": \(Self.huge), "webformatHeight": -1, "largeImageURL": "\(origin)/pixabay/cdn/l1.jpg",
               "imageURL": "\(origin)/pixabay/cdn/o1.jpg", "imageWidth": \(Self.huge), "imageHeight": \(Self.huge),
               "imageSize": -1, "views": \(Self.huge), "likes": -1},
              {"id": 2, "tags": "fox", "webformatURL": "\(origin)/pixabay/cdn/w2.jpg", "imageWidth": \(Self.overHuge),
               "imageHeight": 1e300},
              {"id": 3, "tags": "fox", "webformatURL": "\(origin)/pixabay/cdn/w3.jpg", "imageWidth": 640,
               "imageHeight": 480, "imageSize": \(Self.huge)}
            ]}
            """
        }
    }

    @Test func flickrTotalsPagesDatesAndSides() async throws {
        try await search("flickr", \.flickr) { origin in
            """
            {"stat": "ok", "photos": {"page": -1, "pages": \(Self.huge), "perpage": 1e300, "total": "1e300",
              "photo": [
                {"id": "1", "owner": "o@N01", "title": "fox", "dateupload": "\(Self.huge)",
                 "datetaken": "2020-01-01 00:00:00", "datetakengranularity": \(Self.huge), "views": "NaN",
                 "o_width": "\(Self.huge)", "o_height": "-1", "url_m": "\(origin)/flickr/live/1_m.jpg",
                 "width_m": "Infinity", "height_m": \(Self.huge), "url_o": "\(origin)/flickr/live/1_o.jpg",
                 "width_o": 0, "height_o": \(Self.overHuge)},
                {"id": "2", "owner": "o@N01", "title": "fox", "dateupload": "-\(Self.huge)",
                 "url_m": "\(origin)/flickr/live/2_m.jpg", "width_m": 500, "height_m": 375}
              ]}}
            """
        }
    }

    @Test func openverseCountsAndSides() async throws {
        try await search("openverse", \.openverse) { origin in
            """
            {"result_count": 1e300, "page_count": \(Self.overHuge), "page_size": -1, "page": 1e300, "results": [
              {"id": "3c1f4e8e-0000-4000-8000-000000000001", "title": "fox", "url": "\(origin)/openverse/cdn/1.jpg",
               "thumbnail": "\(origin)/openverse/cdn/1t.jpg", "license": "by", "license_version": "4.0",
               "width": "\(Self.overHuge)", "height": -5, "filesize": 1e308},
              {"id": "3c1f4e8e-0000-4000-8000-000000000002", "title": "fox", "url": "\(origin)/openverse/cdn/2.jpg",
               "license": "by", "license_version": "4.0", "width": 0, "height": \(Self.huge), "filesize": -1}
            ]}
            """
        }
    }

    @Test func wikimediaSidesOfARendition() async throws {
        try await search("wikimedia", \.wikimedia) { origin in
            """
            {"continue": {"gsroffset": 1e300}, "query": {"pages": [
              {"pageid": \(Self.huge), "ns": 6, "title": "File:Fox.tiff", "index": -\(Self.huge), "imageinfo": [
                {"size": -1, "width": \(Self.huge), "height": 0, "url": "\(origin)/wikimedia/upload/Fox.tiff",
                 "thumburl": "\(origin)/wikimedia/upload/thumb/400px-Fox.tiff.png", "thumbwidth": 400,
                 "thumbheight": \(Self.huge), "mime": "image/tiff", "descriptionurl": "\(origin)/wiki/File:Fox.tiff"}]},
              {"pageid": 2, "ns": 6, "title": "File:Fox.svg", "index": 2, "imageinfo": [
                {"size": \(Self.huge), "width": 1e300, "height": -1, "url": "\(origin)/wikimedia/upload/Fox.svg",
                 "thumburl": "\(origin)/wikimedia/upload/thumb/1px-Fox.svg.png", "thumbwidth": 1,
                 "thumbheight": \(Self.huge), "mime": "image/svg+xml"}]}
            ]}}
            """
        }
    }

    @Test func itunesDurationsPricesAndCounts() async throws {
        try await search("music", \.itunes) { origin in
            """
            {"resultCount": -1, "results": [
              {"wrapperType": "track", "kind": "song", "trackId": 1, "collectionId": 2, "trackName": "Fox",
               "collectionName": "Foxes", "artistName": "A", "trackTimeMillis": \(Self.huge), "trackPrice": 1e308,
               "collectionPrice": -1, "trackRentalPrice": "1e308", "currency": "USD", "averageUserRating": 1e308,
               "userRatingCount": -1, "fileSizeBytes": \(Self.huge), "trackNumber": \(Self.huge),
               "trackCount": \(Self.huge), "discNumber": -1, "discCount": \(Self.huge),
               "artworkUrl100": "\(origin)/itunes/artwork/a/100x100bb.jpg",
               "screenshotUrls": ["\(origin)/itunes/artwork/s/\(Self.huge)x\(Self.huge)bb.jpg"]},
              {"wrapperType": "track", "kind": "song", "trackId": 3, "trackName": "Fox 2", "trackTimeMillis": 1e20,
               "trackPrice": "NaN", "artworkUrl100": "\(origin)/itunes/artwork/b/100x100bb.jpg"},
              {"wrapperType": "track", "kind": "song", "trackId": 4, "trackName": "Fox 3", "trackTimeMillis": -1,
               "trackPrice": 0.99, "currency": "USD"}
            ]}
            """
        }
    }

    /// A wait of `Int.max` seconds in `Retry-After` and Pixabay's `X-RateLimit-Reset`: the pause and every
    /// message about it are computed from it, on this search and the next.
    @Test func aWaitOfIntMaxSecondsIsADay() async throws {
        let standIns = StandInSet()
        standIns.pixabay.state.behavior = .raw(
            body: "API rate limit exceeded", status: 429,
            headers: ["Retry-After": Self.huge, "X-RateLimit-Reset": Self.huge, "Content-Type": "text/plain"])
        try await withTessera(standIns.list) { client, _ in
            for _ in 0..<2 {
                let section = try await Self.section(client, scope: "pixabay", query: "fox")
                #expect(section.error?.code == "rate_limited")
                #expect((0...86_400).contains(section.error?.retryAfter ?? 0))
            }
            try await Self.expectHealthy(client)
        }
    }

    /// Openverse's throttling text names the wait: `Expected available in N seconds.`
    @Test func openversesThrottleTextOfIntMaxSecondsIsADay() async throws {
        let standIns = StandInSet()
        standIns.openverse.state.behavior = .raw(
            body: #"{"detail": "Request was throttled. Expected available in \#(Self.huge) seconds."}"#, status: 429)
        try await withTessera(standIns.list) { client, _ in
            for _ in 0..<2 {
                let section = try await Self.section(client, scope: "openverse", query: "fox")
                #expect(section.error?.code == "rate_limited")
                #expect((0...86_400).contains(section.error?.retryAfter ?? 0))
            }
            try await Self.expectHealthy(client)
        }
    }

    // MARK: - Helpers

    /// Searches `scope` while the stand-in at `standIn` answers `body(origin)`, then checks the section's
    /// numbers and the server's health.
    private func search(
        _ scope: String, _ standIn: KeyPath<StandInSet, some StandInProvider>,
        body: @escaping @Sendable (String) -> String
    ) async throws {
        let standIns = StandInSet()
        let state = standIns[keyPath: standIn].state
        try await withTessera(standIns.list) { client, server in
            state.behavior = .raw(body: body(server.origin))
            let section = try await Self.section(client, scope: scope, query: "fox")
            if let error = section.error {
                // A clear section error is a sane answer too; it must not be the server's own failure.
                #expect(error.code != "internal", "\(error)")
            } else {
                #expect(!section.items.isEmpty, "the readable records are kept")
                Self.expectSane(section)
            }
            try await Self.expectHealthy(client)
        }
    }

    static func section(_ client: some TestClientProtocol, scope: String, query: String) async throws
        -> SectionResult
    {
        let response = try await client.execute(uri: "/api/search?q=\(query)&scope=\(scope)", method: .get)
        #expect(response.status == .ok)
        let body = try response.json(SearchResponse.self)
        return try #require(body.sections.first)
    }

    static func expectSane(_ section: SectionResult) {
        if let total = section.total { #expect(total >= 0) }
        for item in section.items {
            let refs = item.sizes.map(\.ref) + [item.thumbnail, item.preview, item.full].compactMap { $0 }
            for ref in refs {
                for side in [ref.width, ref.height].compactMap({ $0 }) {
                    #expect((1...1_000_000).contains(side), "\(item.id) \(ref.url)")
                }
            }
            for entry in item.metadata {
                #expect(entry.value.count < 100, "\(item.id) \(entry.label): \(entry.value)")
                if Self.measures.contains(entry.label) {
                    #expect(!entry.value.hasPrefix("-"), "\(item.id) \(entry.label): \(entry.value)")
                }
            }
        }
    }

    /// The metadata rows computed from a service's number, which must never read negative.
    static let measures: Set = ["File size", "Original size", "Duration", "Price", "Average rating", "Date uploaded"]

    static func expectHealthy(_ client: some TestClientProtocol) async throws {
        let health = try await client.execute(uri: "/api/health", method: .get)
        #expect(health.status == .ok)
    }
}
