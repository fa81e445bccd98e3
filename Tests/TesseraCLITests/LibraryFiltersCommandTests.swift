import Foundation
import TesseraCore
import Testing

/// `tessera search --scope local` with filters, as a process: the index applies them (docs/filters.md).
@Suite("tessera search filters over the library, run as a process")
struct LibraryFiltersCommandTests {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    @Test func theLibraryIsFilteredByItsIndex() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let library = base.appendingPathComponent("Photos")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        for folder in ["Cafe", "Pets", "People", "Space"] {
            try FileManager.default.copyItem(
                at: Self.samples.appendingPathComponent(folder), to: library.appendingPathComponent(folder))
        }
        let environment = [
            "TESSERA_DATA": base.appendingPathComponent("data").path, "TESSERA_LIBRARY": library.path,
            "TESSERA_SOURCE_TIMEOUT": "10",
        ]
        let index = try await CLIProcess.run(["library", "index", library.path], environment: environment)
        #expect(index.status == 0, "\(index.stderr)")

        func search(_ arguments: [String]) async throws -> SectionResult {
            let result = try await CLIProcess.run(
                ["search", "space", "--scope", "local", "--json"] + arguments, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            let response = try JSONDecoder().decode(SearchResponse.self, from: Data(result.stdout.utf8))
            return try #require(response.sections.first)
        }
        let all = try await search([])
        #expect(all.total == 3, "the astronaut, the rocket and the Deep Field")
        let black = try await search(["--color", "black"])
        #expect(black.filters == FilterReport(native: [.color], tessera: [], unsupported: []))
        let names = black.items.compactMap { $0.metadata.first { $0.label == "File name" }?.value }
        #expect(names.contains("hubble-extreme-deep-field.jpg"), "\(names)")
        #expect(black.total == black.items.count)
        let square = try await search(["--orientation", "square", "--size", "small"])
        #expect(square.total == 1, "the astronaut, 512 × 512")
        let vector = try await search(["--type", "vector"])
        #expect(vector.total == 0 && vector.error == nil)

        let table = try await CLIProcess.run(
            ["search", "space", "--scope", "local", "--orientation", "square"], environment: environment)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("1 results"), "\(table.stdout)")
    }
}
