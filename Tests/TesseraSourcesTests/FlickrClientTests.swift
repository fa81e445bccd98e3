import Foundation
import TesseraCore
import TesseraSources
import TesseraTestSupport
import Testing

@Suite("Flickr client against its stand-in")
struct FlickrClientTests {
    private func client(_ server: StandInServer, _ http: SourceHTTP, key: String? = FlickrStandIn.apiKey)
        -> FlickrClient
    {
        FlickrClient(endpoint: endpoint(server), apiKey: key, http: http)
    }

    private func endpoint(_ server: StandInServer) -> Endpoint {
        Endpoint(base: URL(string: "\(server.origin)/flickr/services/rest/")!)
    }

    /// The body the stand-in gives for `query`, fetched without any client logic.
    private func rawBody(_ server: StandInServer, _ http: SourceHTTP, _ query: [(String, String)]) async throws -> Data
    {
        try await http.get(endpoint(server).url(query: query), source: .flickr, ttl: nil) {
            response throws(SourceError) in response.body
        }
    }

    /// Two records with known numbers, so every derived field has a value the test can spell out.
    private static let kite = FakeRecord(
        number: 52_345_677, title: "Red kite &amp; <i>sky</i>", tags: ["kite", "bird", "wildlife"],
        creator: "Ann Lee", width: 2000, height: 1500)
    private static let small = FakeRecord(
        number: 52_345_682, title: "", tags: [], creator: "Bo", width: 800, height: 600)

