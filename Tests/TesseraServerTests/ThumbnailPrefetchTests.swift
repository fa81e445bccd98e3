import Foundation
import Logging
import TesseraCore
import TesseraFetcher
import TesseraGalleries
import TesseraImageProcessing
import TesseraImageProxy
import TesseraLibrary
import TesseraTestSupport
import Testing

@testable import TesseraServer

/// The stream's thumbnail prefetch, on a real image proxy fetching from the stand-ins' image host: the first
/// thumbnails of every section are made before any section's others, since those are what the window shows.
@Suite struct ThumbnailPrefetchTests {
    @Test func eachSectionsFirstThumbnailsGoBeforeAnySectionsOthers() async throws {
        let setup = try await Setup()
        let prefetch = ThumbnailPrefetch(proxy: setup.proxy, concurrency: 1)
        prefetch.add(setup.section("a"))
        prefetch.add(setup.section("b"))
        prefetch.add(setup.section("a"))  // queued once
        await prefetch.finish(within: .seconds(120))
        let order = setup.order
        #expect(order.count == 20, "\(order)")
        let leading = (0..<6).flatMap { ["a-\($0)", "b-\($0)"] }
        #expect(Set(order.prefix(12)) == Set(leading), "the first six of each section first: \(order)")
        #expect(order.prefix(6) == ["a-0", "a-1", "a-2", "a-3", "a-4", "a-5"][...], "in each section's order")
        #expect(order.suffix(8) == ["a-6", "a-7", "a-8", "a-9", "b-6", "b-7", "b-8", "b-9"][...])
        try await setup.stop()
    }

    /// The others wait their pause after the leading ones: while it lasts, only those are asked for.
    @Test func theOthersWaitTheirPause() async throws {
        let setup = try await Setup()
        let prefetch = ThumbnailPrefetch(proxy: setup.proxy, concurrency: 1, restPause: .seconds(600))
        prefetch.add(setup.section("a"))
        prefetch.add(setup.section("b"))
        let leading = Set((0..<6).flatMap { ["a-\($0)", "b-\($0)"] })
        // However slow the machine: the twelve leading ones, one at a time, then a second for any other.
        for _ in 0..<1200 where setup.order.count < leading.count { try await Task.sleep(for: .milliseconds(100)) }
        try await Task.sleep(for: .seconds(1))
        prefetch.cancel()
        #expect(Set(setup.order) == leading, "only the first six of each section: \(setup.order)")
        #expect(setup.order.count == leading.count, "each once: \(setup.order)")
        try await setup.stop()
    }

    /// A real image proxy fetching distinct pictures from the stand-ins' image host.
    private struct Setup {
        let server: StandInServer
        let folder: URL
        let signer = ImageURLSigner(secret: Data("prefetch test".utf8))
        let fetcher = ImageFetcher(policy: FetchPolicy(allowPrivateNetworks: true), logger: Logger(label: "test"))
        let proxy: ImageProxy

        init() async throws {
            server = try await StandInServer.start([])
            server.images = StandInImage.distinct(for:)
            // Each thumbnail takes a while, so the second section is queued while the first's are being made.
            server.imageDelay = .milliseconds(30)
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("prefetch-\(UUID().uuidString)")
            proxy = ImageProxy(
                signer: signer, fetcher: fetcher,
                processor: ImageProcessor(concurrency: 1), memory: MemoryImageCache(capacityBytes: 1 << 24), disk: nil,
                files: ImageFilesByKind(library: LibraryFiles(roots: []), stored: GalleryImageFiles(directory: folder)))
        }

        func section(_ name: String) -> [Item] {
            (0..<10).map { index in
                let address = "\(server.origin)/pixabay/cdn/\(name)-\(index)_150.jpg"
                return Item(
                    id: ItemID(source: .pixabay, nativeID: "\(name)\(index)"), kind: .image, title: "\(name) \(index)",
                    thumbnail: ImageRef(url: signer.link(address, variant: .thumb)))
            }
        }

        /// The pictures the image host was asked for, in order, by name ("a-3").
        var order: [String] { server.imageRequestOrder.map { String($0.split(separator: "/").last!.dropLast(8)) } }

        func stop() async throws {
            try await fetcher.shutdown()
            await server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }
}
