import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraCore
import TesseraImageProxy
import TesseraTestSupport
import Testing

@Suite("Image proxy over HTTP")
struct ImageProxyAPITests {
    /// The thumbnail URL of the first Pixabay result, as a browser would get it.
    private func firstThumbnail(_ client: any TestClientProtocol) async throws -> (url: String, upstreamPath: String) {
        let body = try await client.execute(uri: "/api/search?q=fox&scope=pixabay", method: .get)
            .json(SearchResponse.self)
        let item = try #require(body.sections.first?.items.first)
        let url = try #require(item.thumbnail?.url)
        let encoded = try #require(url.split(separator: "/").last)
        let upstream = try #require(Self.decodeBase64URL(String(encoded)))
        return (url, try #require(URL(string: upstream)?.path))
    }

    @Test func aSearchResultsThumbnailIsServedCachedAndImmutable() async throws {
        try await withTessera(StandInSet().list) { client, standIns in
            let (url, upstreamPath) = try await firstThumbnail(client)
            let first = try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"])
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "image/jpeg")
            #expect(first.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(first.headers[.vary] == "Accept")
            #expect(first.headers[.xContentTypeOptions] == "nosniff")
            let etag = try #require(first.headers[.eTag])
            #expect(Array(first.body.readableBytesView.prefix(3)) == [0xFF, 0xD8, 0xFF], "a JPEG")
            #expect(first.body.readableBytes > 100)

            let second = try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"])
            #expect(second.status == .ok)
            #expect(second.headers[.eTag] == etag)
            #expect(second.body == first.body)
            #expect(standIns.imageRequests(upstreamPath) == 1, "the second answer came from the cache")
        }
    }

