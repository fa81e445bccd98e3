import AsyncHTTPClient
import Foundation
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// `tessera gallery`, run as a process on a data folder, with the providers stood in for. Durability of
/// `tessera serve` under SIGKILL is in GalleryDurabilityTests.swift (the same suite).
@Suite("tessera gallery, run as a process")
struct GalleryCommandTests {
    /// Stand-ins, a fresh data folder and a scratch folder; all removed afterwards.
    func withTessera(
        _ body: (_ environment: [String: String], _ scratch: URL, _ standIns: StandInServer) async throws -> Void
    ) async throws {
        let server = try await StandInServer.start([PixabayStandIn()])
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cli-\(UUID().uuidString)")
        let scratch = base.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        var environment = server.environment
        environment["TESSERA_DATA"] = base.appendingPathComponent("data").path
        environment["TESSERA_SOURCE_TIMEOUT"] = "10"
        defer { try? FileManager.default.removeItem(at: base) }
        do {
            try await body(environment, scratch, server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// `tessera gallery …`; an `add` asks to add near duplicates anyway, as these tests add variants of the one
    /// sample picture and results the stand-ins show as that picture (NearDuplicateCommandTests tests the refusal).
    func tessera(_ arguments: [String], _ environment: [String: String]) async throws -> CLIProcess.Result {
        let allow = arguments.first == "add" ? ["--allow-near-duplicate"] : []
        return try await CLIProcess.run(["gallery"] + arguments + allow, environment: environment)
    }

    /// A JPEG file; `variant` appends bytes after the image, so each variant is a different file to store.
    func writeJPEG(_ name: String, in folder: URL, variant: Int? = nil) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(StandInImage.jpeg + Array((variant.map { "variant \($0)" } ?? "").utf8)).write(to: url)
        return url
    }

    func decode<T: Decodable>(_ type: T.Type, _ result: CLIProcess.Result) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(result.stdout.utf8))
    }

    // MARK: - Commands