    @Test func firstPageSendsDocumentedParameters() async throws {
        let standIn = FlickrStandIn()
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("yellow flowers", in: .flickr, page: 1)

            #expect(page.items.count == 20)
            #expect(page.total == 45, "sent as the string \"45\"")
            #expect(page.hasMore)
            let request = try #require(standIn.state.requests.first)
            #expect(request.path == "/flickr/services/rest/")
            #expect(request["method"] == "flickr.photos.search")
            #expect(request["api_key"] == FlickrStandIn.apiKey)
            #expect(request["text"] == "yellow flowers")
            #expect(request["safe_search"] == "1")
            #expect(request["content_type"] == "1")
            #expect(request["media"] == "photos")
            #expect(request["sort"] == "relevance")
            #expect(
                request["extras"]
                    == "description,license,date_upload,date_taken,owner_name,icon_server,original_format,tags,"
                    + "o_dims,views,media,path_alias,url_sq,url_t,url_s,url_q,url_m,url_n,url_z,url_c,url_l,url_o")
            #expect(request["per_page"] == "20")
            #expect(request["page"] == "1")
            #expect(request["format"] == "json")
            #expect(request["nojsoncallback"] == "1")
            #expect(request.query.count == 12, "no parameters beyond the documented ones: \(request.query.keys)")
            #expect(page.items.map(\.id.source).allSatisfy { $0 == .flickr })
            #expect(Set(page.items.map(\.id)).count == 20)
        }
    }

    @Test func mapsEveryFieldOfAPhoto() async throws {
        let standIn = FlickrStandIn()
        standIn.state.corpus.set("kites", records: [Self.kite, Self.small])
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("kites", in: .flickr, page: 1)
            #expect(page.total == 2)
            #expect(!page.hasMore)
            let kite = try #require(page.items.first)
            let live = "\(server.origin)/flickr/live/2677/52345677_afb08fa1da"

            #expect(kite.id.description == "flickr:52345677")
            #expect(kite.kind == .image)
            #expect(kite.title == "Red kite & sky")
            #expect(kite.tags == ["kite", "bird", "wildlife"])
            #expect(kite.creator == Creator(name: "Ann Lee", url: "https://www.flickr.com/photos/62345677@N05/"))
            #expect(
                kite.license
                    == License(name: "Attribution License", url: "https://creativecommons.org/licenses/by/2.0/"))
            #expect(kite.pageURL == "https://www.flickr.com/photos/62345677@N05/52345677")
            #expect(
                kite.sizes == [
                    ImageSize(name: "url_q", url: "\(live)_q.jpg", width: 150, height: 150),
                    ImageSize(name: "url_z", url: "\(live)_z.jpg", width: 640, height: 480),
                    ImageSize(name: "url_l", url: "\(live)_b.jpg", width: 1024, height: 768),
                ])
            #expect(kite.thumbnail == ImageRef(url: "\(live)_z.jpg", width: 640, height: 480))
            #expect(kite.full == ImageRef(url: "\(live)_b.jpg", width: 1024, height: 768))
            #expect(
                kite.metadata == [
                    MetadataEntry("Description", "Red kite & sky by Ann Lee & friends"),
                    MetadataEntry("Date taken", "2017-06-04 12:34:56"),
                    MetadataEntry("Date uploaded", "2019-05-22T02:40:00Z"),
                    MetadataEntry("Views", "286"),
                    MetadataEntry("Original size", "2000 × 1500"),
                    MetadataEntry("Original format", "jpg"),
                    MetadataEntry("Licence ID", "4"),
                    MetadataEntry("Media", "photo"),
                    MetadataEntry("Owner ID", "62345677@N05"),
                    MetadataEntry("Tags", "kite, bird, wildlife"),
                ])

            let small = try #require(page.items.last)
            #expect(small.title == "Untitled")
            #expect(small.tags.isEmpty)
            #expect(small.creator == Creator(name: "Bo", url: "https://www.flickr.com/photos/creator4/"))
            #expect(small.license?.name == "Attribution-NonCommercial License")
            #expect(small.license?.url == "https://creativecommons.org/licenses/by-nc/2.0/")
            #expect(small.sizes.map(\.name) == ["url_q", "url_z"], "no 1024 px size for an 800 px original")
            #expect(small.metadata.contains(MetadataEntry("Views", "291")), "views sent as a string")
            #expect(small.metadata.contains(MetadataEntry("Path alias", "creator4")))
        }
    }

    @Test func lastPageAndEmptyResultHaveNoMore() async throws {
        let standIn = FlickrStandIn()
        standIn.state.corpus.set("qqqzzz", total: 0)
        try await withStandIn(standIn) { server, http in
            let last = try await client(server, http).search("cats", in: .flickr, page: 3)
            #expect(last.items.count == 5)
            #expect(last.total == 45)
            #expect(!last.hasMore)
            let empty = try await client(server, http).search("qqqzzz", in: .flickr, page: 1)
            #expect(empty == SourcePage(items: [], total: 0, hasMore: false))
        }
    }

    @Test func stopsAtTheFourThousandResultCap() async throws {
        let standIn = FlickrStandIn()
        standIn.state.corpus.set("sky", total: 9000)
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let before = try await source.search("sky", in: .flickr, page: 199)
            #expect(before.hasMore)
            let last = try await source.search("sky", in: .flickr, page: 200)
            #expect(last.items.count == 20)
            #expect(last.total == 9000)
            #expect(!last.hasMore, "Flickr reports 450 pages but serves only the first 4,000 results")
            let beyond = try await source.search("sky", in: .flickr, page: 201)
            #expect(beyond.items.isEmpty && !beyond.hasMore)
            #expect(standIn.state.requestCount == 2, "page 201 is past the cap and must not be requested")
        }
    }

    @Test func encodesSpacesAndNonASCII() async throws {
        let standIn = FlickrStandIn()
        try await withStandIn(standIn) { server, http in
            _ = try await client(server, http).search("red fox", in: .flickr, page: 1)
            _ = try await client(server, http).search("café & crème/+", in: .flickr, page: 1)
            let requests = standIn.state.requests
            #expect(requests.count == 2)
            #expect(requests.first?.rawQuery.contains("text=red%20fox&") == true)
            #expect(requests.last?["text"] == "café & crème/+")
            #expect(requests.last?.rawQuery.contains("text=caf%C3%A9%20%26%20cr%C3%A8me%2F%2B&") == true)
        }
    }

    @Test func invalidKeyNamesTheVariable() async throws {
        let standIn = FlickrStandIn()
        try await withStandIn(standIn) { server, http in
            let wrong = await sourceError {
                try await client(server, http, key: "wrong").search("x", in: .flickr, page: 1)
            }
            #expect(wrong == .invalidKey(.flickr, keyVariable: "FLICKR_API_KEY"))
            #expect(wrong?.message.contains("FLICKR_API_KEY") == true)
            standIn.state.behavior = .invalidKey
            let expired = await sourceError { try await client(server, http).search("x", in: .flickr, page: 1) }
            #expect(expired == .invalidKey(.flickr, keyVariable: "FLICKR_API_KEY"))
        }
    }

    @Test func rateLimitServerErrorAndMalformedBody() async throws {
        let standIn = FlickrStandIn()
        try await withStandIn(standIn) { server, http in
            standIn.state.behavior = .rateLimited(retryAfter: 42)
            let limited = await sourceError { try await client(server, http).search("x", in: .flickr, page: 1) }
            #expect(limited == .rateLimited(.flickr, retryAfter: 42))
            #expect(limited?.message.contains("42 s") == true)
            standIn.state.behavior = .serverError
            let error = await sourceError { try await client(server, http).search("x", in: .flickr, page: 1) }
            #expect(error == .serviceError(.flickr, status: 500, detail: nil))
            standIn.state.behavior = .malformed
            let bad = await sourceError { try await client(server, http).search("x", in: .flickr, page: 1) }
            #expect(bad?.code == "bad_response")
        }
    }

    /// A service that never answers ends in `timeout` (the time limit catches a hang; how long the timeout
    /// takes on a loaded machine is not this test's business).
    @Test(.timeLimit(.minutes(1))) func stallEndsInTimeout() async throws {
        let standIn = FlickrStandIn()
        standIn.state.behavior = .stall
        try await withStandIn(standIn, timeout: .milliseconds(300)) { server, http in
            let error = await sourceError { try await client(server, http).search("x", in: .flickr, page: 1) }
            #expect(error?.code == "timeout")
        }
    }

    @Test func missingKeyDisablesWithoutAnyRequest() async throws {
        let standIn = FlickrStandIn()
        try await withStandIn(standIn) { server, http in
            for key in [nil, ""] as [String?] {
                let source = client(server, http, key: key)
                #expect(source.availability == .disabled(reason: "set FLICKR_API_KEY to enable"))
                let error = await sourceError { try await source.search("x", in: .flickr, page: 1) }
                #expect(error == .disabled(.flickr, reason: "set FLICKR_API_KEY to enable"))
                _ = await sourceError { try await source.item(nativeID: "52345677") }
            }
            #expect(standIn.state.requestCount == 0)
        }
    }
}

