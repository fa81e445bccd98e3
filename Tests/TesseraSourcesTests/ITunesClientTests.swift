import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

@testable import TesseraSources

@Suite("iTunes client against its stand-in")
struct ITunesClientTests {
    private func client(_ server: StandInServer, _ http: SourceHTTP, country: String = "US") -> ITunesClient {
        ITunesClient(endpoint: Endpoint(base: URL(string: "\(server.origin)/itunes/")!), http: http, country: country)
    }

    @Test(arguments: [
        (SectionID.movies, "movie", "movie", ItemKind.movie),
        (SectionID.music, "music", "song", ItemKind.song),
        (SectionID.apps, "software", "software", ItemKind.app),
        (SectionID.books, "ebook", "ebook", ItemKind.book),
    ])
    func eachSectionAsksForItsMediaAndMapsItsKind(section: SectionID, media: String, entity: String, kind: ItemKind)
        async throws
    {
        let standIn = ITunesStandIn()
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("harbour lights", in: section, page: 1)

            let request = try #require(standIn.state.requests.first)
            #expect(standIn.state.requestCount == 1)
            #expect(request.path == "/itunes/search")
            #expect(request["media"] == media)
            #expect(request["entity"] == entity)
            #expect(page.items.count == 20)
            #expect(page.items.allSatisfy { $0.kind == kind && $0.source == .itunes })
            let record = FakeRecord.generated(query: "harbour lights", index: 0)
            #expect(page.items[0].id.description == "itunes:\(record.number)")
            #expect(page.items[0].title == record.title)
        }
    }

    @Test func sendsEveryParameterAndMapsAMovie() async throws {
        let standIn = ITunesStandIn()
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("Beyoncé live", in: .movies, page: 1)

            let request = try #require(standIn.state.requests.first)
            #expect(request.rawQuery.contains("term=Beyonc%C3%A9+live"))
            #expect(request["term"] == "Beyoncé live")
            #expect(request["country"] == "US")
            #expect(request["lang"] == "en_us")
            #expect(request["explicit"] == "No")
            #expect(request["limit"] == "20")
            #expect(page.total == nil, "45 results do not fit in a limit of 20, so the count is not exact")
            #expect(page.hasMore)

            let record = FakeRecord.generated(query: "Beyoncé live", index: 0)
            let n = record.number
            let movie = page.items[0]
            #expect(movie.kind == .movie)
            #expect(movie.creator?.name == record.creator)
            #expect(movie.license?.name == "Apple Media Services terms (preview courtesy of iTunes)")
            #expect(movie.license?.url == "https://www.apple.com/legal/internet-services/itunes/")
            #expect(movie.pageURL == "https://itunes.apple.com/us/movie/beyonc\u{e9}-live-1/id\(n)?uo=4")
            let names = ["artworkUrl30", "artworkUrl60", "artworkUrl100", "artwork600", "artwork1200"]
            #expect(movie.sizes.map(\.name) == names)
            #expect(movie.sizes.allSatisfy { $0.width == nil && $0.height == nil }, "posters are not square")
            #expect(movie.thumbnail?.url == "\(server.origin)/itunes/artwork/\(n)/600x600bb.jpg")
            #expect(movie.preview?.url == "\(server.origin)/itunes/artwork/\(n)/1200x1200bb.jpg")
            #expect(movie.full == movie.preview)
            #expect(movie.metadata.first == MetadataEntry("Price", "12.99 USD"))
            #expect(movie.metadata.contains(MetadataEntry("Rental price", "3.99 USD")))
            let seconds = (5_400_000 + n % 3_600_000 + 500) / 1000
            let duration = "\(seconds / 3600):" + String(format: "%02d:%02d", seconds / 60 % 60, seconds % 60)
            #expect(movie.metadata.contains(MetadataEntry("Duration", duration)))
            #expect(movie.metadata.contains(MetadataEntry("Country", "USA")))
            #expect(movie.metadata.contains(MetadataEntry("Content rating", ["G", "PG", "PG-13", "R"][n % 4])))
            let description = movie.metadata.first { $0.label == "Description" }?.value
            #expect(description?.hasPrefix("It is the 23rd century.") == true)
        }
    }

    @Test func mapsSongsAppsAndBooks() async throws {
        let standIn = ITunesStandIn()
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let record = FakeRecord.generated(query: "ocean", index: 0)
            let n = record.number

            let song = try await source.search("ocean", in: .music, page: 1).items[0]
            #expect(song.sizes.map(\.width) == [30, 60, 100, 600, 1200], "song artwork is square")
            #expect(song.thumbnail?.width == 600)
            #expect(song.tags == [["pop", "rock", "jazz"][n % 3]])
            #expect(song.metadata.contains(MetadataEntry("Album", "\(record.title) - Single")))
            #expect(song.metadata.contains(MetadataEntry("Track", "1 of 1")))
            #expect(song.metadata.contains(MetadataEntry("Price", "1.29 USD")))
            #expect(song.creator?.url?.hasPrefix("https://music.apple.com/us/artist/creator-0/") == true)

            let app = try await source.search("ocean", in: .apps, page: 1).items[0]
            let names = ["artworkUrl60", "artworkUrl100", "artworkUrl512", "artwork600", "artwork1200"]
            #expect(app.sizes.map(\.name) == names)
            #expect(app.sizes.map(\.width) == [60, 100, 512, 600, 1200])
            #expect(app.creator?.name == record.creator)
            #expect(app.tags.contains("ocean") && app.tags.contains("sample"))
            #expect(app.metadata.contains(MetadataEntry("File size", Format.bytes(record.width * record.height * 40))))
            #expect(app.metadata.contains(MetadataEntry("Average rating", "4.5")))
            #expect(app.metadata.contains(MetadataEntry("Seller", "\(record.creator) Ltd")))
            #expect(app.metadata.contains(MetadataEntry("Languages", "EN, DE")))
            #expect(app.metadata.contains(MetadataEntry("Price", n % 3 == 0 ? "$2.99" : "Free")))

            let book = try await source.search("ocean", in: .books, page: 1).items[0]
            #expect(book.sizes.allSatisfy { $0.width == nil }, "covers are not square")
            let genres = ["fiction & literature", "sci-fi & fantasy", "history", "cookbooks, food & wine"]
            #expect(book.tags.first == genres[n % 4])
            #expect(book.tags.contains("books"))
            #expect(
                book.metadata.contains(
                    MetadataEntry("Description", "Bold & more: the story of \(record.title) . A classic.")))
            #expect(book.pageURL == "https://books.apple.com/us/book/ocean-1/id\(n)?uo=4")
        }
    }

    @Test func pagesAreSlicesOfOneLongerAnswer() async throws {
        let standIn = ITunesStandIn()
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let second = try await source.search("kites", in: .music, page: 2)
            #expect(standIn.state.requests.last?["limit"] == "40")
            let expected = (20..<40).map { "itunes:\(FakeRecord.generated(query: "kites", index: $0).number)" }
            #expect(second.items.map(\.id.description) == expected)
            #expect(second.hasMore, "40 of 40 answered: there may be more")
            #expect(second.total == nil)

            let third = try await source.search("kites", in: .music, page: 3)
            #expect(standIn.state.requests.last?["limit"] == "60")
            #expect(third.items.count == 5)
            #expect(!third.hasMore)
            #expect(third.total == 45, "fewer than the limit came back, so the count is exact")
        }
    }

    @Test func stopsAtTheTwoHundredResultLimit() async throws {
        let standIn = ITunesStandIn()
        standIn.state.corpus.set("sky", total: 500)
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let tenth = try await source.search("sky", in: .apps, page: 10)
            #expect(standIn.state.requests.last?["limit"] == "200")
            #expect(tenth.items.count == 20)
            #expect(!tenth.hasMore, "Apple answers at most 200, so page 10 is the last")
            #expect(tenth.total == nil)
            let beyond = try await source.search("sky", in: .apps, page: 11)
            #expect(beyond.items.isEmpty && !beyond.hasMore)
            #expect(standIn.state.requestCount == 1, "page 11 is past the limit and must not be requested")
        }
    }

    @Test func emptyResult() async throws {
        let standIn = ITunesStandIn()
        standIn.state.corpus.set("qqqzzz", total: 0)
        try await withStandIn(standIn) { server, http in
            let page = try await client(server, http).search("qqqzzz", in: .books, page: 1)
            #expect(page.items.isEmpty)
            #expect(page.total == 0)
            #expect(!page.hasMore)
        }
    }

    @Test func wrongSectionIsRejectedWithoutARequest() async throws {
        let standIn = ITunesStandIn()
        try await withStandIn(standIn) { server, http in
            let error = await sourceError { try await client(server, http).search("x", in: .pixabay, page: 1) }
            #expect(error?.code == "source_rejected")
            #expect(error?.source == .itunes)
            #expect(standIn.state.requestCount == 0)
        }
    }

    @Test func forbiddenWithAnEmptyBodyIsThrottling() async throws {
        let standIn = ITunesStandIn()
        standIn.state.behavior = .rateLimited(retryAfter: nil)
        try await withStandIn(standIn) { server, http in
            let error = await sourceError { try await client(server, http).search("x", in: .music, page: 1) }
            #expect(error == .rateLimited(.itunes, retryAfter: nil))
        }
    }

    @Test func tooManyRequestsCarriesRetryAfter() async throws {
        let standIn = ITunesStandIn()
        standIn.state.behavior = .rateLimited(retryAfter: 42)
        try await withStandIn(standIn) { server, http in
            let error = await sourceError { try await client(server, http).search("x", in: .music, page: 1) }
            #expect(error == .rateLimited(.itunes, retryAfter: 42))
            #expect(error?.message.contains("42 s") == true)
        }
    }

    @Test func serverErrorAndMalformedBody() async throws {
        let standIn = ITunesStandIn()
        try await withStandIn(standIn) { server, http in
            standIn.state.behavior = .serverError
            let error = await sourceError { try await client(server, http).search("x", in: .apps, page: 1) }
            #expect(error == .serviceError(.itunes, status: 500, detail: nil))
            standIn.state.behavior = .malformed
            let bad = await sourceError { try await client(server, http).search("x", in: .apps, page: 1) }
            #expect(bad?.code == "bad_response")
        }
    }

    /// A service that never answers ends in `timeout` (the time limit catches a hang; how long the timeout
    /// takes on a loaded machine is not this test's business).
    @Test(.timeLimit(.minutes(1))) func stallEndsInTimeout() async throws {
        let standIn = ITunesStandIn()
        standIn.state.behavior = .stall
        try await withStandIn(standIn, timeout: .milliseconds(300)) { server, http in
            let error = await sourceError { try await client(server, http).search("x", in: .movies, page: 1) }
            #expect(error?.code == "timeout")
        }
    }

    @Test func errorMessageBecomesTheRejection() async throws {
        let standIn = ITunesStandIn()
        try await withStandIn(standIn) { server, http in
            let error = await sourceError {
                try await client(server, http, country: "XX").search("x", in: .music, page: 1)
            }
            #expect(error == .rejected(.itunes, detail: "Invalid value(s) for key(s): [country]"))
        }
    }

    @Test func itemByID() async throws {
        let standIn = ITunesStandIn()
        try await withStandIn(standIn) { server, http in
            let source = client(server, http)
            let first = try await source.search("tulips", in: .books, page: 1).items[0]
            let fetched = try await source.item(nativeID: first.id.nativeID)
            #expect(fetched == first)
            let lookup = try #require(standIn.state.requests.last)
            #expect(lookup.path == "/itunes/lookup")
            #expect(lookup["id"] == first.id.nativeID)
            #expect(lookup["country"] == "US")

            let missing = await sourceError { try await source.item(nativeID: "1") }
            #expect(missing == .notFound(.itunes, id: "1"))
            let count = standIn.state.requestCount
            let odd = await sourceError { try await source.item(nativeID: "abc") }
            #expect(odd == .notFound(.itunes, id: "abc"))
            #expect(standIn.state.requestCount == count, "a non-numeric id is never sent")
        }
    }

    @Test func readsJavaScriptAnswersThatStartWithBlankLines() async throws {
        let standIn = ITunesStandIn()
        try await withStandIn(standIn) { server, http in
            let url = URL(string: "\(server.origin)/itunes/search?term=owls&media=music&limit=3")!
            let raw = try await http.get(url, source: .itunes, ttl: nil) { $0 }
            #expect(raw.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(raw.body.starts(with: Data("\n\n\n{".utf8)))

            let page = try await client(server, http).search("owls", in: .music, page: 1)
            #expect(page.items.count == 20)
        }
    }

    @Test func standInChecksParametersAsAppleDoes() async throws {
        let standIn = ITunesStandIn()
        standIn.state.corpus.set("many", total: 300)
        try await withStandIn(standIn) { server, http in
            func fetch(_ query: String) async throws -> SourceHTTP.Response {
                try await http.get(URL(string: "\(server.origin)/itunes/search?\(query)")!, source: .itunes, ttl: nil) {
                    $0
                }
            }
            for (query, key) in [
                ("media=music", "term"), ("term=a&country=uk", "country"), ("term=a&media=film", "mediaType"),
                ("term=a&media=movie&entity=song", "resultEntity"),
            ] {
                let answer = try await fetch(query)
                #expect(answer.status == 400)
                #expect(answer.bodyText.contains("Invalid value(s) for key(s): [\(key)]"), "\(query)")
            }
            #expect(try await fetch("term=a&media=film").bodyText.contains("queryParameters"))
            #expect(try await fetch("term=a&country=gb&media=ebook&entity=ebook").status == 200)
            let clamped = try await fetch("term=many&limit=500")
            let count = try JSONSerialization.jsonObject(with: clamped.body) as? [String: Any]
            #expect(count?["resultCount"] as? Int == 200, "a limit over 200 is clamped")
        }
    }

    @Test func cachesAnswersForAnHour() async throws {
        let standIn = ITunesStandIn()
        let cache = MemoryResponseCache()
        let clock = TestClock()
        try await withStandIn(standIn, cache: cache, now: clock.now) { server, http in
            let source = client(server, http)
            _ = try await source.search("owls", in: .music, page: 1)
            _ = try await source.search("owls", in: .music, page: 1)
            #expect(standIn.state.requestCount == 1)
            clock.advance(by: 3600 + 1)
            _ = try await source.search("owls", in: .music, page: 1)
            #expect(standIn.state.requestCount == 2)
        }
    }
}
