import AsyncHTTPClient
import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

@testable import TesseraSources

@Suite("Wikimedia Commons client against its stand-in")
struct WikimediaClientTests {
    private func client(_ server: StandInServer, _ http: SourceHTTP) -> WikimediaClient {
        WikimediaClient(endpoint: Endpoint(base: URL(string: "\(server.origin)/wikimedia/w/api.php")!), http: http)
    }

    @Test func firstPageSendsTheSearchGeneratorParametersAndMapsItems() async throws {
        let standIn = WikimediaStandIn()
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("yellow flowers", in: .wikimedia, page: 1)

            #expect(page.items.count == 20)
            #expect(page.total == nil)
            #expect(page.hasMore)
            let records = standIn.state.corpus.records(for: "yellow flowers")
            #expect(page.items.map(\.id.nativeID) == records.prefix(20).map { String($0.number) })
            let request = try #require(standIn.state.requests.first)
            #expect(request.path == "/wikimedia/w/api.php")
            #expect(
                request.query == [
                    "action": "query", "format": "json", "formatversion": "2", "generator": "search",
                    "gsrsearch": "filetype:bitmap|drawing yellow flowers", "gsrnamespace": "6", "gsrlimit": "20",
                    "gsroffset": "0", "prop": "imageinfo", "iiprop": "url|size|mime|extmetadata", "iiurlwidth": "400",
                ])
            #expect(request.rawQuery.contains("gsrsearch=filetype%3Abitmap%7Cdrawing%20yellow%20flowers"))