// MARK: - getInfo, caching, and Flickr's own ways of answering

extension FlickrClientTests {
    @Test func itemByIDUsesGetInfo() async throws {
        let standIn = FlickrStandIn()
        standIn.state.corpus.set("kites", records: [Self.kite])
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let found = try await source.search("kites", in: .flickr, page: 1).items[0]
            let fetched = try await source.item(nativeID: "52345677")

            let request = try #require(standIn.state.requests.last)
            #expect(request["method"] == "flickr.photos.getInfo")
            #expect(request["photo_id"] == "52345677")
            #expect(request["api_key"] == FlickrStandIn.apiKey)
            #expect(request["format"] == "json" && request["nojsoncallback"] == "1")
            #expect(fetched.id == found.id)
            #expect(fetched.title == found.title)
            #expect(fetched.tags == found.tags)
            #expect(fetched.creator == found.creator)
            #expect(fetched.license == found.license)
            #expect(fetched.pageURL == found.pageURL)
            let live = "https://live.staticflickr.com/2677/52345677_afb08fa1da"
            #expect(fetched.sizes.map(\.url) == ["q", "n", "z", "b"].map { "\(live)_\($0).jpg" })
            #expect(fetched.sizes.map(\.name) == ["url_q", "url_n", "url_z", "url_l"])
            #expect(fetched.sizes.allSatisfy { $0.width == nil && $0.height == nil })
            #expect(fetched.full?.url == "\(live)_b.jpg")
            // getInfo has no o_dims but does have the owner's real name; the rest reads the same as search.
            #expect(
                fetched.metadata.filter { $0.label != "Real name" }
                    == found.metadata.filter { $0.label != "Original size" })
            #expect(fetched.metadata.contains(MetadataEntry("Real name", "Ann Lee Real")))
        }
    }

    @Test func unknownOrMalformedIDIsNotFound() async throws {
        let standIn = FlickrStandIn()
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let malformed = await sourceError { try await source.item(nativeID: "abc") }
            #expect(malformed == .notFound(.flickr, id: "abc"))
            #expect(standIn.state.requestCount == 0, "a non-numeric id is refused without asking Flickr")
            let missing = await sourceError { try await source.item(nativeID: "1") }
            #expect(missing == .notFound(.flickr, id: "1"))
            #expect(standIn.state.requests.last?["photo_id"] == "1")
        }
    }

    @Test func cachesAnswersForAnHourWithoutTheKey() async throws {
        let standIn = FlickrStandIn()
        let cache = MemoryResponseCache()
        let clock = TestClock()
        try await withStandIn(standIn, cache: cache, now: clock.now) { server, http in
            let source = client(server, http)
            _ = try await source.search("owls", in: .flickr, page: 1)
            _ = try await source.search("owls", in: .flickr, page: 1)
            #expect(standIn.state.requestCount == 1)
            #expect(await cache.keys.count == 1)
            #expect(await cache.keys.allSatisfy { !$0.contains(FlickrStandIn.apiKey) && !$0.contains("api_key") })
            clock.advance(by: 3600 + 1)
            _ = try await source.search("owls", in: .flickr, page: 1)
            #expect(standIn.state.requestCount == 2)
        }
    }

    @Test func jsonpWrappedAnswerDecodes() async throws {
        let standIn = FlickrStandIn()
        try await withStandIn(standIn) { server, http in
            let query = [
                ("method", "flickr.photos.search"), ("api_key", FlickrStandIn.apiKey), ("text", "moss"),
                ("per_page", "20"), ("format", "json"),
            ]
            let body = try await rawBody(server, http, query)
            let text = String(decoding: body, as: UTF8.self)
            #expect(text.hasPrefix("jsonFlickrApi({") && text.hasSuffix("})"))
            let page = try FlickrClient.searchPage(fromJSON: body, page: 1)
            #expect(page.items.count == 20)
            #expect(page.total == 45)
            #expect(page.hasMore)

            let named = try await rawBody(server, http, query + [("jsoncallback", "cb")])
            #expect(String(decoding: named, as: UTF8.self).hasPrefix("cb({"))
            #expect(try FlickrClient.searchPage(fromJSON: named, page: 1) == page)
        }
    }

    @Test func standInChecksRequestsAsFlickrDoes() async throws {
        let standIn = FlickrStandIn()
        standIn.state.corpus.set("sky", total: 1200)
        try await withStandIn(standIn) { server, http in
            let key = ("api_key", FlickrStandIn.apiKey)
            let json = [("format", "json"), ("nojsoncallback", "1")]
            func answer(_ query: [(String, String)]) async throws -> SourcePage {
                try FlickrClient.searchPage(fromJSON: try await rawBody(server, http, query + json), page: 1)
            }
            let bogus = await sourceError { try await answer([("method", "flickr.photos.bogus"), key]) }
            #expect(bogus == .rejected(.flickr, detail: "Method \"flickr.photos.bogus\" not found"))
            let noText = await sourceError { try await answer([("method", "flickr.photos.search"), key]) }
            let parameterless = "Parameterless searches have been disabled. Please use flickr.photos.getRecent instead."
            #expect(noText == .rejected(.flickr, detail: parameterless))
            let noKey = await sourceError { try await answer([("method", "flickr.photos.search"), ("text", "sky")]) }
            #expect(noKey == .invalidKey(.flickr, keyVariable: "FLICKR_API_KEY"))

            let search = [("method", "flickr.photos.search"), key, ("text", "sky")]
            let capped = try await rawBody(server, http, search + [("per_page", "900")] + json)
            let photos = try #require(
                (try JSONSerialization.jsonObject(with: capped) as? [String: Any])?["photos"] as? [String: Any])
            #expect(photos["perpage"] as? Int == 500)
            #expect(photos["pages"] as? Int == 3)
            #expect((photos["photo"] as? [Any])?.count == 500)

            let past = try await rawBody(server, http, search + [("per_page", "500"), ("page", "9")] + json)
            #expect(String(decoding: past, as: UTF8.self).contains(#""code":20"#))
            let end = try FlickrClient.searchPage(fromJSON: past, page: 9)
            #expect(end.items.isEmpty && !end.hasMore, "error 20 is the end of the results")
        }
    }

    @Test func flickrErrorCodesMapToSourceErrors() throws {
        func error(_ body: String) -> SourceError? {
            do {
                _ = try FlickrClient.searchPage(fromJSON: Data(body.utf8), page: 1)
                return nil
            } catch {
                return error
            }
        }
        let unavailable = "Sorry, the Flickr search API is not currently available."
        let expired = #"jsonFlickrApi({"stat":"fail","code":100,"message":"Invalid API Key (Key has expired)"});"#
        #expect(
            error(#"{"stat":"fail","code":105,"message":"Down"}"#)
                == .serviceError(.flickr, status: nil, detail: "Down"))
        let searchDown = error(#"{"stat":"fail","code":"10","message":"\#(unavailable)"}"#)
        #expect(searchDown == .serviceError(.flickr, status: nil, detail: unavailable))
        #expect(error(expired) == .invalidKey(.flickr, keyVariable: "FLICKR_API_KEY"))
        #expect(error(#"{"stat":"fail","code":18,"message":"Odd"}"#) == .rejected(.flickr, detail: "Odd"))
        #expect(error(#"{"stat":"ok"}"#)?.code == "bad_response")
        #expect(error("<html>Bad gateway</html>")?.code == "bad_response")
    }
}
