import AsyncHTTPClient
import Foundation
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

/// An acknowledged write survives `kill -9` (docs/galleries.md). `tessera serve` runs as a process, is killed
/// with SIGKILL right after its last answer, and started again on the same data folder.
extension GalleryCommandTests {
    @Test func acknowledgedGalleryChangesSurviveSIGKILL() async throws {
        try await withTessera { environment, scratch, standIns in
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            var server = try await ServerProcess.start([], environment: environment)
            do {
                var api = TesseraAPI(client: client, port: server.port)
                let gallery = try await api.json(
                    Gallery.self, api.send("POST", "/api/galleries", json: #"{"name":"Kept"}"#), 201)
                let path = "/api/galleries/\(gallery.id)/items"
                var expected = ExpectedGallery()

                // Given items from search results, a URL and uploads, each placed somewhere and answered 201.
                let search = try await api.json(
                    SearchResponse.self, api.send("GET", "/api/search?q=fox&scope=pixabay"), 200)
                let results = try #require(search.sections.first?.items).prefix(3)
                for (item, index) in zip(results, [nil, 0, 1] as [Int?]) {
                    let body = String(
                        decoding: try JSONEncoder().encode(TesseraAPI.AddItem(item: item, index: index)), as: UTF8.self)
                    let added = try await api.json(GalleryItem.self, api.send("POST", path, json: body), 201)
                    expected.insert(added.id.rawValue, at: index, bytes: StandInImage.jpeg)
                }
                let url = #"{"url":"\#(standIns.origin)/pixabay/cdn/imported.jpg","index":2,"allowNearDuplicate":true}"#
                let imported = try await api.json(GalleryItem.self, api.send("POST", path, json: url), 201)
                expected.insert(imported.id.rawValue, at: 2, bytes: StandInImage.jpeg)
                for (variant, index) in [(1, 0), (2, nil)] as [(Int, Int?)] {
                    let bytes = StandInImage.jpeg + Array("variant \(variant)".utf8)
                    let uploaded = try await api.json(
                        GalleryItem.self, api.upload(path, bytes, fileName: "upload-\(variant).jpg", index: index), 201)
                    expected.insert(uploaded.id.rawValue, at: index, bytes: bytes)
                }
                // And one moved, answered 200.
                let moving = expected.ids[4]
                let move = try await api.send("POST", "\(path)/\(moving)/move", json: #"{"index":1}"#)
                #expect(move.status == 200, "\(move.text)")
                expected.move(moving, to: 1)

                // When the server is killed at once, then started again on the same data folder.
                #expect(await server.stop(signal: SIGKILL) == SIGKILL, "killed, not shut down")
                server = try await ServerProcess.start([], environment: environment)
                api = TesseraAPI(client: client, port: server.port)

                // Then every acknowledged item is there, in the acknowledged order, with its stored image.
                let requestsBefore = standIns.totalImageRequests
                try await expected.check(gallery.id, api)
                #expect(standIns.totalImageRequests == requestsBefore, "served from the stored copies")

                // The same after an upload: killed right after the 201.
                let bytes = StandInImage.jpeg + Array("variant 3".utf8)
                let last = try await api.json(
                    GalleryItem.self, api.upload(path, bytes, fileName: "upload-3.jpg", index: 3), 201)
                expected.insert(last.id.rawValue, at: 3, bytes: bytes)
                #expect(await server.stop(signal: SIGKILL) == SIGKILL, "killed, not shut down")
                server = try await ServerProcess.start([], environment: environment)
                api = TesseraAPI(client: client, port: server.port)
                try await expected.check(gallery.id, api)

                // While the server runs, the CLI works on the same data folder and prints the API's bytes.
                let listed = try await CLIProcess.run(["gallery", "list", "--json"], environment: environment)
                #expect(listed.status == 0, "\(listed.stderr)")
                let fromAPI = try await api.send("GET", "/api/galleries")
                #expect(listed.stdout == fromAPI.text + "\n")
                let file = try writeJPEG("from-cli.jpg", in: scratch, variant: 4)
                let added = try await CLIProcess.run(
                    ["gallery", "add", "kept", file.path, "--json", "--allow-near-duplicate"], environment: environment)
                #expect(added.status == 0, "\(added.stderr)")
                expected.insert(
                    try decode(GalleryItem.self, added).id.rawValue, at: nil, bytes: Array(try Data(contentsOf: file)))
                try await expected.check(gallery.id, api)
            } catch {
                _ = await server.stop()
                try await client.shutdown()
                throw error
            }
            #expect(await server.stop() == 0)
            try await client.shutdown()
        }
    }
}

/// The order and bytes the server acknowledged, kept by the test as it goes.
struct ExpectedGallery {
    private(set) var ids: [String] = []
    private var bytes: [String: [UInt8]] = [:]

    /// Where the API puts an item: at `index`, or at the end when it is missing or past the end.
    mutating func insert(_ id: String, at index: Int?, bytes: [UInt8]) {
        ids.insert(id, at: min(index ?? ids.count, ids.count))
        self.bytes[id] = bytes
    }

    mutating func move(_ id: String, to index: Int) {
        ids.removeAll { $0 == id }
        ids.insert(id, at: min(index, ids.count))
    }

    func check(_ galleryID: GalleryID, _ api: TesseraAPI) async throws {
        let gallery = try await api.json(Gallery.self, api.send("GET", "/api/galleries/\(galleryID)"), 200)
        #expect(gallery.items?.map(\.id.rawValue) == ids)
        #expect(gallery.itemCount == ids.count && gallery.revision == ids.count + 2, "created, items, one move")
        for item in gallery.items ?? [] {
            let image = try await api.send("GET", item.image.original.url)
            #expect(image.status == 200, "\(item.id): \(image.text.prefix(200))")
            #expect(image.body == bytes[item.id.rawValue], "\(item.id)")
        }
    }
}

/// Requests to a running `tessera serve`.
struct TesseraAPI {
    let client: HTTPClient
    let port: Int

    struct Answer {
        let status: UInt
        let body: [UInt8]
        /// The revision the answer's ETag names, if it has one.
        var revision: Int? = nil
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// The stand-ins serve one picture everywhere: adding several results to a gallery asks to add anyway.
    struct AddItem: Encodable {
        let item: Item
        let index: Int?
        var allowNearDuplicate = true
    }

    func send(_ method: String, _ path: String, json: String? = nil) async throws -> Answer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .RAW(value: method)
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(Array(json.utf8))
        }
        return try await execute(request)
    }

    /// A multipart/form-data upload, as the web app sends it; asking to add near duplicates anyway unless told
    /// otherwise, since the tests upload variants of one sample picture (docs/galleries.md, "Near duplicates").
    func upload(
        _ path: String, _ file: [UInt8], fileName: String, index: Int?, allowNearDuplicate: Bool = true
    ) async throws -> Answer {
        let boundary = "tessera-\(UUID().uuidString)"
        var body = Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"allowNearDuplicate\"\r\n\r\n\(allowNearDuplicate)\r\n"
                .utf8)
        if let index {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"index\"\r\n\r\n\(index)\r\n".utf8)
        }
        body += Array(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\n"
                + "Content-Type: image/jpeg\r\n\r\n").utf8)
        body += file + Array("\r\n--\(boundary)--\r\n".utf8)
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        request.body = .bytes(body)
        return try await execute(request)
    }

    func json<T: Decodable>(_ type: T.Type, _ answer: Answer, _ status: UInt) throws -> T {
        #expect(answer.status == status, "\(answer.text.prefix(300))")
        return try JSONDecoder().decode(T.self, from: Data(answer.body))
    }

    private func execute(_ request: HTTPClientRequest) async throws -> Answer {
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 50 * 1024 * 1024)
        let revision = response.headers.first(name: "ETag").flatMap { Int($0.trimmingCharacters(in: ["\""])) }
        return Answer(status: response.status.code, body: Array(body.readableBytesView), revision: revision)
    }
}
