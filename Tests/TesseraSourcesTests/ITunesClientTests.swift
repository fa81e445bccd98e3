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

    @Test func decodesRealisticRecords() throws {
        let envelope = try JSONDecoder().decode(ITunesWire.Envelope.self, from: Data(Self.recorded.utf8))
        #expect(envelope.resultCount == 7)
        let results = try #require(envelope.results)
        #expect(results.count == 7)
        let records = results.decoded()
        #expect(records.count == 6, "the record that is not an object is skipped")
        let items = records.compactMap { ITunesClient.item($0, fallback: .movie) }
        #expect(items.count == 5, "the artist record has no track or collection id")

        let movie = items[0]
        #expect(movie.id.description == "itunes:208510932")
        #expect(movie.kind == .movie)
        #expect(movie.title == "Star Trek II: The Wrath of Khan")
        #expect(movie.creator == Creator(name: "Nicholas Meyer"))
        #expect(movie.tags == ["sci-fi & fantasy"])
        #expect(movie.thumbnail?.url.hasSuffix("/pr_source.lsr/600x600bb.jpg") == true)
        #expect(movie.thumbnail?.width == nil)
        let labels = movie.metadata.map(\.label)
        #expect(labels.prefix(6) == ["Price", "Rental price", "HD price", "HD rental price", "Released", "Duration"])
        #expect(movie.metadata.contains(MetadataEntry("Duration", "1:53:14")))
        #expect(movie.metadata.contains(MetadataEntry("Released", "1982-06-04")))
        #expect(movie.metadata.contains(MetadataEntry("HD price", "14.99 USD")))
        #expect(movie.metadata.contains(MetadataEntry("iTunes Extras", "yes")))

        let song = items[1]
        #expect(song.id.nativeID == "120954025")
        #expect(song.kind == .song)
        #expect(song.pageURL == "https://music.apple.com/us/album/upside-down/120954021?i=120954025&uo=4")
        #expect(song.metadata.contains(MetadataEntry("Track", "1 of 14")))
        #expect(song.metadata.contains(MetadataEntry("Explicitness", "Not explicit")))
        #expect(song.metadata.contains(MetadataEntry("Album price", "10.99 USD")))
        #expect(song.full?.width == 1200)

        let album = items[2]
        #expect(album.id.nativeID == "1440857781")
        #expect(album.kind == .album)
        #expect(album.title == "In Between Dreams (Bonus Track Version)")
        #expect(album.pageURL == "https://music.apple.com/us/album/in-between-dreams/1440857781?uo=4")
        #expect(album.metadata.contains(MetadataEntry("Price", "9.99 USD")))
        #expect(album.metadata.contains(MetadataEntry("Tracks", "16")))
        #expect(album.metadata.contains(MetadataEntry("Copyright", "℗ 2005 Jack Johnson")))

        let app = items[3]
        #expect(app.kind == .app)
        let developer = "https://apps.apple.com/us/developer/apple/id284417353?uo=4"
        #expect(app.creator == Creator(name: "Apple", url: developer))
        #expect(app.tags == ["entertainment", "music"])
        #expect(app.metadata.contains(MetadataEntry("File size", "22.0 MB")), "fileSizeBytes arrives as a string")
        #expect(app.metadata.contains(MetadataEntry("Price", "Free")))
        #expect(app.metadata.contains(MetadataEntry("Average rating", "3.4")))
        #expect(app.sizes.last?.url.hasSuffix("/1200x1200bb.png") == true)

        let unnamed = items[4]
        #expect(unnamed.kind == .movie, "kind null: the section decides")
        #expect(unnamed.id.nativeID == "1001")
        #expect(unnamed.metadata.contains(MetadataEntry("Price", "4.99 USD")), "a price sent as a string still reads")
        #expect(ITunesClient.item(records[4], fallback: .song)?.kind == .song)
        #expect(ITunesClient.item(records[4], fallback: nil)?.kind == .movie, "a lookup guesses video for kind null")
    }

    /// Real-shaped answer: a recorded Star Trek movie record, a song and an album (no `kind`) as
    /// Apple sends them, an App Store record (`fileSizeBytes` as a string), a record with `kind: null`,
    /// an artist record, and one element that is not a record at all.
    static let recorded = """


        {"resultCount": 7, "results": [
        {"wrapperType": "track", "kind": "feature-movie", "collectionId": 1562034578, "trackId": 208510932,
         "artistName": "Nicholas Meyer", "trackName": "Star Trek II: The Wrath of Khan",
         "trackCensoredName": "Star Trek II: The Wrath of Khan",
         "trackViewUrl": "https://itunes.apple.com/us/movie/star-trek-ii-the-wrath-of-khan/id208510932?uo=4",
         "previewUrl": "https://video-ssl.itunes.apple.com/itunes-assets/Video128/v4/a7/mzvf_62.640x478.h264lc.U.p.m4v",
         "artworkUrl30": "https://is3-ssl.mzstatic.com/image/thumb/Video125/v4/03/5f/2f/pr_source.lsr/30x30bb.jpg",
         "artworkUrl60": "https://is3-ssl.mzstatic.com/image/thumb/Video125/v4/03/5f/2f/pr_source.lsr/60x60bb.jpg",
         "artworkUrl100": "https://is3-ssl.mzstatic.com/image/thumb/Video125/v4/03/5f/2f/pr_source.lsr/100x100bb.jpg",
         "collectionPrice": 12.99, "trackPrice": 12.99, "trackRentalPrice": 3.99,
         "collectionHdPrice": 14.99, "trackHdPrice": 14.99, "trackHdRentalPrice": 3.99,
         "releaseDate": "1982-06-04T07:00:00Z", "collectionExplicitness": "notExplicit",
         "trackExplicitness": "notExplicit", "trackTimeMillis": 6793995,
         "country": "USA", "currency": "USD", "primaryGenreName": "Sci-Fi & Fantasy",
         "contentAdvisoryRating": "PG", "longDescription": "It is the 23rd century...", "hasITunesExtras": true},
        {"wrapperType": "track", "kind": "song", "artistId": 909253, "collectionId": 120954021, "trackId": 120954025,
         "artistName": "Jack Johnson", "collectionName": "Sing-a-Longs and Lullabies for the Film Curious George",
         "trackName": "Upside Down", "collectionCensoredName": "Sing-a-Longs and Lullabies for the Film Curious George",
         "trackCensoredName": "Upside Down",
         "artistViewUrl": "https://music.apple.com/us/artist/jack-johnson/909253?uo=4",
         "collectionViewUrl": "https://music.apple.com/us/album/upside-down/120954021?i=120954025&uo=4",
         "trackViewUrl": "https://music.apple.com/us/album/upside-down/120954021?i=120954025&uo=4",
         "previewUrl": "https://audio-ssl.itunes.apple.com/itunes-assets/AudioPreview125/v4/mzaf_1.plus.aac.p.m4a",
         "artworkUrl30": "https://is1-ssl.mzstatic.com/image/thumb/Music/v4/f6/a3/Source/30x30bb.jpg",
         "artworkUrl60": "https://is1-ssl.mzstatic.com/image/thumb/Music/v4/f6/a3/Source/60x60bb.jpg",
         "artworkUrl100": "https://is1-ssl.mzstatic.com/image/thumb/Music/v4/f6/a3/Source/100x100bb.jpg",
         "collectionPrice": 10.99, "trackPrice": 1.29, "releaseDate": "2005-01-01T12:00:00Z",
         "collectionExplicitness": "notExplicit", "trackExplicitness": "notExplicit", "discCount": 1,
         "discNumber": 1, "trackCount": 14, "trackNumber": 1, "trackTimeMillis": 208643, "country": "USA",
         "currency": "USD", "primaryGenreName": "Rock", "isStreamable": true},
        {"wrapperType": "collection", "collectionType": "Album", "artistId": 909253, "collectionId": 1440857781,
         "amgArtistId": 468749, "artistName": "Jack Johnson",
         "collectionName": "In Between Dreams (Bonus Track Version)",
         "collectionCensoredName": "In Between Dreams (Bonus Track Version)",
         "artistViewUrl": "https://music.apple.com/us/artist/jack-johnson/909253?uo=4",
         "collectionViewUrl": "https://music.apple.com/us/album/in-between-dreams/1440857781?uo=4",
         "artworkUrl60": "https://is1-ssl.mzstatic.com/image/thumb/Music115/v4/0a/c6/source/60x60bb.jpg",
         "artworkUrl100": "https://is1-ssl.mzstatic.com/image/thumb/Music115/v4/0a/c6/source/100x100bb.jpg",
         "collectionPrice": 9.99, "collectionExplicitness": "notExplicit", "trackCount": 16,
         "copyright": "℗ 2005 Jack Johnson", "country": "USA", "currency": "USD",
         "releaseDate": "2005-03-01T08:00:00Z", "primaryGenreName": "Rock"},
        {"features": ["iosUniversal"], "advisories": [], "kind": "software", "isGameCenterEnabled": false,
         "artworkUrl60": "https://is1-ssl.mzstatic.com/image/thumb/Purple116/v4/0e/AppIcon/60x60bb.png",
         "artworkUrl512": "https://is1-ssl.mzstatic.com/image/thumb/Purple116/v4/0e/AppIcon/512x512bb.png",
         "artworkUrl100": "https://is1-ssl.mzstatic.com/image/thumb/Purple116/v4/0e/AppIcon/100x100bb.png",
         "artistViewUrl": "https://apps.apple.com/us/developer/apple/id284417353?uo=4",
         "screenshotUrls": ["https://is1-ssl.mzstatic.com/image/thumb/Purple/v4/1/392x696bb.jpg"],
         "supportedDevices": ["iPhone5s-iPhone5s", "iPadAir-iPadAir"], "languageCodesISO2A": ["EN", "FR"],
         "fileSizeBytes": "21992445", "sellerUrl": "http://www.apple.com/itunes/remote",
         "formattedPrice": "Free", "contentAdvisoryRating": "4+", "averageUserRatingForCurrentVersion": 3.5,
         "userRatingCountForCurrentVersion": 794, "averageUserRating": 3.351059999999999927666749499621801,
         "trackViewUrl": "https://apps.apple.com/us/app/remote/id284417350?uo=4", "trackContentRating": "4+",
         "releaseNotes": "• Support for iTunes Match", "genreIds": ["6016", "6011"],
         "releaseDate": "2008-07-11T07:00:00Z", "sellerName": "Apple Inc.", "currency": "USD",
         "genres": ["Entertainment", "Music"], "bundleId": "com.apple.Remote", "trackId": 284417350,
         "trackName": "Remote", "primaryGenreName": "Entertainment", "primaryGenreId": 6016,
         "version": "4.4", "wrapperType": "software", "artistId": 284417353, "artistName": "Apple",
         "price": 0.00, "description": "Control iTunes from anywhere in your home.", "userRatingCount": 197847},
        {"wrapperType": "track", "kind": null, "trackId": 1001, "trackName": "An Untitled Short",
         "artistName": "Someone", "trackPrice": "4.99", "currency": "USD", "trackTimeMillis": null},
        {"wrapperType": "artist", "artistType": "Artist", "artistName": "Jack Johnson",
         "artistLinkUrl": "https://music.apple.com/us/artist/jack-johnson/909253?uo=4", "artistId": 909253},
        42
        ]}
        """
}
