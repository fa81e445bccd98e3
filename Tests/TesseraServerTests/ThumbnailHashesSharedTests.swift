import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TesseraCore
import TesseraImageProcessing
import TesseraServer
import TesseraTestSupport
import Testing

/// Thumbnail hashes in the database (docs/duplicates.md, "The hash in the database"): a thumbnail one server made
/// has its hash known to another server on the same database, which never made that thumbnail and has no side
/// file of it (its own data folder on PostgreSQL; on SQLite the same folder, with its disk cache off).
@Suite("Thumbnail hashes shared through the database")
struct ThumbnailHashesSharedTests {
    @Test(arguments: Engine.allCases)
    func aHashOneServerMadeIsKnownToAnother(engine: Engine) async throws {
        let standIns = try await StandInServer.start(StandInSet().list)
        let first = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-hash-a-\(UUID())")
        let second = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-hash-b-\(UUID())")
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        var quiet = Logger(label: "tessera-test")
        quiet.logLevel = .critical
        do {
            try await engine.withEnvironment { database in
                func environment(_ data: URL, _ extra: [String: String] = [:]) -> [String: String] {
                    var environment = standIns.environment
                    environment["TESSERA_DATA"] = data.path
                    environment["TESSERA_PORT"] = "0"
                    environment["TESSERA_SAMPLES"] = "none"
                    return environment.merging(database) { $1 }.merging(extra) { $1 }
                }
                let a = try await AppEnvironment.live(
                    try AppConfiguration(environment: environment(first)), logger: quiet)
                let folder = engine == .postgres ? second : first
                let b = try await AppEnvironment.live(
                    try AppConfiguration(environment: environment(folder, ["TESSERA_IMAGE_DISK_MB": "0"])),
                    logger: quiet)
                try await buildApplication(b).test(.live) { _ in
                    try await buildApplication(a).test(.live) { client in
                        let body = try await client.execute(uri: "/api/search?q=fox&scope=pixabay", method: .get)
                            .json(SearchResponse.self)
                        let items = try #require(body.sections.first?.items)
                        let (item, other) = (items[0], items[1])
                        #expect(await b.imageProxy.thumbnailHash(for: item) == nil, "nobody made it yet")

                        let thumbnail = try await client.execute(uri: try #require(item.thumbnail?.url), method: .get)
                        try #require(thumbnail.status == .ok)
                        let made = try PerceptualHashing.hash(of: Data(thumbnail.body.readableBytesView))
                        #expect(await a.imageProxy.thumbnailHash(for: item) == made)
                        // Written to the database behind the answer: wait for it, within a generous bound.
                        var known: PerceptualHash?
                        let deadline = ContinuousClock.now + .seconds(20)
                        while known == nil, ContinuousClock.now < deadline {
                            known = await b.imageProxy.thumbnailHash(for: item)
                            if known == nil { try await Task.sleep(for: .milliseconds(50)) }
                        }
                        #expect(known == made, "the other server knows it without making the thumbnail")
                        #expect(await b.imageProxy.thumbnailHash(for: other) == nil, "only what was made")
                    }
                }
            }
        } catch {
            await standIns.stop()
            throw error
        }
        await standIns.stop()
    }
}
