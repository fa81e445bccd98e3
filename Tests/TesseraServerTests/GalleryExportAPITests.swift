import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// The export over real HTTP: a ZIP of the stored images in order, the credits (CREDITS.txt, credits.html)
/// and gallery.json, read back with Python.
@Suite("Gallery export over HTTP")
struct GalleryExportAPITests {
    typealias API = GalleriesAPITests

    @Test func theExportIsAZipOfTheImagesAndGalleryJSON() async throws {
        try await withTessera(StandInSet().list) { client, _ in
            let gallery = try await API.create(client, "Sea & Sky")
            let item = try await API.firstResult(client)
            try await API.add(client, gallery.id, json: try API.itemJSON(item))
            let (headers, body) = API.multipart(StandInImage.jpeg, fileName: "dunes.jpg")
            _ = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/items", method: .post, headers: headers, body: body)

            let export = try await client.execute(uri: "/api/galleries/\(gallery.id)/export", method: .get)
            #expect(export.status == .ok)
            #expect(export.headers[.contentType] == "application/zip")
            #expect(export.headers[.contentDisposition] == "attachment; filename=\"sea-sky.zip\"")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID()).zip")
            defer { try? FileManager.default.removeItem(at: file) }
            try Data(export.body.readableBytesView).write(to: file)
            // Python's zipfile, an independent reader, checks every CRC and reads gallery.json.
            let script = """
                import json, sys, zipfile
                z = zipfile.ZipFile(sys.argv[1])
                assert z.testzip() is None
                manifest = json.loads(z.read('gallery.json'))
                print(json.dumps({'names': z.namelist(), 'files': [i['file'] for i in manifest['items']],
                  'name': manifest['name'], 'jpeg': [z.read(i['file'])[:3].hex() for i in manifest['items']],
                  'credits': z.read('CREDITS.txt').decode('utf-8'),
                  'creditsPage': z.read('credits.html').decode('utf-8')}))
                """
            let output = try await runPython(script, file.path)
            struct Listing: Decodable {
                let names: [String]
                let files: [String]
                let name: String
                let jpeg: [String]
                let credits: String
                let creditsPage: String
            }
            let listing = try JSONDecoder().decode(Listing.self, from: Data(output.utf8))
            #expect(listing.name == "Sea & Sky")
            #expect(listing.files.count == 2)
            #expect(listing.files[1] == "images/002-dunes.jpg")
            #expect(listing.names == listing.files + ["CREDITS.txt", "credits.html", "gallery.json"])
            #expect(listing.jpeg == ["ffd8ff", "ffd8ff"])

            // The credits are the API's, item by item in the gallery's order.
            let credits = try await client.execute(
                uri: "/api/galleries/\(gallery.id)/credits?format=text", method: .get)
            #expect(listing.credits == credits.text)
            let lines = listing.credits.split(separator: "\n").map(String.init)
            #expect(lines.first == "Credits for “Sea & Sky”")
            #expect(lines.contains("1. \(Attribution(item: item).text)"))
            #expect(
                lines.contains { $0.hasPrefix("2. “dunes” is under an unknown licence: ask the creator") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("Warning: 1 of 2 items has an unknown licence") })
            let page = try await client.execute(uri: "/api/galleries/\(gallery.id)/credits?format=html", method: .get)
            #expect(listing.creditsPage == page.text)
            #expect(listing.creditsPage.contains("<h1>Credits for “Sea &amp; Sky”</h1>"))
            #expect(listing.creditsPage.components(separatedBy: "<p class=\"attribution\">").count == 3)
        }
    }

    func runPython(_ script: String, _ argument: String) async throws -> String {
        let finished = try await SpawnedProcess.run("/usr/bin/python3", ["-c", script, argument])
        #expect(finished.status == 0, "\(finished.stderr)")
        return finished.stdout
    }
}
