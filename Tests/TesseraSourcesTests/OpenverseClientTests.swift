import AsyncHTTPClient
import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

@testable import TesseraSources

@Suite("Openverse client against its stand-in")
struct OpenverseClientTests {
    private func client(_ server: StandInServer, _ http: SourceHTTP) -> OpenverseClient {
        OpenverseClient(endpoint: Endpoint(base: URL(string: "\(server.origin)/openverse/v1/")!), http: http)
    }

    @Test func firstPageSendsAnonymousParametersAndMapsItems() async throws {
        let standIn = OpenverseStandIn()
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("yellow flowers", in: .openverse, page: 1)

            #expect(page.items.count == 20)
            #expect(page.total == 45)
            #expect(page.hasMore)
            let request = try #require(standIn.state.requests.first)
            #expect(request.path == "/openverse/v1/images/")
            #expect(request.query == ["q": "yellow flowers", "page": "1", "page_size": "20", "mature": "false"])
            #expect(request.rawQuery.contains("q=yellow%20flowers"))
            #expect(request.headers["authorization"] == nil, "anonymous: no credentials")

            let record = FakeRecord.generated(query: "yellow flowers", index: 0)
            let item = page.items[0]
            #expect(item.id == ItemID(source: .openverse, nativeID: record.uuid))
            #expect(item.kind == .image)
            #expect(item.title == "yellow flowers 1")
            #expect(item.tags == ["yellow", "flowers", "red", "sample"], "the machine tag repeats a human one")
            #expect(item.creator == Creator(name: "Creator 0", url: "https://www.flickr.com/photos/Creator_0"))
            #expect(item.pageURL == "https://www.flickr.com/photos/Creator_0/\(record.number)")
            let thumb = "\(server.origin)/openverse/v1/images/\(record.uuid)/thumb/"
            let original = "\(server.origin)/openverse/cdn/\(record.uuid).jpg"
            #expect(
                item.sizes == [
                    ImageSize(name: "thumbnail", url: thumb),
                    ImageSize(name: "original", url: original, width: 1600, height: 1200),
                ])
            #expect(item.thumbnail == ImageRef(url: thumb))
            #expect(item.preview == ImageRef(url: original, width: 1600, height: 1200))
            #expect(item.full == item.preview)
            #expect(item.metadata.contains(MetadataEntry("File size", "480 KB")))
            #expect(item.metadata.contains(MetadataEntry("Original size", "1600 × 1200")))
            #expect(item.metadata.contains(MetadataEntry("Provider", "flickr")))
            #expect(item.metadata.contains(MetadataEntry("Category", "photograph")))
            #expect(item.metadata.contains(MetadataEntry("Fields matched", "title")))
            #expect(item.metadata.contains(MetadataEntry("Mature", "no")))
            #expect(item.metadata.contains(MetadataEntry("Machine tags", "yellow")))
            #expect(item.metadata.contains { $0.label == "Attribution" && $0.value.contains("Creator 0") })
            #expect(item.metadata.map(\.label).prefix(3) == ["Attribution", "Provider", "Source"])
        }
    }

    @Test func licenceNamesFollowOpenverse() async throws {
        let standIn = OpenverseStandIn()
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("rivers", in: .openverse, page: 1)
            // The stand-in rotates six licences by record number; twenty records cover them all.
            let names = Dictionary(page.items.compactMap { $0.license.map { ($0.name, $0.url) } }) { first, _ in first }
            #expect(
                names == [
                    "CC BY 2.0": "https://creativecommons.org/licenses/by/2.0/",
                    "CC BY-SA 4.0": "https://creativecommons.org/licenses/by-sa/4.0/",
                    "CC0 1.0": "https://creativecommons.org/publicdomain/zero/1.0/",
                    "Public Domain Mark 1.0": "https://creativecommons.org/publicdomain/mark/1.0/",
                    "CC BY-NC-ND 3.0": "https://creativecommons.org/licenses/by-nc-nd/3.0/",
                    "CC Sampling+ 1.0": "https://creativecommons.org/licenses/sampling+/1.0/",
                ])
            let codes = page.items.compactMap { $0.metadata.first { $0.label == "License code" }?.value }
            #expect(codes.count == 20 && codes.contains("by-nc-nd 3.0") && codes.contains("cc0 1.0"))
        }
    }

    @Test func nullFieldsDecodeAndFallBack() async throws {
        let standIn = OpenverseStandIn()
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("yellow flowers", in: .openverse, page: 1)
            #expect(page.items.count == 20, "records with nulls must not be dropped")
            // Every fifth record has a null title, creator_url, filesize and category.
            let sparse = page.items[4]
            #expect(sparse.title == "Untitled")
            #expect(sparse.creator == Creator(name: "Creator 4", url: nil))
            #expect(!sparse.metadata.contains { $0.label == "File size" || $0.label == "Category" })
            #expect(sparse.metadata.contains(MetadataEntry("Original size", "1600 × 1200")))
        }
    }

    @Test func lastPageHasNoMore() async throws {
        let standIn = OpenverseStandIn()
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("cats", in: .openverse, page: 3)
            #expect(page.items.count == 5)
            #expect(page.total == 45)
            #expect(!page.hasMore)
        }
    }

    @Test func aPagePastTheEndIsEmptyNotAnError() async throws {
        let standIn = OpenverseStandIn()
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("cats", in: .openverse, page: 4)
            #expect(page.items.isEmpty && !page.hasMore)
            #expect(standIn.state.requestCount == 1)
        }
    }

    @Test func anonymousCallersStopAtPageTwenty() async throws {
        let standIn = OpenverseStandIn()
        standIn.state.corpus.set("sky", total: 900)
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let nineteen = try await source.search("sky", in: .openverse, page: 19)
            #expect(nineteen.hasMore)
            let last = try await source.search("sky", in: .openverse, page: 20)
            #expect(last.items.count == 20)
            #expect(last.total == 900)
            #expect(!last.hasMore, "page_count is 45, but anonymous callers get 20 pages")
            let beyond = try await source.search("sky", in: .openverse, page: 21)
            #expect(beyond.items.isEmpty && !beyond.hasMore)
            #expect(standIn.state.requestCount == 2, "page 21 is past the cap and must not be requested")
        }
    }

    @Test func emptyResult() async throws {
        let standIn = OpenverseStandIn()
        standIn.state.corpus.set("qqqzzz", total: 0)
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("qqqzzz", in: .openverse, page: 1)
            #expect(page.items.isEmpty)
            #expect(page.total == 0)
            #expect(!page.hasMore)
        }
    }

    @Test func encodesNonASCIIAndReservedCharacters() async throws {
        let standIn = OpenverseStandIn()
        try await withStandIn(standIn) { server, http in
            _ = try await client(server, http).search("café & crème/+", in: .openverse, page: 1)
            let request = try #require(standIn.state.requests.first)
            #expect(request["q"] == "café & crème/+")
            #expect(request.rawQuery.contains("q=caf%C3%A9%20%26%20cr%C3%A8me%2F%2B"))
        }
    }

    @Test func authenticationAnswerIsARejection() async throws {
        let standIn = OpenverseStandIn()
        standIn.state.behavior = .invalidKey
        try await withStandIn(standIn) { server, http in
            let error = await sourceError { try await client(server, http).search("x", in: .openverse, page: 1) }
            #expect(error == .rejected(.openverse, detail: "Authentication credentials were not provided."))
        }
    }

    @Test func rateLimitCarriesRetryAfter() async throws {
        let standIn = OpenverseStandIn()
        standIn.state.behavior = .rateLimited(retryAfter: 42)
        try await withStandIn(standIn) { server, http in
            let error = await sourceError { try await client(server, http).search("x", in: .openverse, page: 1) }
            #expect(error == .rateLimited(.openverse, retryAfter: 42))
            #expect(error?.message.contains("42 s") == true)
        }
    }

    @Test func rateLimitWithoutTheHeaderReadsTheWaitFromTheMessage() async throws {
        let standIn = OpenverseStandIn(sendsRetryAfterHeader: false)
        standIn.state.behavior = .rateLimited(retryAfter: 917)
        try await withStandIn(standIn) { server, http in
            let id = FakeRecord.generated(query: "x", index: 0).uuid
            let error = await sourceError { try await client(server, http).item(nativeID: id) }
            #expect(error == .rateLimited(.openverse, retryAfter: 917), "from \"Expected available in 917 seconds.\"")
        }
    }

    @Test func serverErrorAndMalformedBody() async throws {
        let standIn = OpenverseStandIn()
        try await withStandIn(standIn) { server, http in
            standIn.state.behavior = .serverError
            let error = await sourceError { try await client(server, http).search("x", in: .openverse, page: 1) }
            #expect(error == .serviceError(.openverse, status: 500, detail: nil))
            standIn.state.behavior = .malformed
            let bad = await sourceError { try await client(server, http).search("x", in: .openverse, page: 1) }
            #expect(bad?.code == "bad_response")
        }
    }

    /// A service that never answers ends in `timeout` (the time limit catches a hang; how long the timeout
    /// takes on a loaded machine is not this test's business).
    @Test(.timeLimit(.minutes(1))) func stallEndsInTimeout() async throws {
        let standIn = OpenverseStandIn()
        standIn.state.behavior = .stall
        try await withStandIn(standIn, timeout: .milliseconds(300)) { server, http in
            let error = await sourceError { try await client(server, http).search("x", in: .openverse, page: 1) }
            #expect(error?.code == "timeout" && error?.source == .openverse)
        }
    }

    @Test func itemByIDAndNotFound() async throws {
        let standIn = OpenverseStandIn()
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let first = try await source.search("tulips", in: .openverse, page: 1).items[0]
            let fetched = try await source.item(nativeID: first.id.nativeID)
            #expect(fetched == first)
            #expect(standIn.state.requests.last?.path == "/openverse/v1/images/\(first.id.nativeID)/")

            let unknown = "4bc43a04-ef46-4544-a0c1-000000000001"
            let missing = await sourceError { try await source.item(nativeID: unknown) }
            #expect(missing == .notFound(.openverse, id: unknown))
            let count = standIn.state.requestCount
            for bad in ["not-a-uuid", "stats", "4bc43a04-ef46-4544-a0c1-63c63f56e27", "../images/x"] {
                #expect(await sourceError { try await source.item(nativeID: bad) } == .notFound(.openverse, id: bad))
            }
            #expect(standIn.state.requestCount == count, "ids that are not UUIDs are never sent")
        }
    }

    @Test func cachesAnswersForADay() async throws {
        let standIn = OpenverseStandIn()
        let cache = MemoryResponseCache()
        let clock = TestClock()
        try await withStandIn(standIn, cache: cache, now: clock.now) { server, http in
            let source = client(server, http)
            _ = try await source.search("owls", in: .openverse, page: 1)
            clock.advance(by: 23 * 3600)
            _ = try await source.search("owls", in: .openverse, page: 1)
            #expect(standIn.state.requestCount == 1)
            clock.advance(by: 3600 + 1)
            _ = try await source.search("owls", in: .openverse, page: 1)
            #expect(standIn.state.requestCount == 2)
        }
    }

    /// The stand-in must refuse what Openverse refuses, or client bugs would pass unnoticed.
    @Test func standInEnforcesAnonymousLimits() async throws {
        let standIn = OpenverseStandIn()
        try await withStandIn(standIn) { server, _ in
            func get(_ query: String) async throws -> (Int, String) {
                let response = try await HTTPClient.shared.execute(
                    HTTPClientRequest(url: "\(server.origin)/openverse/v1/images/?\(query)"), timeout: .seconds(5))
                let body = try await response.body.collect(upTo: 1 << 20)
                return (Int(response.status.code), String(decoding: body.readableBytesView, as: UTF8.self))
            }
            let tooBig = try await get("q=a&page_size=21")
            #expect(tooBig.0 == 401 && tooBig.1.contains("less than or equal to 20"))
            let tooDeep = try await get("q=a&page=21")
            #expect(tooDeep.0 == 400 && tooDeep.1.contains("\"page\""))
            let deprecated = try await get("q=a&li=by")
            #expect(deprecated.0 == 400 && deprecated.1.contains("Parameter 'li' is deprecated"))
        }
    }

    // MARK: - Decoding real answers

    /// The official example (`api/api/examples/image_responses.py`), plus a record as the `related`
    /// endpoint serialises it (fields left out) and one with every nullable field null.
    static let realisticAnswer = #"""
        {"result_count": 10000, "page_count": 500, "page_size": 20, "page": 1, "warnings": [],
         "results": [{
          "id": "4bc43a04-ef46-4544-a0c1-63c63f56e276", "title": "Tree Bark Photo",
          "indexed_on": "2022-08-27T17:39:48Z", "foreign_landing_url": "https://stocksnap.io/photo/XNVBVXO3B7",
          "url": "https://cdn.stocksnap.io/img-thumbs/960w/XNVBVXO3B7.jpg",
          "creator": "Tim Sullivan", "creator_url": "https://www.secretagencygroup.com",
          "license": "cc0", "license_version": "1.0",
          "license_url": "https://creativecommons.org/publicdomain/zero/1.0/",
          "provider": "stocksnap", "source": "stocksnap", "category": "photograph",
          "filesize": 896128, "filetype": "jpg",
          "tags": [{"accuracy": null, "name": "tree", "unstable__provider": "stocksnap"},
                   {"accuracy": null, "name": "bark", "unstable__provider": "stocksnap"},
                   {"accuracy": 0.95, "name": "tree", "unstable__provider": "machine_example"},
                   {"accuracy": 0.98, "name": "plant", "unstable__provider": "machine_example"}],
          "attribution": "\"Tree Bark Photo\" by Tim Sullivan is marked with CC0 1.0. \#
        To view the terms, visit https://creativecommons.org/publicdomain/zero/1.0/.",
          "fields_matched": ["title"], "mature": false, "height": 4016, "width": 6016,
          "thumbnail": "https://api.openverse.org/v1/images/4bc43a04-ef46-4544-a0c1-63c63f56e276/thumb/",
          "detail_url": "https://api.openverse.org/v1/images/4bc43a04-ef46-4544-a0c1-63c63f56e276/",
          "related_url": "https://api.openverse.org/v1/images/4bc43a04-ef46-4544-a0c1-63c63f56e276/related/",
          "unstable__sensitivity": [], "unstable__new_field": {"anything": 1}
         }, {
          "title": "exam tactics", "id": "610756ec-ae31-4d5e-8f03-8cc52f31b71d",
          "creator": "Sean MacEntee", "creator_url": "https://www.flickr.com/photos/18090920@N07",
          "tags": [{"name": "exam"}, {"name": "tactics"}],
          "url": "https://live.staticflickr.com/4065/4459771899_07595dc42e.jpg",
          "thumbnail": "https://api.openverse.org/v1/thumbs/610756ec-ae31-4d5e-8f03-8cc52f31b71d",
          "provider": "flickr", "source": "flickr", "license": "by", "license_version": "2.0",
          "license_url": "https://creativecommons.org/licenses/by/2.0/",
          "foreign_landing_url": "https://www.flickr.com/photos/18090920@N07/4459771899"
         }, {
          "id": "0aff3595-8168-440b-83ff-7a80b65dea42", "title": null, "indexed_on": "2020-04-29T09:17:42Z",
          "foreign_landing_url": null, "url": null, "creator": null, "creator_url": null,
          "license": "pdm", "license_version": null,
          "license_url": "https://creativecommons.org/publicdomain/mark/1.0/",
          "provider": null, "source": "wikimedia", "category": null, "filesize": null, "filetype": null,
          "tags": [], "attribution": null, "fields_matched": [], "mature": true, "height": null, "width": null,
          "thumbnail": "https://api.openverse.org/v1/images/0aff3595-8168-440b-83ff-7a80b65dea42/thumb/",
          "detail_url": null, "related_url": null, "unstable__sensitivity": ["user_reported_sensitive"]
         }, {"title": "no id: skipped, not fatal"}]}
        """#

    @Test func decodesTheOfficialExampleAndSparseRecords() throws {
        let response = SourceHTTP.Response(status: 200, headers: [], body: Data(Self.realisticAnswer.utf8))
        let wire = try response.decode(OpenverseWire.SearchResponse.self, source: .openverse)
        let page = OpenverseClient.page(wire, page: 20)
        #expect(page.items.count == 3)
        #expect(page.total == 10000)
        #expect(!page.hasMore, "page 20 is the last an anonymous caller may ask for")

        let bark = page.items[0]
        #expect(bark.id.description == "openverse:4bc43a04-ef46-4544-a0c1-63c63f56e276")
        #expect(bark.title == "Tree Bark Photo")
        #expect(bark.tags == ["tree", "bark", "plant"])
        #expect(bark.creator == Creator(name: "Tim Sullivan", url: "https://www.secretagencygroup.com"))
        #expect(bark.license == License(name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/"))
        #expect(bark.pageURL == "https://stocksnap.io/photo/XNVBVXO3B7")
        let cdn = "https://cdn.stocksnap.io/img-thumbs/960w/XNVBVXO3B7.jpg"
        #expect(bark.full == ImageRef(url: cdn, width: 6016, height: 4016))
        #expect(bark.metadata.contains { $0.label == "Attribution" && $0.value.hasPrefix("\"Tree Bark Photo\" by") })
        #expect(bark.metadata.contains(MetadataEntry("File size", "896 KB")))
        #expect(bark.metadata.contains(MetadataEntry("Indexed on", "2022-08-27T17:39:48Z")))
        #expect(bark.metadata.contains(MetadataEntry("Machine tags", "tree, plant")))

        let related = page.items[1]
        #expect(related.license?.name == "CC BY 2.0")
        #expect(related.tags == ["exam", "tactics"])
        #expect(related.full?.width == nil)

        let sparse = page.items[2]
        #expect(sparse.title == "Untitled")
        #expect(sparse.creator == nil && sparse.pageURL == nil)
        #expect(sparse.license?.name == "Public Domain Mark 1.0")
        #expect(sparse.sizes.map(\.name) == ["thumbnail"])
        #expect(sparse.full == sparse.thumbnail && sparse.preview == sparse.thumbnail)
        #expect(sparse.metadata.contains(MetadataEntry("Sensitivity", "user_reported_sensitive")))
        #expect(sparse.metadata.contains(MetadataEntry("Mature", "yes")))
    }

    @Test func errorBodiesOfEveryShapeReadAsMessages() {
        func failure(_ status: Int, _ body: String, headers: [(String, String)] = []) -> SourceError? {
            OpenverseClient.failure(SourceHTTP.Response(status: status, headers: headers, body: Data(body.utf8)))
        }
        #expect(
            failure(400, #"{"detail": {"license": ["License 'xyz' does not exist."]}}"#)
                == .rejected(.openverse, detail: "license: License 'xyz' does not exist."))
        let message = "Invalid input given for fields. 'license' -> License 'PDMNBCG' does not exist."
        let older = #"{"error":"InputError","detail":"\#(message)","fields":["license"]}"#
        #expect(failure(400, older) == .rejected(.openverse, detail: message))
        #expect(
            failure(401, #"{"detail": "Ensure this value is less than or equal to 20."}"#)
                == .rejected(.openverse, detail: "Ensure this value is less than or equal to 20."))
        #expect(
            failure(429, #"{"detail": "Request was throttled. Expected available in 1 second."}"#)
                == .rateLimited(.openverse, retryAfter: 1))
        #expect(
            failure(429, #"{"detail": "Request was throttled."}"#, headers: [("Retry-After", "60")])
                == .rateLimited(.openverse, retryAfter: 60))
        #expect(failure(403, "<html>Forbidden</html>") == .rejected(.openverse, detail: "HTTP 403"))
        #expect(failure(503, "") == .serviceError(.openverse, status: 503, detail: nil))
        #expect(failure(200, "{}") == nil)
    }

    @Test func licenceNames() {
        #expect(OpenverseClient.licenseName("by-sa", version: "4.0") == "CC BY-SA 4.0")
        #expect(OpenverseClient.licenseName("by", version: nil) == "CC BY")
        #expect(OpenverseClient.licenseName("cc0", version: nil) == "CC0 1.0")
        #expect(OpenverseClient.licenseName("pdm", version: "") == "Public Domain Mark 1.0")
        #expect(OpenverseClient.licenseName("nc-sampling+", version: "3.0") == "CC NC-Sampling+ 1.0")
        #expect(OpenverseClient.licenseName("BY-NC", version: "2.5") == "CC BY-NC 2.5")
    }
}
