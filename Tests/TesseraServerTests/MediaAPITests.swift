import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TesseraCore
import TesseraGalleries
import TesseraImageProxy
import TesseraTestSupport
import Testing

/// `/media/{signature}/{source}` over real HTTP: iTunes previews from a search, played in byte ranges; what
/// is not audio or video, too large, forged or on a private network refused, each with its reason.
@Suite("Media previews over HTTP")
struct MediaAPITests {
    /// Signs as the server does, with the secret it is given.
    private static let secret = "media-proxy-test-secret"
    private static func signed(_ url: String) throws -> String {
        let key = try ImageSecret.load(configured: secret, dataDirectory: FileManager.default.temporaryDirectory)
        return try #require(ImageURLSigner(secret: key).linkMedia(url))
    }

    private static let environment = ["TESSERA_SECRET": secret]

    /// The first result of a section, as a browser gets it.
    private func first(_ client: any TestClientProtocol, scope: String) async throws -> Item {
        let body = try await client.execute(uri: "/api/search?q=fox&scope=\(scope)", method: .get)
            .json(SearchResponse.self)
        return try #require(body.sections.first?.items.first)
    }

    private func previewRequests(_ standIns: StandInSet) -> Int {
        standIns.itunes.state.requests.filter { $0.path.hasPrefix("/itunes/preview/") }.count
    }

