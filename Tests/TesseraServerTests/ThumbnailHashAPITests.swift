import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TesseraCore
import TesseraImageProcessing
import TesseraServer
import TesseraTestSupport
import Testing

@Suite("The proxy hashes each thumbnail it makes")
struct ThumbnailHashAPITests {
    @Test func aServedThumbnailsHashIsKnownByItsItem() async throws {
        let server = try await StandInServer.start(StandInSet().list)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var environment = server.environment
        environment["TESSERA_DATA"] = data.path
        environment["TESSERA_PORT"] = "0"
        environment["TESSERA_SAMPLES"] = "none"
        var quiet = Logger(label: "tessera-test")
        quiet.logLevel = .critical
        let app = try await AppEnvironment.live(try AppConfiguration(environment: environment), logger: quiet)
        let proxy = app.imageProxy
        do {
            try await buildApplication(app).test(.live) { client in
                let body = try await client.execute(uri: "/api/search?q=fox&scope=pixabay", method: .get)
                    .json(SearchResponse.self)
                let items = try #require(body.sections.first?.items)
                let (item, other) = (items[0], items[1])
                #expect(await proxy.thumbnailHash(for: item) == nil, "no thumbnail made yet")

                let thumbnail = try await client.execute(uri: try #require(item.thumbnail?.url), method: .get)
                #expect(thumbnail.status == .ok)
                let bytes = Data(thumbnail.body.readableBytesView)
                let hash = try #require(await proxy.thumbnailHash(for: item))
                #expect(hash == (try PerceptualHashing.hash(of: bytes)), "the hash of the bytes served")
                #expect(await proxy.thumbnailHash(for: other) == nil, "only what was made")

                // The same item as its service named it, and forged or other-variant signed paths.
                var unsigned = item
                unsigned.thumbnail = ImageRef(url: try #require(Self.source(of: item.thumbnail?.url)))
                #expect(await proxy.thumbnailHash(for: unsigned) == hash)
                var forged = item
                forged.thumbnail?.url = item.thumbnail!.url.replacingOccurrences(
                    of: "/img/thumb/", with: "/img/preview/")
                #expect(await proxy.thumbnailHash(for: forged) == nil)
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// The address a signed `/img/...` path stands for (its last part, base64url).
    private static func source(of url: String?) -> String? {
        guard let encoded = url?.split(separator: "/").last else { return nil }
        var text = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text).map { String(decoding: $0, as: UTF8.self) }
    }
}