    @Test func webPOnlyWhenAcceptedAndTaggedApart() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let (url, _) = try await firstThumbnail(client)
            let jpeg = try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"])
            let any = try await client.execute(uri: url, method: .get, headers: [.accept: "image/webp,image/*"])
            #expect(jpeg.headers[.contentType] == "image/jpeg")
            #expect(["image/jpeg", "image/webp"].contains(any.headers[.contentType] ?? ""))
            #expect(jpeg.headers[.eTag] != any.headers[.eTag], "two representations, two tags")
            if any.headers[.contentType] == "image/webp" {
                #expect(any.body.readableBytes < jpeg.body.readableBytes, "WebP only when smaller")
                #expect(String(buffer: any.body.getSlice(at: 8, length: 4)!) == "WEBP")
            }
        }
    }

    @Test func ifNoneMatchAnswers304AndHeadSendsNoBody() async throws {
        try await withTessera(StandInSet().list) { client, standIns in
            let (url, upstreamPath) = try await firstThumbnail(client)
            // Before anything was fetched: the tag is known from the signed URL alone.
            let probe = try await client.execute(uri: url, method: .head)
            #expect(probe.status == .ok)
            #expect(probe.body.readableBytes == 0)
            let length = try #require(probe.headers[.contentLength].flatMap { Int($0) })
            #expect(length > 100)
            let etag = try #require(probe.headers[.eTag])
            #expect(standIns.imageRequests(upstreamPath) == 1)

            for header in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                let response = try await client.execute(uri: url, method: .get, headers: [.ifNoneMatch: header])
                #expect(response.status == .notModified, "\(header)")
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == etag)
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
            }
            let stale = try await client.execute(uri: url, method: .get, headers: [.ifNoneMatch: "\"stale\""])
            #expect(stale.status == .ok)
            #expect(stale.body.readableBytes == length)
        }
    }

    @Test func aTamperedAddressIsRefusedAndNothingIsFetched() async throws {
        try await withTessera(StandInSet().list) { client, standIns in
            let (url, _) = try await firstThumbnail(client)
            let parts = url.split(separator: "/").map(String.init)  // img, thumb, signature, source
            let otherSource = Self.encodeBase64URL("\(standIns.origin)/pixabay/cdn/other.jpg")
            var flipped = Array(parts[2])
            flipped[0] = flipped[0] == "A" ? "B" : "A"
            let cases = [
                "/img/thumb/\(String(flipped))/\(parts[3])",  // signature changed
                "/img/thumb/\(parts[2])/\(otherSource)",  // source changed
                "/img/original/\(parts[2])/\(parts[3])",  // variant changed
                "/img/thumb/\(parts[3])",  // missing signature
                "/img/thumb/!!!/\(parts[3])",  // not base64url
            ]
            for uri in cases {
                let response = try await client.execute(uri: uri, method: .get)
                #expect([.forbidden, .notFound].contains(response.status), "\(uri)")
                if response.status == .forbidden { #expect(try response.apiError().code == "invalid_signature") }
                #expect(response.headers[.cacheControl] == "no-store", "\(uri)")
            }
            let conditional = try await client.execute(
                uri: cases[0], method: .get, headers: [.ifNoneMatch: "*"])
            #expect(conditional.status == .forbidden, "a forged URL gets no 304 either")
            let unknown = try await client.execute(uri: "/img/huge/\(parts[2])/\(parts[3])", method: .get)
            #expect(unknown.status == .notFound)
            #expect(standIns.totalImageRequests == 0, "nothing was fetched for a bad address")
        }
    }

    @Test func concurrentRequestsShareOneFetchAndOneResize() async throws {
        let standIns = try await StandInServer.start(StandInSet().list)
        standIns.imageDelay = .milliseconds(300)
        try await withTessera([], standIns: standIns) { client, standIns in
            let (url, upstreamPath) = try await firstThumbnail(client)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"]).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: .ok, count: 20))
            #expect(standIns.imageRequests(upstreamPath) == 1)
        }
        await standIns.stop()
    }

    @Test func theDiskCacheServesAfterARestart() async throws {
        let standIns = try await StandInServer.start(StandInSet().list)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = Box()
        try await withTessera([], dataFolder: data, standIns: standIns) { client, _ in
            let (url, upstreamPath) = try await firstThumbnail(client)
            let response = try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"])
            #expect(response.status == .ok)
            first.set(url, upstreamPath, response.body)
            // The disk write is behind the answer: wait until the entry is there, renamed to its own name (a
            // SHA-256 in hex), not only its folder or the temporary file it is written to.
            let cache = data.appendingPathComponent("image-cache")
            let entries = {
                ((try? FileManager.default.subpathsOfDirectory(atPath: cache.path)) ?? []).filter { path in
                    let name = URL(fileURLWithPath: path).lastPathComponent
                    return name.count == 64 && name.allSatisfy(\.isHexDigit)
                }
            }
            for _ in 0..<500 where entries().isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            try #require(!entries().isEmpty)
        }
        let (url, upstreamPath, body) = try #require(first.value)
        #expect(standIns.imageRequests(upstreamPath) == 1)
        try await withTessera([], dataFolder: data, standIns: standIns) { client, _ in
            let response = try await client.execute(uri: url, method: .get, headers: [.accept: "image/jpeg"])
            #expect(response.status == .ok)
            #expect(response.body == body)
        }
        #expect(standIns.imageRequests(upstreamPath) == 1, "a new process found it on disk")
        await standIns.stop()
    }

    /// Paths signed here with the secret the server is given, for sources no search returns.
    private static let secret = "image-proxy-test-secret"
    private static func signed(_ url: String, _ variant: ImageVariant) throws -> String {
        let key = try ImageSecret.load(configured: secret, dataDirectory: FileManager.default.temporaryDirectory)
        return ImageURLSigner(secret: key).link(url, variant: variant)
    }

    @Test func aPrivateAddressIsRefusedEvenWhenSigned() async throws {
        let origin = try await ImageOrigin.start()
        origin.serve("/photo.jpg", StandInImage.jpeg, contentType: "image/jpeg")
        try await withTessera(StandInSet().list, extraEnvironment: ["TESSERA_SECRET": Self.secret]) { client, _ in
            for url in [origin.url("/photo.jpg"), "http://2130706433:\(origin.port)/photo.jpg", "file:///etc/passwd"] {
                let response = try await client.execute(uri: try Self.signed(url, .thumb), method: .get)
                #expect(response.status == .forbidden, "\(url)")
                #expect(["refused_address", "unsupported_scheme"].contains(try response.apiError().code), "\(url)")
            }
        }
        #expect(origin.totalHits == 0)
        await origin.stop()
    }

    @Test func whatIsNotAnImageIsRefusedWithItsReason() async throws {
        let origin = try await ImageOrigin.start()
        origin.serve(
            "/page.jpg", Array("<!doctype html><html><body>hello</body></html>".utf8), contentType: "image/jpeg")
        origin.serve("/huge.png", Self.pngDeclaring(width: 30_000, height: 30_000), contentType: "image/png")
        origin.serve("/cut.jpg", Array(StandInImage.jpeg.prefix(300)), contentType: "image/jpeg")
        origin.serve("/big.jpg", StandInImage.jpeg + [UInt8](repeating: 0, count: 1_100_000), contentType: "image/jpeg")
        origin.status("/gone.jpg", 404)
        origin.serve("/photo.jpg", StandInImage.jpeg, contentType: "application/octet-stream")
        let environment = [
            "TESSERA_SECRET": Self.secret, "TESSERA_IMAGE_ALLOW_PRIVATE": "true", "TESSERA_IMAGE_MAX_MB": "1",
        ]
        try await withTessera(StandInSet().list, extraEnvironment: environment) { client, _ in
            let cases: [(String, ImageVariant, HTTPResponse.Status, String)] = [
                ("/page.jpg", .thumb, .badGateway, "not_an_image"),
                ("/huge.png", .thumb, .badGateway, "too_many_pixels"),
                ("/huge.png", .original, .badGateway, "too_many_pixels"),
                ("/cut.jpg", .thumb, .badGateway, "unreadable_image"),
                ("/big.jpg", .original, .badGateway, "too_large"),
                ("/gone.jpg", .preview, .notFound, "upstream_status"),
            ]
            for (path, variant, status, code) in cases {
                let response = try await client.execute(uri: try Self.signed(origin.url(path), variant), method: .get)
                #expect(response.status == status, "\(path) \(variant)")
                #expect(try response.apiError().code == code, "\(path) \(variant): \(response.text)")
                #expect(response.headers[.cacheControl] == "no-store")
            }
            // The original is the bytes as fetched, typed by their magic numbers rather than the source's header.
            let original = try await client.execute(
                uri: try Self.signed(origin.url("/photo.jpg"), .original), method: .get)
            #expect(original.status == .ok)
            #expect(original.headers[.contentType] == "image/jpeg")
            #expect(Array(original.body.readableBytesView) == StandInImage.jpeg)
            #expect(original.headers[.vary] == nil)
        }
        await origin.stop()
    }

    /// A valid PNG declaring `width`×`height` with one empty deflate block for pixels: a few dozen bytes
    /// that would decode to gigabytes.
    static func pngDeclaring(width: UInt32, height: UInt32) -> [UInt8] {
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return bigEndian(UInt32(data.count)) + typed + bigEndian(~crc)
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
    }

    static func decodeBase64URL(_ text: String) -> String? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) }
    }

    static func encodeBase64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// Carries a value out of a `@Sendable` test body.
private final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (String, String, ByteBuffer)?
    func set(_ url: String, _ path: String, _ body: ByteBuffer) { lock.withLock { stored = (url, path, body) } }
    var value: (String, String, ByteBuffer)? { lock.withLock { stored } }
}