            let item = page.items[0]
            #expect(item.id == ItemID(source: .wikimedia, nativeID: String(records[0].number)))
            #expect(item.kind == .image)
            #expect(item.title == "yellow flowers 1")
            #expect(item.tags == ["yellow", "flowers", "red", "sample", "quality images"])
            #expect(
                item.creator
                    == Creator(
                        name: "Creator 0",
                        url: "https://commons.wikimedia.org/w/index.php?title=User:Creator_0&action=edit&redlink=1"))
            let deed = "https://creativecommons.org/licenses/by-sa/4.0"
            #expect(item.license == License(name: "CC BY-SA 4.0", url: deed))
            #expect(item.pageURL == "https://commons.wikimedia.org/wiki/File:Yellow_flowers_1.jpg")
            #expect(item.sizes.map(\.name) == ["thumb", "original"])
            let thumb = try #require(item.thumbnail)
            #expect(thumb.url.hasPrefix("\(server.origin)/wikimedia/upload/thumb/"))
            #expect(thumb.url.hasSuffix("/Yellow_flowers_1.jpg/400px-Yellow_flowers_1.jpg"))
            #expect(thumb.width == 400 && thumb.height == 300)
            #expect(item.preview == item.full)
            #expect(item.full?.url.hasSuffix("/Yellow_flowers_1.jpg") == true)
            #expect(item.full?.width == 1600 && item.full?.height == 1200)
            #expect(
                item.metadata.map(\.label) == [
                    "Description", "Credit", "Date", "Usage terms", "Attribution required", "MIME type", "File size",
                    "Original size", "Short URL", "GPS latitude",
                ], "hidden entries (DateTime, License, Copyrighted...) stay out")
            #expect(item.metadata[0] == MetadataEntry("Description", "A photo of yellow flowers 1 & more."))
            #expect(item.metadata.contains(MetadataEntry("Credit", "Own work")))
            #expect(item.metadata.contains(MetadataEntry("Attribution required", "yes")))
            #expect(item.metadata.contains(MetadataEntry("File size", "640 KB")))
            #expect(item.metadata.contains(MetadataEntry("Original size", "1600 × 1200")))
        }
    }

    @Test func recordsWithoutNameLinkLicenceOrMetadataStillMap() async throws {
        let standIn = WikimediaStandIn()
        try await withStandIn(standIn) { server, http in
            let items = try await client(server, http).search("yellow flowers", in: .wikimedia, page: 1).items
            // Fourth record: public domain, no licence URL.
            #expect(items[3].license == License(name: "Public domain", url: nil))
            #expect(items[3].metadata.contains(MetadataEntry("Attribution required", "no")))
            // Fifth: no ObjectName (the title comes from the file name) and an Artist without a link.
            #expect(items[4].title == "Yellow flowers 5")
            #expect(items[4].creator == Creator(name: "Creator 4", url: nil))
            // Tenth: `extmetadata: []`.
            #expect(items[9].title == "Yellow flowers 10")
            #expect(items[9].creator == nil && items[9].license?.id == .unknown && items[9].tags.isEmpty)
            #expect(items[9].metadata.map(\.label) == ["MIME type", "File size", "Original size", "Short URL"])
            #expect(items[9].sizes.count == 2)
        }
    }

    @Test func formatVersionOneAnswersMapTheSame() async throws {
        let standIn = WikimediaStandIn()
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let version2 = try await source.search("owls", in: .wikimedia, page: 2)
            standIn.ignoresFormatVersion = true
            let version1 = try await source.search("owls", in: .wikimedia, page: 2)
            #expect(version1.items.count == 20)
            #expect(version1 == version2, "pages keyed by id in reverse order, \"\" flags: the same items, same order")
            let records = standIn.state.corpus.records(for: "owls")
            #expect(version1.items.first?.id.nativeID == String(records[20].number))
        }
    }

    @Test func resultsFollowTheSearchRankNotThePageIDs() async throws {
        let standIn = WikimediaStandIn()
        let records = [900, 100, 500].map {
            FakeRecord(number: $0, title: "rank \($0)", tags: ["rank"], creator: "A", width: 800, height: 600)
        }
        standIn.state.corpus.set("rank", records: records)
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let version2 = try await source.search("rank", in: .wikimedia, page: 1)
            #expect(version2.items.map(\.id.nativeID) == ["900", "100", "500"])
            #expect(!version2.hasMore)
            standIn.ignoresFormatVersion = true
            let version1 = try await source.search("rank", in: .wikimedia, page: 1)
            #expect(version1.items.map(\.id.nativeID) == ["900", "100", "500"])
        }
    }

    @Test func lastPageAndEmptyResultHaveNoMore() async throws {
        let standIn = WikimediaStandIn()
        standIn.state.corpus.set("qqqzzz", total: 0)
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let last = try await source.search("cats", in: .wikimedia, page: 3)
            #expect(last.items.count == 5 && last.hasMore == false)
            #expect(standIn.state.requests.first?["gsroffset"] == "40")
            // No match is `{"batchcomplete": true}` without `query`: an empty page, not an error.
            let empty = try await source.search("qqqzzz", in: .wikimedia, page: 1)
            #expect(empty == SourcePage(items: [], total: nil, hasMore: false))
            standIn.ignoresFormatVersion = true
            #expect(try await source.search("qqqzzz", in: .wikimedia, page: 1) == empty)
        }
    }

    @Test func stopsAtTheTenThousandResultWindow() async throws {
        let standIn = WikimediaStandIn()
        standIn.state.corpus.set("sky", total: 10_050)
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            #expect(try await source.search("sky", in: .wikimedia, page: 499).hasMore)
            let last = try await source.search("sky", in: .wikimedia, page: 500)
            #expect(last.items.count == 20 && !last.hasMore)
            #expect(standIn.state.requests.last?["gsroffset"] == "9980")
            let beyond = try await source.search("sky", in: .wikimedia, page: 501)
            #expect(beyond.items.isEmpty && !beyond.hasMore)
            #expect(standIn.state.requestCount == 2, "offset 10,000 is past CirrusSearch's window: no request")
        }
    }

    @Test func encodesNonASCIIAndReservedCharacters() async throws {
        let standIn = WikimediaStandIn()
        try await withStandIn(standIn) { server, http in
            _ = try await client(server, http).search("café & crème/+", in: .wikimedia, page: 1)
            let request = try #require(standIn.state.requests.first)
            #expect(request["gsrsearch"] == "filetype:bitmap|drawing café & crème/+")
            #expect(
                request.rawQuery.contains("gsrsearch=filetype%3Abitmap%7Cdrawing%20caf%C3%A9%20%26%20cr%C3%A8me%2F%2B"))
        }
    }

    @Test func apiErrorsMapByCode() async throws {
        let standIn = WikimediaStandIn()
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            func error(_ code: String, _ info: String) async -> SourceError? {
                standIn.apiError = (code, info)
                return await sourceError { try await source.search("x", in: .wikimedia, page: 1) }
            }
            let limited = await error("ratelimited", "You've exceeded your rate limit. Please wait some time.")
            #expect(limited == .rateLimited(.wikimedia, retryAfter: nil))
            let lag = "Waiting for 10.64.48.35: 6.2 seconds lagged."
            #expect(await error("maxlag", lag) == .serviceError(.wikimedia, status: nil, detail: lag))
            let readonly = "The wiki is currently in read-only mode."
            #expect(await error("readonly", readonly) == .serviceError(.wikimedia, status: nil, detail: readonly))
            let exception = "[abc123] Caught exception of type Wikimedia\\Rdbms\\DBQueryError"
            let other = await error("internal_api_error_DBQueryError", exception)
            #expect(other == .rejected(.wikimedia, detail: exception))
            standIn.apiError = nil
            standIn.state.behavior = .invalidKey
            let token = await sourceError { try await source.search("x", in: .wikimedia, page: 1) }
            #expect(token == .rejected(.wikimedia, detail: "Invalid CSRF token."))
        }
    }

    @Test func rateLimitServerErrorAndMalformedBody() async throws {
        let standIn = WikimediaStandIn()
        try await withStandIn(standIn) { server, http in
            standIn.state.behavior = .rateLimited(retryAfter: 30)
            let limited = await sourceError { try await client(server, http).search("x", in: .wikimedia, page: 1) }
            #expect(limited == .rateLimited(.wikimedia, retryAfter: 30))
            standIn.state.behavior = .serverError
            let error = await sourceError { try await client(server, http).search("x", in: .wikimedia, page: 1) }
            #expect(error == .serviceError(.wikimedia, status: 500, detail: nil))
            standIn.state.behavior = .malformed
            let bad = await sourceError { try await client(server, http).search("x", in: .wikimedia, page: 1) }
            #expect(bad?.code == "bad_response")
        }
    }

    /// A service that never answers ends in `timeout` (the time limit catches a hang; how long the timeout
    /// takes on a loaded machine is not this test's business).
    @Test(.timeLimit(.minutes(1))) func stallEndsInTimeout() async throws {
        let standIn = WikimediaStandIn()
        standIn.state.behavior = .stall
        try await withStandIn(standIn, timeout: .milliseconds(300)) { server, http in
            let error = await sourceError { try await client(server, http).search("x", in: .wikimedia, page: 1) }
            #expect(error?.code == "timeout" && error?.source == .wikimedia)
        }
    }

    @Test func itemByPageIDOrTitle() async throws {
        let standIn = WikimediaStandIn()
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let first = try await source.search("tulips", in: .wikimedia, page: 1).items[0]
            let byID = try await source.item(nativeID: first.id.nativeID)
            #expect(byID == first)
            let request = try #require(standIn.state.requests.last)
            #expect(request["pageids"] == first.id.nativeID && request["generator"] == nil)
            #expect(request["formatversion"] == "2" && request["iiprop"] == "url|size|mime|extmetadata")
            #expect(request["iiurlwidth"] == "400" && request["prop"] == "imageinfo")

            let byTitle = try await source.item(nativeID: "Tulips_1.jpg")
            #expect(byTitle == first)
            #expect(standIn.state.requests.last?["titles"] == "File:Tulips_1.jpg")
        }
    }

    @Test func missingItemsAreNotFoundInBothFormatVersions() async throws {
        let standIn = WikimediaStandIn()
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            #expect(await sourceError { try await source.item(nativeID: "123") } == .notFound(.wikimedia, id: "123"))
            let title = "File:Nope.jpg"
            #expect(await sourceError { try await source.item(nativeID: title) } == .notFound(.wikimedia, id: title))
            standIn.ignoresFormatVersion = true
            #expect(await sourceError { try await source.item(nativeID: "123") } == .notFound(.wikimedia, id: "123"))
            #expect(await sourceError { try await source.item(nativeID: title) } == .notFound(.wikimedia, id: title))
            let count = standIn.state.requestCount
            for bad in ["0", "-5", "a|b", " "] {
                #expect(await sourceError { try await source.item(nativeID: bad) } == .notFound(.wikimedia, id: bad))
            }
            #expect(standIn.state.requestCount == count)
        }
    }

    @Test func cachesAnswersForAnHour() async throws {
        let standIn = WikimediaStandIn()
        let cache = MemoryResponseCache()
        let clock = TestClock()
        try await withStandIn(standIn, cache: cache, now: clock.now) { server, http in
            let source = client(server, http)
            _ = try await source.search("owls", in: .wikimedia, page: 1)
            _ = try await source.search("owls", in: .wikimedia, page: 1)
            #expect(standIn.state.requestCount == 1)
            clock.advance(by: 3600 + 1)
            _ = try await source.search("owls", in: .wikimedia, page: 1)
            #expect(standIn.state.requestCount == 2)
        }
    }

    /// The stand-in must refuse what MediaWiki refuses, with MediaWiki's HTTP-200 error objects.
    @Test func standInChecksParameters() async throws {
        let standIn = WikimediaStandIn()
        try await withStandIn(standIn) { server, _ in
            func get(_ query: String) async throws -> (Int, String) {
                let response = try await HTTPClient.shared.execute(
                    HTTPClientRequest(url: "\(server.origin)/wikimedia/w/api.php?\(query)"), timeout: .seconds(5))
                let body = try await response.body.collect(upTo: 1 << 20)
                return (Int(response.status.code), String(decoding: body.readableBytesView, as: UTF8.self))
            }
            let missing = try await get("action=query&format=json&generator=search&gsrnamespace=6")
            #expect(missing.0 == 200 && missing.1.contains(#""code":"missingparam""#))
            #expect(missing.1.contains(#"The \"gsrsearch\" parameter must be set."#))
            let limit = try await get("action=query&format=json&generator=search&gsrsearch=a&gsrlimit=501")
            #expect(limit.0 == 200 && limit.1.contains(#""code":"outofrange""#))
            #expect(try await get("action=parse&format=json").1.contains(#""code":"badvalue""#))
        }
    }
}
