import Foundation
import TesseraCore
import Testing

@testable import TesseraSources

// MARK: - Decoding real-world answers

extension ITunesClientTests {
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

    @Test func previewsAndListingsComeFromTheRecords() throws {
        let records =
            try JSONDecoder().decode(ITunesWire.Envelope.self, from: Data(Self.recorded.utf8))
            .results?.decoded() ?? []
        let items = records.compactMap { ITunesClient.item($0, fallback: .movie) }
        try #require(items.count == 5)
        let (movie, song, album, app) = (items[0], items[1], items[2], items[3])

        #expect(movie.mediaPreview?.kind == .video, "an .m4v trailer plays in a video element")
        #expect(movie.mediaPreview?.url.hasSuffix("mzvf_62.640x478.h264lc.U.p.m4v") == true)
        #expect(song.mediaPreview?.kind == .audio)
        #expect(song.mediaPreview?.url.hasPrefix("https://audio-ssl.itunes.apple.com/") == true)
        #expect(album.mediaPreview == nil, "an album has no preview of its own")
        #expect(!movie.metadata.contains { $0.label == "Preview" }, "the service's address is not a metadata row")

        let listing = try #require(app.listing)
        #expect(listing.price == "Free")
        #expect(listing.rating.map { abs($0 - 3.35106) < 0.0001 } == true)
        #expect(listing.ratingCount == 197847)
        #expect(listing.description == "Control iTunes from anywhere in your home.")
        let shot = try #require(listing.screenshots?.first)
        #expect(shot.url == "https://is1-ssl.mzstatic.com/image/thumb/Purple/v4/1/392x696bb.jpg")
        #expect(shot.width == 392 && shot.height == 696, "a screenshot's box is its size")
        #expect(movie.listing?.description == "It is the 23rd century...")
        #expect(movie.listing?.price == "12.99 USD")
        #expect(song.listing?.screenshots == nil)

        // Markup in a book's description arrives as plain text; an unknown extension goes by the kind.
        let book = try JSONDecoder().decode(
            ITunesWire.Record.self,
            from: Data(
                #"""
                {"kind": "ebook", "trackId": 7, "trackName": "B", "artistName": "Ann Author",
                 "description": "<b>Bold</b> &amp; <i>more</i><br />Next", "averageUserRating": 9,
                 "userRatingCount": -3, "previewUrl": "javascript:alert(1)"}
                """#.utf8))
        let item = try #require(ITunesClient.item(book, fallback: nil))
        #expect(item.kind == .book)
        #expect(item.creator?.name == "Ann Author")
        #expect(item.listing?.description?.contains("<") == false)
        #expect(item.listing?.description?.hasPrefix("Bold & more") == true)
        #expect(item.listing?.rating == nil, "a rating outside 0 to 5 is dropped")
        #expect(item.listing?.ratingCount == nil)
        #expect(item.mediaPreview == nil, "only http(s) previews")
        #expect(ITunesClient.mediaPreview(records[1], kind: .movie)?.kind == .audio, "the .m4a extension wins")
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
