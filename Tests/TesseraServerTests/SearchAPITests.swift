import Foundation
import HTTPTypes
import HummingbirdTesting
import TesseraCore
import TesseraTestSupport
import Testing

@Suite("Search API over HTTP")
struct SearchAPITests {
    @Test func healthAndSources() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list, extraEnvironment: ["FLICKR_API_KEY": ""]) { client, _ in
            let health = try await client.execute(uri: "/api/health", method: .get)
            #expect(health.status == .ok)
            #expect(health.text == #"{"status":"ok","dataFolder":"ok","database":"ok"}"#)

            let sources = try await client.execute(uri: "/api/sources", method: .get).json([SourceDescriptor].self)
            #expect(sources.map(\.id) == [.local, .pixabay, .flickr, .openverse, .wikimedia, .itunes])
            let local = try #require(sources.first { $0.id == .local })
            #expect(!local.enabled, "no library and no samples in this test")
            #expect(local.reason == "start with --library DIR or set TESSERA_LIBRARY")
            let flickr = try #require(sources.first { $0.id == .flickr })
            #expect(!flickr.enabled)
            #expect(flickr.reason == "set FLICKR_API_KEY to enable")
            #expect(sources.first { $0.id == .itunes }?.sections == [.movies, .music, .apps, .books])
        }
    }

    @Test func allScopeReturnsSectionsInFixedOrderWithProxiedImages() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list) { client, _ in
            let response = try await client.execute(uri: "/api/search?q=red%20fox&scope=all", method: .get)
            #expect(response.status == .ok)
            let body = try response.json(SearchResponse.self)
            #expect(body.query == "red fox")
            #expect(body.scope == "all")
            #expect(body.page == 1)
            #expect(
                body.sections.map(\.id) == [.pixabay, .flickr, .openverse, .wikimedia, .movies, .music, .apps, .books])
            for section in body.sections {
                #expect(section.error == nil, "\(section.id): \(section.error?.message ?? "")")
                #expect(section.items.count == 20, "\(section.id)")
                #expect(section.hasMore, "\(section.id)")
                for item in section.items {
                    for url in [item.thumbnail?.url, item.preview?.url, item.full?.url].compactMap({ $0 }) {
                        #expect(url.hasPrefix("/img/"), "\(item.id) has \(url)")
                    }
                }
            }
            let imagePaths =
                #"127\.0\.0\.1:\d+/(pixabay/cdn|flickr/live|openverse/cdn|wikimedia/upload|itunes/artwork|openverse/v1/images/[^"]*/thumb)"#
            #expect(response.text.range(of: imagePaths, options: .regularExpression) == nil, "no image is hotlinked")
            #expect(!response.text.contains(PixabayStandIn.apiKey))
        }
    }

    @Test func oneFailingSourceFailsOnlyItsSection() async throws {
        let standIns = StandInSet()
        standIns.flickr.state.behavior = .serverError
        standIns.itunes.state.behavior = .rateLimited(retryAfter: 30)
        try await withTessera(standIns.list) { client, _ in
            let body = try await client.execute(uri: "/api/search?q=owl", method: .get).json(SearchResponse.self)
            let flickr = try #require(body.sections.first { $0.id == .flickr })
            #expect(flickr.error?.code == "service_error")
            #expect(flickr.error?.message.contains("Flickr") == true)
            #expect(flickr.items.isEmpty)
            let movies = try #require(body.sections.first { $0.id == .movies })
            #expect(movies.error?.code == "rate_limited")
            #expect(movies.error?.message.contains("30 s") == true)
            #expect(body.sections.first { $0.id == .pixabay }?.items.count == 20)
            #expect(
                body.sections.map(\.id) == [.pixabay, .flickr, .openverse, .wikimedia, .movies, .music, .apps, .books])
        }
    }

    @Test func emptySectionsAreLeftOutOfAllButKeptInASingleScope() async throws {
        let standIns = StandInSet()
        standIns.setTotal("zebra", 0)
        standIns.pixabay.state.corpus.set("zebra", total: 3)
        try await withTessera(standIns.list) { client, _ in
            let all = try await client.execute(uri: "/api/search?q=zebra", method: .get).json(SearchResponse.self)
            #expect(all.sections.map(\.id) == [.pixabay])
            #expect(all.sections[0].items.count == 3)
            #expect(!all.sections[0].hasMore)

            let single = try await client.execute(uri: "/api/search?q=zebra&scope=wikimedia", method: .get)
                .json(SearchResponse.self)
            #expect(single.sections.map(\.id) == [.wikimedia])
            #expect(single.sections[0].items.isEmpty)
        }
    }

    @Test func disabledSourceInASingleScopeSaysHowToEnableIt() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list, extraEnvironment: ["PIXABAY_API_KEY": ""]) { client, _ in
            let body = try await client.execute(uri: "/api/search?q=owl&scope=pixabay", method: .get)
                .json(SearchResponse.self)
            #expect(body.sections.first?.error?.code == "source_disabled")
            #expect(body.sections.first?.error?.message.contains("PIXABAY_API_KEY") == true)
            let all = try await client.execute(uri: "/api/search?q=owl", method: .get).json(SearchResponse.self)
            #expect(!all.sections.contains { $0.id == .pixabay }, "a disabled source is not an error in all")
            #expect(standIns.pixabay.state.requestCount == 0)
        }
    }

    @Test func duplicatesAreDroppedWithinAndAcrossPages() async throws {
        let standIns = StandInSet()
        var records = (0..<40).map { FakeRecord.generated(query: "dupes", index: $0) }
        records[5] = records[2]  // twice on page 1
        records[21] = records[10]  // page 2 repeats an item of page 1
        standIns.pixabay.state.corpus.set("dupes", records: records)
        try await withTessera(standIns.list) { client, _ in
            let first = try await client.execute(uri: "/api/search?q=dupes&scope=pixabay", method: .get)
                .json(SearchResponse.self).sections[0].items
            #expect(first.count == 19)
            #expect(Set(first.map(\.id)).count == 19)
            let second = try await client.execute(uri: "/api/search?q=dupes&scope=pixabay&page=2", method: .get)
                .json(SearchResponse.self).sections[0].items
            #expect(second.count == 19)
            #expect(Set(first.map(\.id)).isDisjoint(with: second.map(\.id)))
        }
    }

    @Test func theSameSearchTwiceReachesTheSourceOnce() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list) { client, _ in
            for _ in 0..<2 {
                let response = try await client.execute(uri: "/api/search?q=heron", method: .get)
                #expect(response.status == .ok)
            }
            for provider in standIns.list {
                let searches = provider.state.requests.count
                #expect(searches == (provider is ITunesStandIn ? 4 : 1), "\(type(of: provider))")
            }
        }
    }

    /// `sources` is the slowest section's wait on its service, `total` the server's whole time: the bench
    /// judges the difference, so both must mean what they say.
    @Test func serverTimingTellsTheSourcesWaitFromTheWhole() async throws {
        let standIns = StandInSet()
        standIns.openverse.state.delay = .milliseconds(300)
        try await withTessera(standIns.list) { client, _ in
            func timing(_ uri: String) async throws -> [String: Double] {
                let response = try await client.execute(uri: uri, method: .get)
                let header = try #require(response.headers[HTTPField.Name("Server-Timing")!])
                var metrics: [String: Double] = [:]
                for metric in header.split(separator: ",") {
                    let parts = metric.components(separatedBy: ";dur=")
                    try #require(parts.count == 2, "\(header)")
                    metrics[parts[0].trimmingCharacters(in: .whitespaces)] = Double(parts[1])
                }
                return metrics
            }
            let first = try await timing("/api/search?q=kestrel")
            let sources = try #require(first["sources"]), total = try #require(first["total"])
            #expect(sources >= 300, "the slowest section waited on Openverse's 300 ms")
            #expect(total >= sources)
            let cached = try await timing("/api/search?q=kestrel")
            #expect(cached["sources"] == 0, "a cached answer waits on no service")
        }
    }

    @Test(arguments: [
        ("/api/search", "invalid_query"),
        ("/api/search?q=", "invalid_query"),
        ("/api/search?q=%20%20%20", "invalid_query"),
        ("/api/search?q=" + String(repeating: "a", count: 101), "invalid_query"),
        ("/api/search?q=a&scope=everything", "invalid_scope"),
        ("/api/search?q=a&scope=itunes", "invalid_scope"),
        ("/api/search?q=a&page=0", "invalid_page"),
        ("/api/search?q=a&page=-1", "invalid_page"),
        ("/api/search?q=a&page=201", "invalid_page"),
        ("/api/search?q=a&page=two", "invalid_page"),
        ("/api/search?q=a&page=1.5", "invalid_page"),
        ("/api/search/stream?q=", "invalid_query"),
        ("/api/search/stream?q=a&scope=nope", "invalid_scope"),
        ("/api/search/stream?q=a&page=9999", "invalid_page"),
        ("/api/items/nowhere/1", "unknown_source"),
    ])
    func badInputIs400WithTheErrorShape(uri: String, code: String) async throws {
        try await withTessera([PixabayStandIn()]) { client, server in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            let error = try response.apiError()
            #expect(error.code == code)
            #expect(!error.message.isEmpty)
            #expect(server.providers[0].state.requestCount == 0, "bad input never reaches a source")
        }
    }

    @Test func unknownRoutesAndMethodsUseTheErrorShape() async throws {
        try await withTessera([PixabayStandIn()]) { client, _ in
            let missing = try await client.execute(uri: "/api/nothing-here", method: .get)
            #expect(missing.status == .notFound)
            #expect(try missing.apiError().code == "not_found")
            let post = try await client.execute(uri: "/api/search?q=a", method: .post)
            #expect([.notFound, .methodNotAllowed].contains(post.status))
            #expect(try !post.apiError().code.isEmpty)
        }
    }
}