    @Test func aSongsPreviewPlaysInRangesFromOneFetch() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list) { client, _ in
            let song = try await first(client, scope: "music")
            let preview = try #require(song.mediaPreview)
            #expect(preview.kind == .audio)
            #expect(preview.url.hasPrefix("/media/"), "the browser never gets the service's address")
            let movie = try await first(client, scope: "movies")
            #expect(movie.mediaPreview?.kind == .video)

            let wav = StandInMedia.wav
            let size = wav.count
            let whole = try await client.execute(uri: preview.url, method: .get)
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentType] == "audio/wav")
            #expect(whole.headers[.acceptRanges] == "bytes")
            #expect(whole.headers[.contentLength] == String(size))
            #expect(whole.headers[.xContentTypeOptions] == "nosniff")
            #expect(whole.headers[.cacheControl] == "private, max-age=3600")
            #expect(Array(whole.body.readableBytesView) == wav)
            let etag = try #require(whole.headers[.eTag])

            // First bytes, middle, suffix, open-ended, and an end past the last byte (clamped).
            let ranges: [(String, Range<Int>)] = [
                ("bytes=0-99", 0..<100), ("bytes=1000-1999", 1000..<2000), ("bytes=-500", (size - 500)..<size),
                ("bytes=40000-", 40000..<size), ("bytes=\(size - 10)-\(size + 1000)", (size - 10)..<size),
                ("bytes=0-0", 0..<1),
            ]
            for (header, expected) in ranges {
                let response = try await client.execute(uri: preview.url, method: .get, headers: [.range: header])
                #expect(response.status == .partialContent, "\(header)")
                #expect(
                    response.headers[.contentRange]
                        == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(size)",
                    "\(header)")
                #expect(response.headers[.contentLength] == String(expected.count), "\(header)")
                #expect(Array(response.body.readableBytesView) == Array(wav[expected]), "\(header)")
                #expect(response.headers[.eTag] == etag)
            }

            // Past the end: 416 with the size. Several ranges or an unknown unit: the whole, as browsers accept.
            for header in ["bytes=\(size)-", "bytes=999999999-", "bytes=-0"] {
                let response = try await client.execute(uri: preview.url, method: .get, headers: [.range: header])
                #expect(response.status == .rangeNotSatisfiable, "\(header)")
                #expect(response.headers[.contentRange] == "bytes */\(size)", "\(header)")
                #expect(try response.apiError().code == "range_not_satisfiable")
            }
            for header in ["bytes=0-9,20-29", "items=0-9", "bytes=9-3", "bytes=abc"] {
                let response = try await client.execute(uri: preview.url, method: .get, headers: [.range: header])
                #expect(response.status == .ok, "\(header)")
                #expect(response.body.readableBytes == size, "\(header)")
            }

            // If-Range: the tag held still matches, so the range; another tag, so the whole.
            let current = try await client.execute(
                uri: preview.url, method: .get, headers: [.range: "bytes=0-9", .ifRange: etag])
            #expect(current.status == .partialContent)
            let stale = try await client.execute(
                uri: preview.url, method: .get, headers: [.range: "bytes=0-9", .ifRange: "\"old\""])
            #expect(stale.status == .ok)
            #expect(stale.body.readableBytes == size)

            let notModified = try await client.execute(uri: preview.url, method: .get, headers: [.ifNoneMatch: etag])
            #expect(notModified.status == .notModified)
            let head = try await client.execute(uri: preview.url, method: .head, headers: [.range: "bytes=0-99"])
            #expect(head.status == .partialContent)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == "100")

            #expect(previewRequests(standIns) == 1, "one fetch, every range served from the copy in memory")
            // The page may play media from this server only.
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.headers[.contentSecurityPolicy]?.contains("media-src 'self';") == true)
        }
    }

    @Test func whatIsNotAudioOrVideoIsRefused() async throws {
        let origin = try await ImageOrigin.start()
        origin.serve("/sound.bin", StandInMedia.wav, contentType: "application/octet-stream")
        origin.serve("/sound.wav", StandInMedia.wav, contentType: nil)
        origin.serve("/photo.jpg", StandInImage.jpeg, contentType: "audio/mpeg")
        let standIns = StandInSet()
        let environment = Self.environment.merging(["TESSERA_IMAGE_ALLOW_PRIVATE": "true"]) { $1 }
        try await withTessera(standIns.list, extraEnvironment: environment) { client, server in
            let base = "\(server.origin)/itunes/preview"
            let cases = [
                "\(base)/page/1.m4a",  // an HTML page, labelled so
                "\(base)/disguised/2.m4a",  // an HTML page labelled audio/x-m4a: the bytes give it away
                origin.url("/sound.bin"),  // audio bytes under a type the route does not serve
                origin.url("/sound.wav"),  // no type at all
                origin.url("/photo.jpg"),  // an image labelled audio/mpeg
            ]
            for url in cases {
                let response = try await client.execute(uri: try Self.signed(url), method: .get)
                #expect(response.status == .badGateway, "\(url)")
                let error = try response.apiError()
                #expect(error.code == "not_media", "\(url)")
                #expect(error.message.contains("not audio or video"), "\(error.message)")
                #expect(response.headers[.cacheControl] == "no-store")
            }
            // A host's 404 is ours too.
            let gone = try await client.execute(uri: try Self.signed(origin.url("/gone.m4a")), method: .get)
            #expect(gone.status == .notFound)
        }
        await origin.stop()
    }

    @Test func aPreviewOverTheCapIsRefused() async throws {
        let origin = try await ImageOrigin.start()
        let long = StandInMedia.wav(seconds: 80)  // 1.28 MB
        origin.serve("/long.wav", long, contentType: "audio/wav")
        origin.serve("/long-chunked.wav", long, contentType: "audio/wav", chunked: true)
        origin.serve("/short.wav", StandInMedia.wav, contentType: "audio/wav")
        let environment = Self.environment.merging([
            "TESSERA_IMAGE_ALLOW_PRIVATE": "true", "TESSERA_PREVIEW_MAX_MB": "1",
        ]) { $1 }
        try await withTessera(StandInSet().list, extraEnvironment: environment) { client, _ in
            for path in ["/long.wav", "/long-chunked.wav"] {
                let response = try await client.execute(uri: try Self.signed(origin.url(path)), method: .get)
                #expect(response.status == .badGateway, "\(path)")
                #expect(try response.apiError().code == "too_large", "\(path)")
                #expect(try response.apiError().message.contains("1 MB"))
            }
            let short = try await client.execute(uri: try Self.signed(origin.url("/short.wav")), method: .get)
            #expect(short.status == .ok)
        }
        await origin.stop()
    }

    @Test func aForgedAddressIsRefusedAndNothingIsFetched() async throws {
        let standIns = StandInSet()
        try await withTessera(standIns.list, extraEnvironment: Self.environment) { client, server in
            let song = try await first(client, scope: "music")
            let url = try #require(song.mediaPreview?.url)
            let parts = url.split(separator: "/").map(String.init)  // media, signature, source
            var flipped = Array(parts[1])
            flipped[0] = flipped[0] == "A" ? "B" : "A"
            let other = ImageProxyAPITests.encodeBase64URL("\(server.origin)/itunes/preview/audio/other.wav")
            let thumbnail = try #require(song.thumbnail?.url).split(separator: "/").map(String.init)
            let cases = [
                "/media/\(String(flipped))/\(parts[2])",  // signature changed
                "/media/\(parts[1])/\(other)",  // source changed
                "/media/\(thumbnail[2])/\(thumbnail[3])",  // an image's signature is no media signature
                "/media/!!!/\(parts[2])",  // not base64url
            ]
            for uri in cases {
                let response = try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=0-9"])
                #expect(response.status == .forbidden, "\(uri)")
                #expect(try response.apiError().code == "invalid_signature", "\(uri)")
            }
            let conditional = try await client.execute(uri: cases[0], method: .get, headers: [.ifNoneMatch: "*"])
            #expect(conditional.status == .forbidden, "a forged URL gets no 304 either")
            let missing = try await client.execute(uri: "/media/\(parts[2])", method: .get)
            #expect(missing.status == .notFound)
            #expect(previewRequests(standIns) == 0, "nothing was fetched for a bad address")
        }
    }

    @Test func aGalleryKeepsThePreviewAndRefusesOneFromElsewhere() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await GalleriesAPITests.create(client)
            let song = try await first(client, scope: "music")
            let added = try await GalleriesAPITests.add(client, gallery.id, json: try GalleriesAPITests.itemJSON(song))
            #expect(added.status == .created)
            let kept = try added.json(GalleryItem.self).item
            #expect(kept.mediaPreview == song.mediaPreview)
            let played = try await client.execute(uri: try #require(kept.mediaPreview?.url), method: .get)
            #expect(played.status == .ok, "a kept preview still plays")

            var elsewhere = song
            elsewhere.mediaPreview = MediaPreview(url: "https://audio.example/clip.m4a", kind: .audio)
            var outOfRange = try await first(client, scope: "apps")
            outOfRange.listing?.rating = 7
            var foreignShot = outOfRange
            foreignShot.listing?.rating = 4
            foreignShot.listing?.screenshots = [ImageRef(url: "https://x.example/shot.jpg")]
            for item in [elsewhere, outOfRange, foreignShot] {
                let response = try await GalleriesAPITests.add(
                    client, gallery.id, json: try GalleriesAPITests.itemJSON(item))
                #expect(response.status == .badRequest, "\(item.listing.debugDescription)")
                #expect(try response.apiError().code == "invalid_item")
            }
        }
    }

    @Test func aPrivateAddressIsRefusedEvenWhenSigned() async throws {
        let origin = try await ImageOrigin.start()
        origin.serve("/sound.wav", StandInMedia.wav, contentType: "audio/wav")
        try await withTessera(StandInSet().list, extraEnvironment: Self.environment) { client, _ in
            for url in [origin.url("/sound.wav"), "http://[::1]:\(origin.port)/sound.wav", "file:///etc/passwd"] {
                let response = try await client.execute(uri: try Self.signed(url), method: .get)
                #expect(response.status == .forbidden, "\(url)")
                #expect(["refused_address", "unsupported_scheme"].contains(try response.apiError().code), "\(url)")
            }
        }
        #expect(origin.totalHits == 0)
        await origin.stop()
    }
}