    @Test func createAddFromEveryKindOfSourceListAndExport() async throws {
        try await withTessera { environment, scratch, standIns in
            // Given a gallery, and a second one updated earlier.
            let created = try await tessera(["create", "  Moodboard ", "--json"], environment)
            #expect(created.status == 0, "\(created.stderr)")
            let moodboard = try decode(Gallery.self, created)
            #expect(moodboard.name == "Moodboard" && moodboard.items == [] && moodboard.id.rawValue.hasPrefix("g_"))
            #expect(created.stdout.contains(#""cover":null"#) && created.stdout.contains(#""items":[]"#))
            let trips = try await tessera(["create", "Trips"], environment)
            #expect(trips.status == 0 && trips.stdout.hasPrefix("Created \"Trips\" (g_"), "\(trips.stdout)")

            // When it gets an image by URL, a file, and a search result placed first.
            let url = "\(standIns.origin)/pixabay/cdn/fox_in-the.snow.jpg"
            let byURL = try await tessera(["add", "moodboard", url], environment)
            #expect(byURL.status == 0, "\(byURL.stderr)")
            #expect(byURL.stdout.hasPrefix("Added \"fox in the.snow\" to \"Moodboard\" at index 0 (gi_"))
            let file = try writeJPEG("sunset_over-the-sea.jpg", in: scratch)
            let byFile = try await tessera(["add", moodboard.id.rawValue, file.path, "--json"], environment)
            #expect(byFile.status == 0, "\(byFile.stderr)")
            let uploaded = try decode(GalleryItem.self, byFile)
            #expect(uploaded.item.source == .upload && uploaded.item.title == "sunset over the sea")
            #expect(uploaded.sourceURL == nil && byFile.stdout.contains(#""sourceURL":null"#))
            #expect(uploaded.size == StandInImage.jpeg.count)

            let search = try await CLIProcess.run(
                ["search", "fox", "--scope", "pixabay", "--json"], environment: environment)
            #expect(search.status == 0, "\(search.stderr)")
            let result = try #require(try decode(SearchResponse.self, search).sections.first?.items.first)
            let bySource = try await tessera(
                ["add", "MOODBOARD", result.id.description, "--index", "0", "--json"], environment)
            #expect(bySource.status == 0, "\(bySource.stderr)")
            let fromSource = try decode(GalleryItem.self, bySource)
            #expect(fromSource.item.id == result.id && fromSource.item.title == result.title)
            #expect(fromSource.sourceURL == result.pageURL)

            // Then the list shows it first, with three items, as a table and as the API's JSON.
            let json = try await tessera(["list", "--json"], environment)
            #expect(json.status == 0, "\(json.stderr)")
            let list = try decode([Gallery].self, json)
            #expect(list.map(\.name) == ["Moodboard", "Trips"])
            #expect(list.map(\.itemCount) == [3, 0] && list.allSatisfy { $0.items == nil })
            #expect(list.first?.cover == fromSource.image.thumbnail)
            let table = try await tessera(["list"], environment)
            #expect(table.status == 0, "\(table.stderr)")
            let lines = table.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(table.stdout)")
            #expect(lines.first?.hasPrefix("NAME       ITEMS  UPDATED") == true, "\(table.stdout)")
            let row = try #require(lines.dropFirst().first)
            #expect(row.hasPrefix("Moodboard      3  ") && row.hasSuffix("  \(moodboard.id)"), "\(row)")
            #expect(row.range(of: #"  \d{4}-\d\d-\d\d \d\d:\d\d  "#, options: .regularExpression) != nil, "\(row)")

            // And the export holds the images in the gallery's order, the credits, and gallery.json; the picture
            // added from an address has no licence Tessera knows, so its file stays out unless asked for.
            let zip = scratch.appendingPathComponent("moodboard.zip")
            let export = try await tessera(["export", "Moodboard", zip.path], environment)
            #expect(export.status == 0, "\(export.stderr)")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: zip.path)[.size] as? Int)
            let said = export.stdout.split(separator: "\n").map(String.init)
            #expect(said.first?.contains("(3 images) to \(zip.path) (") == true, "\(export.stdout)")
            #expect(said.first?.hasSuffix(" KB)") == true || said.first?.hasSuffix(" bytes)") == true, "\(size)")
            #expect(
                said.dropFirst().first
                    == "1 picture may not be shared (all rights reserved or an unknown licence): its file was left out;"
                    + " CREDITS.txt lists it with the source page.", "\(export.stdout)")
            let archive = try await ZipCheck.run(zip, uploaded: file)
            #expect(archive.bad == nil)
            #expect(
                archive.names.count == 5 && archive.names.suffix(3) == ["CREDITS.txt", "credits.html", "gallery.json"],
                "\(archive.names)")
            #expect(archive.names.first?.hasPrefix("images/001-") == true)
            #expect(archive.names[1] == "images/003-sunset-over-the-sea.jpg")
            #expect(archive.files == [archive.names[0], nil, archive.names[1]])
            #expect(archive.items.count == 3 && archive.items.first == result.id.description)
            #expect(archive.items.dropFirst().first?.hasPrefix("web:") == true)
            #expect(archive.items.last == uploaded.item.id.description)
            #expect(archive.name == "Moodboard" && archive.uploadMatches)

