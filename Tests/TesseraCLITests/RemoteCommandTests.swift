import Foundation
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// `tessera search`, `library search` and `gallery …` with `--server` (or `TESSERA_SERVER`): the same
/// commands against a running `tessera serve` through TesseraClient, printing what the local forms print.
/// Both forms share one data folder (so one image-signing secret) and the same stand-ins.
@Suite("tessera --server, run as processes")
struct RemoteCommandTests {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    /// Stand-ins, a data folder, a scratch folder and a running server on them; `local` is the environment
    /// of the local form, `server` the URL of the running one.
    func withServer(
        token: String? = nil, library: Bool = false,
        _ body: (_ local: [String: String], _ server: String, _ scratch: URL) async throws -> Void
    ) async throws {
        let standIns = try await StandInServer.start(StandInSet().list)
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cli-\(UUID().uuidString)")
        let scratch = base.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        var environment = standIns.environment
        environment["TESSERA_DATA"] = base.appendingPathComponent("data").path
        environment["TESSERA_SOURCE_TIMEOUT"] = "10"
        if let token { environment["TESSERA_TOKEN"] = token }
        if library {
            let photos = base.appendingPathComponent("Photos")
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            for folder in ["Cafe", "Pets", "Space"] {
                try FileManager.default.copyItem(
                    at: Self.samples.appendingPathComponent(folder), to: photos.appendingPathComponent(folder))
            }
            environment["TESSERA_LIBRARY"] = photos.path
            let index = try await CLIProcess.run(["library", "index", photos.path], environment: environment)
            #expect(index.status == 0, "\(index.stderr)")
        }
        let server: ServerProcess
        do {
            server = try await ServerProcess.start([], environment: environment)
        } catch {
            await standIns.stop()
            throw error
        }
        do {
            try await body(environment, "http://127.0.0.1:\(server.port)", scratch)
        } catch {
            _ = await server.stop()
            await standIns.stop()
            throw error
        }
        #expect(await server.stop() == 0)
        await standIns.stop()
    }

    /// Runs `arguments` locally and with `--server`; both must succeed with the same output.
    func same(_ arguments: [String], _ local: [String: String], _ server: String) async throws -> String {
        let here = try await CLIProcess.run(arguments, environment: local)
        let there = try await CLIProcess.run(arguments + ["--server", server], environment: local)
        #expect(here.status == 0, "local \(arguments): \(here.stderr)")
        #expect(there.status == 0, "--server \(arguments): \(there.stderr)")
        #expect(here.stdout == there.stdout, "\(arguments)")
        return there.stdout
    }

    @Test func searchPrintsTheSameJSONAndTable() async throws {
        try await withServer { local, server, _ in
            let json = try await same(["search", "snow leopard", "--json"], local, server)
            let response = try JSONDecoder().decode(SearchResponse.self, from: Data(json.utf8))
            #expect(response.sections.count == 8 && response.sections.allSatisfy { $0.items.count == 20 })
            _ = try await same(["search", "heron", "--scope", "pixabay", "--page", "2"], local, server)
            // Each picture once: Openverse's copies of Flickr photos fold under them, from the server's groups.
            #expect(!(response.groups ?? []).isEmpty)
            let table = try await same(["search", "snow leopard"], local, server)
            #expect(table.contains("        also on Openverse") && table.contains("copies of pictures listed under"))
            // Filters reach the server, and its per-section report comes back the same.
            let filtered = try await same(
                [
                    "search", "heron", "--license", "commercial", "--orientation", "landscape", "--color", "red",
                    "--type", "photo", "--size", "medium", "--json",
                ], local, server)
            #expect(filtered.contains(#""unsupported":["color"]"#) && filtered.contains("unsupported_filter"))
            // Only what a person may use, through the server as locally.
            let reusable = try await same(["search", "heron", "--license", "reusable", "--json"], local, server)
            let kept = try JSONDecoder().decode(SearchResponse.self, from: Data(reusable.utf8)).sections.flatMap(
                \.items)
            #expect(!kept.isEmpty && kept.allSatisfy { $0.license?.allowsReuse == true })

            // TESSERA_SERVER instead of the flag.
            var remote = local
            remote["TESSERA_SERVER"] = server
            let viaEnvironment = try await CLIProcess.run(["search", "snow leopard", "--json"], environment: remote)
            #expect(viaEnvironment.status == 0 && viaEnvironment.stdout == json)

            // Bad input is refused before anything is asked, as locally.
            let bad = try await CLIProcess.run(["search", "  ", "--server", server], environment: local)
            #expect(bad.status == 2)
        }
    }

