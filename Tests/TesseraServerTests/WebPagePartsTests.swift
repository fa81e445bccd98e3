import Foundation
import Testing

@testable import TesseraServer

/// The markup pages share, written once as parts and put into the pages at start (`WebAssets+Pages.swift`).
@Suite("The pages' shared parts")
struct WebPagePartsTests {
    private let part = Data(
        """
        <!-- The detail view, on every page that shows an item. -->
        <button>{{back}}</button>
          {{#app}}<nav>steps</nav>{{/app}}
        <p>always</p>

        """.utf8)

    private func page(_ include: String) -> Data {
        Data("<body>\n  <!-- include detail/detail.html \(include) -->\n</body>".utf8)
    }

    private func assembled(_ include: String) throws -> String {
        let body = try WebAssets.assemble(page(include), at: "index.html", parts: ["detail/detail.html": part])
        return String(decoding: body, as: UTF8.self)
    }

    @Test func anIncludeLineBecomesThePartWithItsValuesAndTheSectionsItNames() throws {
        #expect(
            try assembled(#"back="Back to results" app"#)
                == "<body>\n<button>Back to results</button>\n  <nav>steps</nav>\n<p>always</p>\n</body>")
        #expect(
            try assembled(#"back="Back to the gallery""#)
                == "<body>\n<button>Back to the gallery</button>\n<p>always</p>\n</body>",
            "a section the line does not name is left out")
    }

    @Test func aMissingPartAValueNotGivenOrOneNotUsedStopsTheStartNamingThePage() throws {
        let missing = #expect(throws: WebAssetsError.self) {
            try WebAssets.assemble(self.page(#"back="x" app"#), at: "public.html", parts: [:])
        }
        #expect(missing?.description.contains("public.html") == true)
        #expect(missing?.description.contains("detail/detail.html, which is not there") == true)
        let notGiven = #expect(throws: WebAssetsError.self) { try self.assembled("app") }
        #expect(notGiven?.description.contains("wants back") == true)
        let notUsed = #expect(throws: WebAssetsError.self) { try self.assembled(#"back="x" title="y" app"#) }
        #expect(notUsed?.description.contains("title, which the part does not use") == true)
    }

    @Test func aPartIsPutInOnceAndNotServedOnItsOwn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-web-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("detail"), withIntermediateDirectories: true)
        try page(#"back="Back" app"#).write(to: folder.appendingPathComponent("index.html"))
        try part.write(to: folder.appendingPathComponent("detail/detail.html"))
        let contents = [("index.html", page(#"back="Back" app"#)), ("detail/detail.html", part)]
        #expect(WebAssets.parts(of: contents.map { (path: $0.0, data: $0.1) }) == ["detail/detail.html"])
        _ = try WebAssets(folder: folder)
        try Data("<body>\n<!-- include detail/gone.html -->\n</body>".utf8)
            .write(to: folder.appendingPathComponent("index.html"))
        let error = #expect(throws: WebAssetsError.self) { try WebAssets(folder: folder) }
        #expect(error?.description.contains("index.html") == true)
    }
}