            // The owner's private copy has every file, and says what it is.
            let full = try await tessera(["export", "Moodboard", zip.path, "--include-restricted"], environment)
            #expect(full.status == 0, "\(full.stderr)")
            #expect(full.stdout.contains("This is a private copy"), "\(full.stdout)")
            let everything = try await ZipCheck.run(zip, uploaded: file)
            #expect(
                Array(everything.names[1...2]) == [
                    "images/002-fox-in-the-snow.jpg", "images/003-sunset-over-the-sea.jpg",
                ])
            #expect(everything.files == Array(everything.names.prefix(3)) && everything.uploadMatches)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
            #expect(Set(leftovers) == ["moodboard.zip", "sunset_over-the-sea.jpg"], "no temporary file left")
        }
    }

    @Test func indexPlacesEachItem() async throws {
        try await withTessera { environment, scratch, _ in
            let gallery = try decode(Gallery.self, try await tessera(["create", "Order", "--json"], environment))
            var ids: [String] = []
            for (variant, index) in [(1, nil), (2, nil), (3, "1"), (4, "0"), (5, "99")] as [(Int, String?)] {
                let file = try writeJPEG("image-\(variant).jpg", in: scratch, variant: variant)
                let added = try await tessera(
                    ["add", "Order", file.path, "--json"] + (index.map { ["--index", $0] } ?? []), environment)
                #expect(added.status == 0, "\(added.stderr)")
                let item = try decode(GalleryItem.self, added)
                ids.insert(item.id.rawValue, at: min(index.flatMap { Int($0) } ?? ids.count, ids.count))
            }
            let export = scratch.appendingPathComponent("order.zip")
            #expect(try await tessera(["export", gallery.id.rawValue, export.path], environment).status == 0)
            let archive = try await ZipCheck.run(export, uploaded: nil)
            #expect(archive.ids == ids)
            #expect(
                archive.names.prefix(5).map { String($0.prefix(15)) } == [
                    "images/001-imag", "images/002-imag", "images/003-imag", "images/004-imag", "images/005-imag",
                ])

        }
    }

    @Test func galleriesInRecentlyDeletedAreListedApartExportedButNotChanged() async throws {
        try await withTessera { environment, scratch, _ in
            let empty = try await tessera(["list", "--deleted"], environment)
            #expect(empty.status == 0 && empty.stdout == "Recently deleted is empty.\n")
            #expect(try await tessera(["list", "--deleted", "--json"], environment).stdout == "[]\n")
            let file = try writeJPEG("photo.jpg", in: scratch)
            #expect(try await tessera(["create", "Old"], environment).status == 0)
            #expect(try await tessera(["add", "Old", file.path], environment).status == 0)

            // Deleted through the API of a server running on the same data folder.
            let server = try await ServerProcess.start([], environment: environment)
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let api = TesseraAPI(client: client, port: server.port)
            let old = try #require(
                try decode([Gallery].self, try await tessera(["list", "--json"], environment)).first)
            let deleted = try await api.send("DELETE", "/api/galleries/\(old.id)")
            try await client.shutdown()
            #expect(await server.stop() == 0)
            #expect(deleted.status == 200, "\(deleted.text)")

            let live = try await tessera(["list"], environment)
            #expect(live.stdout.hasPrefix("No galleries yet"), "\(live.stdout)")
            let table = try await tessera(["list", "--deleted"], environment)
            #expect(table.stdout.hasPrefix("NAME  ITEMS  DELETED"), "\(table.stdout)")
            #expect(table.stdout.contains("Old       1  ") && table.stdout.contains(old.id.rawValue), "\(table.stdout)")

            let add = try await tessera(["add", "old", file.path], environment)
            #expect(add.status == 1 && add.stderr.contains("Recently deleted: restore it"), "\(add.stderr)")
            let zip = scratch.appendingPathComponent("old.zip")
            let export = try await tessera(["export", "old", zip.path], environment)
            #expect(export.status == 0, "\(export.stderr)")
            #expect(try await ZipCheck.run(zip, uploaded: nil).ids.count == 1)
        }
    }

    @Test func badInputExitsTwoWithTheReason() async throws {
        try await withTessera { environment, scratch, _ in
            let file = try writeJPEG("photo.jpg", in: scratch)
            let first = try decode(Gallery.self, try await tessera(["create", "Trips", "--json"], environment))
            let second = try decode(Gallery.self, try await tessera(["create", "trips", "--json"], environment))

            let ambiguous = try await tessera(["add", "TRIPS", file.path], environment)
            #expect(ambiguous.status == 2 && ambiguous.stdout.isEmpty)
            #expect(ambiguous.stderr.contains("2 galleries are named \"TRIPS\""), "\(ambiguous.stderr)")
            #expect(ambiguous.stderr.contains(first.id.rawValue) && ambiguous.stderr.contains(second.id.rawValue))
            #expect(
                try await tessera(["add", first.id.rawValue, file.path], environment).status == 0, "ids always work")

            let cases: [([String], String)] = [
                (["add", "Holidays", file.path], "There is no gallery \"Holidays\""),
                (["add", "g_aaaaaaaaaaaaaaaaaaaa", file.path], "There is no gallery \"g_aaaaaaaaaaaaaaaaaaaa\""),
                (["export", "Holidays", scratch.appendingPathComponent("x.zip").path], "There is no gallery"),
                (["add", first.id.rawValue, file.path, "--index", "-1"], "The index must be 0 or more"),
                (["add", first.id.rawValue, file.path, "--index", "last"], "--index must be a whole number"),
                (["add", first.id.rawValue, "nowhere/photo.jpg"], "is not an http(s) address, a file, or an item id"),
                (["add", first.id.rawValue, "upload:abc"], "is not an item of a source Tessera searches"),
                (["add", first.id.rawValue, scratch.path], "is a folder, not an image file"),
                (["create", "   "], "A gallery name is 1 to 100 characters"),
                (
                    ["export", first.id.rawValue, scratch.appendingPathComponent("no/such/x.zip").path],
                    "There is no folder"
                ),
                (["export", first.id.rawValue, scratch.path], "is a folder; name the ZIP file"),
            ]
            for (arguments, reason) in cases {
                let result = try await tessera(arguments, environment)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(reason), "\(arguments): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(arguments)")
            }
        }
    }

    @Test func failuresExitOneWithTheReason() async throws {
        try await withTessera { environment, scratch, standIns in
            let gallery = try decode(Gallery.self, try await tessera(["create", "Mixed", "--json"], environment))
            let text = scratch.appendingPathComponent("notes.jpg")
            try Data("just some text".utf8).write(to: text)
            let notAnImage = try await tessera(["add", "Mixed", text.path], environment)
            #expect(notAnImage.status == 1 && notAnImage.stdout.isEmpty)
            #expect(notAnImage.stderr.contains("This is not an image Tessera can read"), "\(notAnImage.stderr)")

            var small = environment
            small["TESSERA_IMAGE_MAX_MB"] = "1"
            let big = scratch.appendingPathComponent("big.jpg")
            try Data(StandInImage.jpeg + [UInt8](repeating: 0, count: 1_200_000)).write(to: big)
            let tooBig = try await tessera(["add", "Mixed", big.path], small)
            #expect(tooBig.status == 1)
            #expect(tooBig.stderr.contains("big.jpg is larger than 1 MB"), "\(tooBig.stderr)")

            let refused = try await tessera(["add", "Mixed", "http://10.0.0.1/private.jpg"], environment)
            #expect(refused.status == 1 && refused.stderr.hasPrefix("error: "), "\(refused.stderr)")
            let missing = try await tessera(["add", "Mixed", "\(standIns.origin)/nothing-here.jpg"], environment)
            #expect(missing.status == 1, "\(missing.stderr)")

            let list = try decode([Gallery].self, try await tessera(["list", "--json"], environment))
            #expect(list.map(\.itemCount) == [0] && list.first?.id == gallery.id, "nothing was added")
        }
    }
}

