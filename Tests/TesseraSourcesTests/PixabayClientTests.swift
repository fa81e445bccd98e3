import Foundation
import TesseraCore
import TesseraSources
import TesseraTestSupport
import Testing

@Suite("Pixabay client against its stand-in")
struct PixabayClientTests {
    private func client(_ server: StandInServer, _ http: SourceHTTP, key: String? = PixabayStandIn.apiKey)
        -> PixabayClient
    {
        PixabayClient(endpoint: Endpoint(base: URL(string: "\(server.origin)/pixabay/api/")!), apiKey: key, http: http)
    }

    @Test func firstPageSendsDocumentedParametersAndMapsItems() async throws {
        let standIn = PixabayStandIn()
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("yellow flowers", in: .pixabay, page: 1)

            #expect(page.items.count == 20)
            #expect(page.total == 45)
            #expect(page.hasMore)
            let request = try #require(standIn.state.requests.first)
            #expect(request.path == "/pixabay/api/")
            #expect(request["key"] == PixabayStandIn.apiKey)
            #expect(request["q"] == "yellow flowers")
            #expect(request.rawQuery.contains("q=yellow%20flowers"))
            #expect(request["safesearch"] == "true")
            #expect(request["per_page"] == "20")
            #expect(request["page"] == "1")

            let item = page.items[0]
            #expect(item.id.description.hasPrefix("pixabay:"))
            #expect(item.kind == .image)
            #expect(item.tags == ["yellow", "flowers", "red", "sample"])
            #expect(item.title == "Yellow, flowers, red")
            #expect(item.creator?.name == "Creator 0")
            #expect(item.license?.name == "Pixabay Content License")
            #expect(item.pageURL?.hasPrefix("https://pixabay.com/photos/") == true)
            #expect(item.sizes.map(\.name) == ["preview", "webformat", "large"])
            #expect(item.thumbnail?.url.hasSuffix("_640.jpg") == true)
            #expect(item.full?.width == 1280)
            #expect(item.metadata.contains(MetadataEntry("Original size", "1600 × 1200")))
            #expect(item.metadata.contains { $0.label == "Views" })
        }
    }

    @Test func lastPageHasNoMore() async throws {
        let standIn = PixabayStandIn()
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("cats", in: .pixabay, page: 3)
            #expect(page.items.count == 5)
            #expect(!page.hasMore)
        }
    }

    @Test func stopsAtTheFiveHundredResultCap() async throws {
        let standIn = PixabayStandIn()
        standIn.state.corpus.set("sky", total: 900)
        try await withStandIn(standIn) { server, http in
            let last = try await client(server, http).search("sky", in: .pixabay, page: 25)
            #expect(last.items.count == 20)
            #expect(!last.hasMore)
            #expect(last.total == 900)
            let beyond = try await client(server, http).search("sky", in: .pixabay, page: 26)
            #expect(beyond.items.isEmpty && !beyond.hasMore)
            #expect(standIn.state.requestCount == 1, "page 26 is past the cap and must not be requested")
        }
    }

    @Test func emptyResult() async throws {
        let standIn = PixabayStandIn()
        standIn.state.corpus.set("qqqzzz", total: 0)
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("qqqzzz", in: .pixabay, page: 1)
            #expect(page.items.isEmpty)
            #expect(page.total == 0)
            #expect(!page.hasMore)
        }
    }

    @Test func encodesNonASCIIAndReservedCharacters() async throws {
        let standIn = PixabayStandIn()
        try await withStandIn(standIn) { server, http in
            _ = try await client(server, http).search("café & crème/+", in: .pixabay, page: 1)
            let request = try #require(standIn.state.requests.first)
            #expect(request["q"] == "café & crème/+")
            #expect(request.rawQuery.contains("q=caf%C3%A9%20%26%20cr%C3%A8me%2F%2B"))
        }
    }

    @Test func invalidKeyNamesTheVariable() async throws {
        let standIn = PixabayStandIn()
        try await withStandIn(standIn) { server, http in
            let error = await sourceError {
                try await client(server, http, key: "wrong").search("x", in: .pixabay, page: 1)
            }
            #expect(error == .invalidKey(.pixabay, keyVariable: "PIXABAY_API_KEY"))
            #expect(error?.message.contains("PIXABAY_API_KEY") == true)
        }
    }

    @Test func rateLimitCarriesRetryAfter() async throws {
        let standIn = PixabayStandIn()
        standIn.state.behavior = .rateLimited(retryAfter: 42)
        try await withStandIn(standIn) { server, http in
            let error = await sourceError { try await client(server, http).search("x", in: .pixabay, page: 1) }
            #expect(error == .rateLimited(.pixabay, retryAfter: 42))
            #expect(error?.message.contains("42 s") == true)
        }
    }

    @Test func serverErrorAndMalformedBody() async throws {
        let standIn = PixabayStandIn()
        try await withStandIn(standIn) { server, http in
            standIn.state.behavior = .serverError
            let error = await sourceError { try await client(server, http).search("x", in: .pixabay, page: 1) }
            #expect(error == .serviceError(.pixabay, status: 500, detail: nil))
            standIn.state.behavior = .malformed
            let bad = await sourceError { try await client(server, http).search("x", in: .pixabay, page: 1) }
            #expect(bad?.code == "bad_response")
        }
    }

    /// A service that never answers ends in `timeout` (the time limit catches a hang; how long the timeout
    /// takes on a loaded machine is not this test's business).
    @Test(.timeLimit(.minutes(1))) func stallEndsInTimeout() async throws {
        let standIn = PixabayStandIn()
        standIn.state.behavior = .stall
        try await withStandIn(standIn, timeout: .milliseconds(300)) { server, http in
            let error = await sourceError { try await client(server, http).search("x", in: .pixabay, page: 1) }
            #expect(error?.code == "timeout")
        }
    }

    @Test func missingKeyDisablesWithoutAnyRequest() async throws {
        let standIn = PixabayStandIn()
        try await withStandIn(standIn) { server, http in
            let source = client(server, http, key: nil)
            #expect(source.availability == .disabled(reason: "set PIXABAY_API_KEY to enable"))
            #expect(standIn.state.requestCount == 0)
        }
    }

    @Test func itemByID() async throws {
        let standIn = PixabayStandIn()
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let first = try await source.search("tulips", in: .pixabay, page: 1).items[0]
            let fetched = try await source.item(nativeID: first.id.nativeID)
            #expect(fetched == first)
            #expect(standIn.state.requests.last?["id"] == first.id.nativeID)
            let missing = await sourceError { try await source.item(nativeID: "1") }
            #expect(missing == .notFound(.pixabay, id: "1"))
        }
    }

    @Test func cachesAnswersForADayWithoutTheKey() async throws {
        let standIn = PixabayStandIn()
        let cache = MemoryResponseCache()
        let clock = TestClock()
        try await withStandIn(standIn, cache: cache, now: clock.now) { server, http in
            let source = client(server, http)
            _ = try await source.search("owls", in: .pixabay, page: 1)
            _ = try await source.search("owls", in: .pixabay, page: 1)
            #expect(standIn.state.requestCount == 1)
            #expect(await cache.keys.allSatisfy { !$0.contains(PixabayStandIn.apiKey) })
            clock.advance(by: 24 * 3600 + 1)
            _ = try await source.search("owls", in: .pixabay, page: 1)
            #expect(standIn.state.requestCount == 2)
        }
    }
}
