import Foundation
import HummingbirdTesting
import TesseraCore
import TesseraTestSupport
import Testing

/// The library's filters over HTTP, on both engines: applied by the index in SQL (reported `native`), from
/// the pixel sizes, palettes and licences the server's own indexing stored (docs/filters.md).
@Suite("Library filters over HTTP")
struct LibraryFiltersAPITests {
    /// The six sample photos in one folder, `Shots`, so that one word finds them all.
    static func library() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-lib-\(UUID().uuidString)")
        let shots = folder.appendingPathComponent("Shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        for path in [
            "Cafe/espresso-cup-on-a-wooden-table.jpg", "Pets/chelsea-the-tabby-cat.jpg",
            "People/photographer-with-camera-on-tripod.jpg", "Space/astronaut-eileen-collins.jpg",
            "Space/falcon-9-rocket-launch.jpg", "Space/hubble-extreme-deep-field.jpg",
        ] {
            try FileManager.default.copyItem(
                at: LocalLibraryAPITests.samples.appendingPathComponent(path),
                to: shots.appendingPathComponent(String(path.split(separator: "/")[1])))
        }
        return folder
    }

    private func section(_ client: any TestClientProtocol, _ filters: String) async throws -> SectionResult {
        let response = try await client.execute(uri: "/api/search?q=shots&scope=local&" + filters, method: .get)
        #expect(response.status == .ok)
        return try #require(try response.json(SearchResponse.self).sections.first)
    }

    /// The photos' file names, from their items' "File name" entry.
    private func names(_ section: SectionResult) -> Set<String> {
        Set(section.items.compactMap { $0.metadata.first { $0.label == "File name" }?.value })
    }

    @Test(arguments: Engine.allCases)
    func everyFilterIsAppliedByTheIndex(engine: Engine) async throws {
        let library = try Self.library()
        defer { try? FileManager.default.removeItem(at: library) }
        try await engine.withEnvironment { environment in
            try await withTessera(
                StandInSet().list, extraEnvironment: environment.merging(["TESSERA_LIBRARY": library.path]) { $1 }
            ) { client, _ in
                // The server indexes its library as it starts: wait for all six.
                var all = try await section(client, "")
                for _ in 0..<500 where all.items.count < 6 {
                    try await Task.sleep(for: .milliseconds(20))
                    all = try await section(client, "")
                }
                #expect(all.items.count == 6)

                let black = try await section(client, "color=black")
                #expect(names(black).contains("hubble-extreme-deep-field.jpg"), "\(names(black))")
                #expect(!names(black).contains("chelsea-the-tabby-cat.jpg"), "a tabby cat on a brown blanket")
                #expect(black.filters == FilterReport(native: [.color], tessera: [], unsupported: []))
                #expect(black.error == nil && black.total == black.items.count, "the index's own count")

                let grayscale = try await section(client, "color=grayscale")
                #expect(names(grayscale) == ["photographer-with-camera-on-tripod.jpg"])
                #expect(try await section(client, "color=transparent").items.isEmpty, "every sample is a JPEG")

                // 512 × 512 (two of them), the others wider than 1.1 × their height.
                let square = try await section(client, "orientation=square")
                #expect(
                    names(square) == ["photographer-with-camera-on-tripod.jpg", "astronaut-eileen-collins.jpg"])
                #expect(square.total == 2)
                // Only the Deep Field (1000 × 872) is 640 px or more on its shorter side.
                #expect(names(try await section(client, "size=medium")) == ["hubble-extreme-deep-field.jpg"])
                #expect(try await section(client, "size=small").total == 5)

                #expect(try await section(client, "type=photo").total == 6)
                let vector = try await section(client, "type=vector")
                #expect(vector.items.isEmpty && vector.error == nil && vector.total == 0)
                #expect(vector.filters == FilterReport(native: [.type], tessera: [], unsupported: []))

                // The licences the items carry decide what `license` keeps: the filter and the items agree.
                let cc0 = all.items.filter { $0.license?.id == "cc0" }.compactMap {
                    $0.metadata.first { $0.label == "File name" }?.value
                }
                #expect(cc0.contains("photographer-with-camera-on-tripod.jpg"))
                let licensed = try await section(client, "license=cc0")
                #expect(names(licensed) == Set(cc0))
                let commercial = try await section(client, "license=commercial,modification")
                let free = all.items.filter {
                    $0.license?.allowsCommercialUse == true && $0.license?.allowsModification == true
                }
                #expect(commercial.total == free.count && !free.isEmpty)

                let combined = try await section(client, "orientation=square&color=grayscale&license=cc0&size=small")
                #expect(names(combined) == ["photographer-with-camera-on-tripod.jpg"])
                #expect(
                    combined.filters
                        == FilterReport(native: [.license, .orientation, .size, .color], tessera: [], unsupported: []))
            }
        }
    }
}
