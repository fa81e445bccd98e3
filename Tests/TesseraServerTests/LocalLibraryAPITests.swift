import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraCore
import TesseraImageProxy
import TesseraTestSupport
import Testing

@Suite("The local library over HTTP")
struct LocalLibraryAPITests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    /// A copy of the samples, so the test owns its folder.
    static func libraryCopy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-lib-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: samples, to: folder)
        return folder
    }

    /// Searches `local` until the start-up indexing has found something.
    static func search(_ client: any TestClientProtocol, _ query: String) async throws -> SectionResult {
        for _ in 0..<300 {
            let body = try await client.execute(uri: "/api/search?q=\(query)&scope=local", method: .get)
                .json(SearchResponse.self)
            if let section = body.sections.first, !section.items.isEmpty { return section }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw CancellationError()
    }

    @Test(arguments: Engine.allCases)
    func theServerIndexesItsLibraryAndServesItsPhotosThroughTheProxy(engine: Engine) async throws {
        let library = try Self.libraryCopy()
        defer { try? FileManager.default.removeItem(at: library) }
        try await engine.withEnvironment { environment in
            try await withTessera(
                StandInSet().list, extraEnvironment: environment.merging(["TESSERA_LIBRARY": library.path]) { $1 }
            ) { client, _ in
                let section = try await Self.search(client, "tabb")  // a prefix of "tabby"
                #expect(section.id == .local)
                let item = try #require(section.items.first)
                #expect(item.id.source == .local)
                #expect(item.tags.contains("pets"), "folder names are tags: \(item.tags)")
                let thumbnail = try #require(item.thumbnail)
                #expect(max(thumbnail.width ?? 0, thumbnail.height ?? 0) <= 400)

                let image = try await client.execute(uri: thumbnail.url, method: .get, headers: [.accept: "image/jpeg"])
                #expect(image.status == .ok)
                #expect(image.headers[.contentType] == "image/jpeg")
                #expect(Array(image.body.readableBytesView.prefix(2)) == [0xFF, 0xD8])

                let full = try #require(item.full)
                let original = try await client.execute(uri: full.url, method: .get)
                #expect(original.status == .ok)
                let onDisk = try Data(contentsOf: library.appendingPathComponent("Pets/chelsea-the-tabby-cat.jpg"))
                #expect(Data(original.body.readableBytesView) == onDisk, "the original is the file's bytes")

                let byID = try await client.execute(uri: "/api/items/local/\(item.id.nativeID)", method: .get)
                #expect(byID.status == .ok)
            }
        }
    }

    @Test func aSignedReferenceOutsideTheLibraryIsRefused() async throws {
        let library = try Self.libraryCopy()
        defer { try? FileManager.default.removeItem(at: library) }
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString).jpg")
        try Data(StandInImage.jpeg).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createSymbolicLink(
            at: library.appendingPathComponent("escape.jpg"), withDestinationURL: outside)
        let secret = "local-library-test-secret"
        let key = try ImageSecret.load(configured: secret, dataDirectory: FileManager.default.temporaryDirectory)
        let signer = ImageURLSigner(secret: key)
        let environment = ["TESSERA_LIBRARY": library.path, "TESSERA_SECRET": secret]
        try await withTessera(StandInSet().list, extraEnvironment: environment) { client, _ in
            let references = [
                "local:\(outside.path)?v=1-1",  // a file outside every library folder
                "local:\(library.path)/escape.jpg?v=1-1",  // a symlink inside pointing out
                "local:\(library.path)/../\(outside.lastPathComponent)?v=1-1",  // dot-dot
                "local:/etc/passwd?v=1-1",
            ]
            for reference in references {
                for variant in [ImageVariant.thumb, .original] {
                    let response = try await client.execute(uri: signer.link(reference, variant: variant), method: .get)
                    #expect(response.status == .forbidden || response.status == .notFound, "\(reference)")
                    #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                }
            }
            let missing = try await client.execute(
                uri: signer.link("local:\(library.path)/Pets/nothing.jpg?v=1-1", variant: .thumb), method: .get)
            #expect(missing.status == .notFound)
        }
    }
}