    @Test func librarySearchPrintsTheSameResultsWithSignedImageURLs() async throws {
        try await withServer(library: true) { local, server, _ in
            _ = try await same(["library", "search", "tabby"], local, server)
            let here = try await CLIProcess.run(["library", "search", "cat", "--json"], environment: local)
            let there = try await CLIProcess.run(
                ["library", "search", "cat", "--json", "--server", server], environment: local)
            #expect(here.status == 0 && there.status == 0, "\(here.stderr) \(there.stderr)")
            let fromHere = try JSONDecoder().decode(SearchResponse.self, from: Data(here.stdout.utf8))
            let fromThere = try JSONDecoder().decode(SearchResponse.self, from: Data(there.stdout.utf8))
            #expect(fromThere.sections.map(\.id) == [.local] && fromThere.sections[0].items.count > 0)
            // The same items in the same order; only the image addresses differ: local references here,
            // the server's signed /img/ URLs there.
            #expect(Self.withoutImages(fromHere) == Self.withoutImages(fromThere))
            let urls = fromThere.sections[0].items.compactMap(\.thumbnail?.url)
            #expect(!urls.isEmpty && urls.allSatisfy { $0.hasPrefix("/img/") })
        }
    }

    @Test func galleryCommandsPrintTheSameAsLocally() async throws {
        try await withServer { local, server, scratch in
            let created = try await CLIProcess.run(
                ["gallery", "create", "Trip", "--json", "--server", server], environment: local)
            #expect(created.status == 0, "\(created.stderr)")
            let gallery = try JSONDecoder().decode(Gallery.self, from: Data(created.stdout.utf8))
            #expect(gallery.name == "Trip" && gallery.revision == 1)

            let photo = scratch.appendingPathComponent("beach.jpg")
            try Data(StandInImage.jpeg).write(to: photo)
            let uploaded = try await CLIProcess.run(
                ["gallery", "add", "trip", photo.path, "--json", "--server", server], environment: local)
            #expect(uploaded.status == 0, "\(uploaded.stderr)")
            let item = try JSONDecoder().decode(GalleryItem.self, from: Data(uploaded.stdout.utf8))
            #expect(item.item.source == .upload && item.size == StandInImage.jpeg.count)

            let search = try await CLIProcess.run(
                ["search", "fox", "--scope", "pixabay", "--json"], environment: local)
            let first = try #require(
                try JSONDecoder().decode(SearchResponse.self, from: Data(search.stdout.utf8)).sections.first?.items
                    .first)
            let added = try await CLIProcess.run(
                [
                    "gallery", "add", gallery.id.rawValue, first.id.description, "--index", "0", "--server", server,
                    "--allow-near-duplicate",
                ],
                environment: local)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.hasPrefix("Added \"\(first.title)\" to \"Trip\" at index 0"), "\(added.stdout)")
            // A store's artwork: all rights reserved, so restricted.
            let films = try await CLIProcess.run(["search", "fox", "--scope", "movies", "--json"], environment: local)
            let film = try #require(
                try JSONDecoder().decode(SearchResponse.self, from: Data(films.stdout.utf8)).sections.first?.items.first
            )
            let store = try await CLIProcess.run(
                ["gallery", "add", "Trip", film.id.description, "--server", server, "--allow-near-duplicate"],
                environment: local)
            #expect(store.status == 0, "\(store.stderr)")

            // The same data folder seen both ways: the same lists, byte for byte.
            let list = try await same(["gallery", "list", "--json"], local, server)
            let listed = try JSONDecoder().decode([Gallery].self, from: Data(list.utf8))
            #expect(listed.map(\.itemCount) == [3])
            _ = try await same(["gallery", "list"], local, server)
            _ = try await same(["gallery", "list", "--deleted", "--json"], local, server)

            // Export: a ZIP file both ways, with the same report.
            let here = try await CLIProcess.run(
                ["gallery", "export", "Trip", scratch.appendingPathComponent("a.zip").path], environment: local)
            let there = try await CLIProcess.run(
                ["gallery", "export", "Trip", scratch.appendingPathComponent("b.zip").path, "--server", server],
                environment: local)
            #expect(here.status == 0 && there.status == 0, "\(here.stderr) \(there.stderr)")
            #expect(here.stdout.replacingOccurrences(of: "a.zip", with: "b.zip") == there.stdout)
            #expect(there.stdout.contains("\n1 picture may not be shared"), "\(there.stdout)")
            let zip = try Data(contentsOf: scratch.appendingPathComponent("b.zip"))
            #expect(zip.starts(with: [0x50, 0x4B, 0x03, 0x04]))
            let privately = try await CLIProcess.run(
                [
                    "gallery", "export", "Trip", scratch.appendingPathComponent("c.zip").path, "--include-restricted",
                    "--server", server,
                ], environment: local)
            #expect(privately.status == 0 && privately.stdout.contains("This is a private copy"), "\(privately.stdout)")
            let full = try Data(contentsOf: scratch.appendingPathComponent("c.zip"))
            #expect(full.count > zip.count, "the private copy holds the store's artwork too")

            // An unknown gallery is bad input with the same message.
            let missingHere = try await CLIProcess.run(["gallery", "export", "Nope", "x.zip"], environment: local)
            let missingThere = try await CLIProcess.run(
                ["gallery", "export", "Nope", "x.zip", "--server", server], environment: local)
            #expect(missingHere.status == 2 && missingThere.status == 2)
            #expect(missingHere.stderr == missingThere.stderr && missingThere.stderr.contains("There is no gallery"))
        }
    }

    @Test func anUnreachableServerOrAWrongTokenFailsWithTheReason() async throws {
        try await withServer(token: "right-token-1234567890") { local, server, _ in
            var wrong = local
            wrong["TESSERA_TOKEN"] = "wrong-token"
            let refused = try await CLIProcess.run(["gallery", "list", "--server", server], environment: wrong)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("refused the token"), "\(refused.stderr)")
            let allowed = try await CLIProcess.run(["gallery", "list", "--server", server], environment: local)
            #expect(allowed.status == 0, "\(allowed.stderr)")

            let nowhere = try await CLIProcess.run(
                ["search", "fox", "--server", "http://127.0.0.1:9"], environment: local)
            #expect(nowhere.status == 1)
            #expect(
                nowhere.stderr.contains("Could not reach the Tessera server at http://127.0.0.1:9"), "\(nowhere.stderr)"
            )
            let notAnAddress = try await CLIProcess.run(["search", "fox", "--server", "ftp://x"], environment: local)
            #expect(notAnAddress.status == 2 && notAnAddress.stderr.contains("http(s) address"))
        }
    }

    /// `response` with every image address blanked, for comparing items whose images are linked differently.
    static func withoutImages(_ response: SearchResponse) -> SearchResponse {
        var copy = response
        for s in copy.sections.indices {
            for i in copy.sections[s].items.indices {
                var item = copy.sections[s].items[i]
                item.thumbnail?.url = ""
                item.preview?.url = ""
                item.full?.url = ""
                item.sizes = item.sizes.map {
                    var size = $0; size.url = ""; return size
                }
                copy.sections[s].items[i] = item
            }
        }
        return copy
    }
}