/// What Python's zipfile makes of an export: an independent reader checks the archive.
struct ZipCheck: Decodable {
    let bad: String?
    let names: [String]
    let name: String
    /// The items' source ids and files, from gallery.json, in order.
    let items: [String]
    let ids: [String]
    /// `nil` for an item whose file was left out (restricted).
    let files: [String?]
    /// Whether the last item's file is the uploaded file, byte for byte.
    let uploadMatches: Bool

    static let script = """
        import json, sys, zipfile
        z = zipfile.ZipFile(sys.argv[1])
        bad = z.testzip()
        manifest = json.loads(z.read("gallery.json"))
        names = z.namelist()
        last = manifest["items"][-1].get("file") if manifest["items"] else None
        upload = len(sys.argv) > 2 and last is not None and z.read(last) == open(sys.argv[2], "rb").read()
        print(json.dumps({"bad": bad, "names": names, "name": manifest["name"],
            "items": [i["item"]["id"] for i in manifest["items"]], "ids": [i["id"] for i in manifest["items"]],
            "files": [i.get("file") for i in manifest["items"]], "uploadMatches": upload}))
        """

    static func run(_ zip: URL, uploaded: URL?) async throws -> ZipCheck {
        let result = try await ToolProcess.run(
            "/usr/bin/python3", ["-c", script, zip.path] + (uploaded.map { [$0.path] } ?? []))
        guard result.status == 0 else { throw ToolProcess.Failed(result.stderr) }
        return try JSONDecoder().decode(ZipCheck.self, from: Data(result.stdout.utf8))
    }
}

/// Another program run to completion, its output through temporary files (see `CLIProcess` for why).
enum ToolProcess {
    struct Failed: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func run(_ executable: String, _ arguments: [String]) async throws -> CLIProcess.Result {
        try await SpawnedProcess.run(executable, arguments)
    }
}
