import AsyncHTTPClient
import Foundation
import GRDB
import PostgresNIO
import TesseraCore
import TesseraGalleries
import TesseraPostgres
import TesseraSQLite
import TesseraTestSupport
import Testing

/// `tessera migrate --to`, run as a process: data made through a real server on SQLite is copied into the
/// tests' PostgreSQL, twice, and a server on PostgreSQL then answers as the SQLite one did.
@Suite("tessera migrate, run as a process")
struct MigrateCommandTests {
    /// A data folder with a library folder of the sample photos, removed afterwards.
    struct Folders {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-migrate-\(UUID().uuidString)")
        var data: URL { base.appendingPathComponent("data") }
        var library: URL { base.appendingPathComponent("Photos") }
        var sqlite: [String: String] {
            ["TESSERA_DATA": data.path, "TESSERA_LIBRARY": library.path]
        }

        func make() throws {
            try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
            for folder in ["Cafe", "Pets", "People", "Space"] {
                try FileManager.default.copyItem(
                    at: ServePostgresTests.samples.appendingPathComponent(folder),
                    to: library.appendingPathComponent(folder))
            }
        }
    }

    /// What a server answers about the data: what must be the same on both engines.
    struct Seen: Equatable {
        var galleries: [Gallery] = []
        var deleted: [Gallery] = []
        var details: [Gallery] = []
        /// Each query's `local` results.
        var searches: [[Item]] = []
        /// Every gallery item's original, by its signed URL.
        var images: [String: [UInt8]] = [:]
    }

    static let queries = ["tabby", "spa", "rocket launch"]

    func read(_ api: TesseraAPI) async throws -> Seen {
        var seen = Seen()
        seen.galleries = try api.json([Gallery].self, try await api.send("GET", "/api/galleries"), 200)
        seen.deleted = try api.json([Gallery].self, try await api.send("GET", "/api/galleries?deleted=true"), 200)
        for gallery in seen.galleries + seen.deleted {
            let detail = try api.json(Gallery.self, try await api.send("GET", "/api/galleries/\(gallery.id)"), 200)
            seen.details.append(detail)
            for item in detail.items ?? [] {
                let image = try await api.send("GET", item.image.original.url)
                #expect(image.status == 200, "\(item.image.original.url): \(image.text.prefix(200))")
                seen.images[item.image.original.url] = image.body
            }
        }
        for query in Self.queries {
            seen.searches.append(try await search(query, api))
        }
        return seen
    }

    /// The `local` section's items, once the library is indexed (a server indexes it after it starts).
    func search(_ query: String, _ api: TesseraAPI) async throws -> [Item] {
        let path = "/api/search?q=\(query.replacingOccurrences(of: " ", with: "+"))&scope=local"
        let deadline = ContinuousClock.now + .seconds(60)
        var items: [Item] = []
        while ContinuousClock.now < deadline {
            let response = try api.json(SearchResponse.self, try await api.send("GET", path), 200)
            items = response.sections.first?.items ?? []
            if !items.isEmpty { return items }
            try await Task.sleep(for: .milliseconds(200))
        }
        return items
    }

    func migrate(_ folders: Folders, _ url: PostgresURL, _ extra: [String] = []) async throws -> CLIProcess.Result {
        try await CLIProcess.run(
            ["migrate", "--to", url.urlText] + extra, environment: ["TESSERA_DATA": folders.data.path])
    }

    /// The SQLite and PostgreSQL figures of the table line that starts with `what`.
    func counts(_ what: String, in output: String) -> [Int] {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(what + "  ") }) else { return [] }
        return line.dropFirst(what.count).split(separator: " ").compactMap { Int($0) }
    }

    @Test(.timeLimit(.minutes(5)))
    func aDataFolderMovesToPostgreSQLAndServesTheSame() async throws {
        let server = try ServePostgresTests.server()
        let folders = Folders()
        try folders.make()
        defer { try? FileManager.default.removeItem(at: folders.base) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        try await TestPostgres.withFreshDatabase(on: server) { url in
            // Given galleries, items in a chosen order, one in Recently deleted, and an indexed library, made
            // through a server on SQLite.
            var sqlite = try await ServerProcess.start([], environment: folders.sqlite)
            var api = TesseraAPI(client: client, port: sqlite.port)
            var made: [GalleryID] = []
            for (name, images) in [("Trips", 3), ("Pets", 2), ("Old", 2)] {
                let gallery = try api.json(
                    Gallery.self, try await api.send("POST", "/api/galleries", json: #"{"name":"\#(name)"}"#), 201)
                for index in 0..<images {
                    let bytes = StandInImage.jpeg + Array("\(name) \(index)".utf8)
                    _ = try api.json(
                        GalleryItem.self,
                        try await api.upload(
                            "/api/galleries/\(gallery.id)/items", bytes, fileName: "\(index).jpg", index: 0,
                            // The first of each is checked, so it has a picture hash for the copy to carry.
                            allowNearDuplicate: index > 0), 201)
                }
                made.append(gallery.id)
            }
            let trips = try api.json(Gallery.self, try await api.send("GET", "/api/galleries/\(made[0])"), 200)
            let moving = try #require(trips.items?.last?.id)
            let moved = try await api.send(
                "POST", "/api/galleries/\(made[0])/items/\(moving)/move", json: #"{"index":0}"#)
            #expect(moved.status == 200, "\(moved.text)")
            #expect(try await api.send("DELETE", "/api/galleries/\(made[2])").status == 200)
            _ = try await read(api)  // waits for the library index
            #expect(await sqlite.stop() == 0)

            // When it is migrated.
            let first = try await migrate(folders, url)
            #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
            #expect(counts("galleries", in: first.stdout) == [2, 2], "\(first.stdout)")
            #expect(counts("items", in: first.stdout) == [5, 5])
            #expect(counts("galleries in Recently deleted", in: first.stdout) == [1, 1])
            #expect(counts("items in Recently deleted", in: first.stdout) == [2, 2])
            #expect(counts("library photos", in: first.stdout) == [6, 6])
            #expect(counts("image-signing key", in: first.stdout) == [1, 1])
            #expect(first.stdout.contains("Every gallery's items are in the same order on both sides."))
            #expect(first.stdout.contains("Image-signing key: copied"))
            #expect(first.stdout.contains("Image copies: 7 named by the galleries"), "\(first.stdout)")
            #expect(!first.stdout.contains("warning"))
            #expect(!first.stdout.contains(url.password ?? "unset") && !first.stderr.contains(url.password ?? "unset"))

            // And a gallery is changed in SQLite afterwards: an item removed, one moved, a new name.
            sqlite = try await ServerProcess.start([], environment: folders.sqlite)
            api = TesseraAPI(client: client, port: sqlite.port)
            let pets = try #require(
                try api.json(Gallery.self, try await api.send("GET", "/api/galleries/\(made[1])"), 200).items)
            #expect(try await api.send("DELETE", "/api/galleries/\(made[1])/items/\(pets[0].id)").status == 200)
            #expect(try await api.send("PATCH", "/api/galleries/\(made[1])", json: #"{"name":"Cats"}"#).status == 200)
            let again = try await api.send(
                "POST", "/api/galleries/\(made[0])/items/\(moving)/move", json: #"{"index":2}"#)
            #expect(again.status == 200, "\(again.text)")
            let expected = try await read(api)
            #expect(await sqlite.stop() == 0)
            // Each gallery's first item was hashed by its checking add; the restarted server may have hashed
            // the others in the background (docs/galleries.md, "Near duplicates"): however many, all come over.
            let hashedInSQLite = try await Self.hashedItems(inSQLite: folders.data)
            #expect(hashedInSQLite >= 3)

            // Then a second run copies the change and duplicates nothing.
            let second = try await migrate(folders, url)
            #expect(second.status == 0, "\(second.stdout)\n\(second.stderr)")
            #expect(counts("galleries", in: second.stdout) == [2, 2], "\(second.stdout)")
            #expect(counts("items", in: second.stdout) == [4, 4])
            #expect(counts("library photos", in: second.stdout) == [6, 6])
            #expect(second.stdout.contains("Image-signing key: already the same in PostgreSQL."))
            let rows = try await Self.rowCounts(url)
            #expect(rows == [3, 6, 6], "galleries, items, photos: each once")
            #expect(try await Self.hashedItems(url) == hashedInSQLite, "every item's picture hash came over")

            // And a server on PostgreSQL, with the same media folder and library, answers as SQLite did: the
            // same galleries in the same order, Recently deleted, search results, and image bytes under the
            // same signed URLs.
            let shared = folders.base.appendingPathComponent("shared-data")
            let postgres = try await ServerProcess.start(
                [],
                environment: [
                    "TESSERA_DATA": shared.path, "TESSERA_DATABASE_URL": url.urlText,
                    "TESSERA_MEDIA": folders.data.appendingPathComponent("gallery-images").path,
                    "TESSERA_LIBRARY": folders.library.path, "TESSERA_LOG_LEVEL": "info",
                ])
            let seen = try await read(TesseraAPI(client: client, port: postgres.port))
            let indexed = ContinuousClock.now + .seconds(60)
            while !postgres.child.stderr.contains("library indexed"), ContinuousClock.now < indexed {
                try await Task.sleep(for: .milliseconds(100))
            }
            let log = postgres.child.stderr
            #expect(await postgres.stop() == 0)
            #expect(seen.galleries == expected.galleries)
            #expect(seen.galleries.map(\.name) == ["Trips", "Cats"], "most recently updated first")
            #expect(seen.deleted == expected.deleted && seen.deleted.map(\.id) == [made[2]])
            #expect(seen.details == expected.details)
            // The same photos, with the same signed links. (Their order is each engine's ranking: "spa" ranks
            // ties otherwise on PostgreSQL than FTS5's bm25 does, whichever way the rows got there.)
            #expect(seen.searches.map(Set.init) == expected.searches.map(Set.init))
            #expect(seen.searches.allSatisfy { !$0.isEmpty } && seen.searches.map(\.count) == [1, 3, 1])
            #expect(seen.images == expected.images && seen.images.count == 6)
            #expect(log.contains("0 added, 0 updated, 6 unchanged"), "the index came over: \(log.suffix(1500))")
        }
        try await client.shutdown()
    }

    @Test func aDatabaseSigningWithAnotherKeyIsRefusedUnlessReplaced() async throws {
        let server = try ServePostgresTests.server()
        let folders = Folders()
        defer { try? FileManager.default.removeItem(at: folders.base) }
        // A data folder with a gallery and the key its server made.
        let made = try await CLIProcess.run(
            ["gallery", "create", "Kept"], environment: ["TESSERA_DATA": folders.data.path])
        #expect(made.status == 0, "\(made.stderr)")
        try await TestPostgres.withFreshDatabase(on: server) { url in
            _ = try await PostgresAppDatabase.open(url, poolSize: 1, logger: .init(label: "test"))
            try await PostgresAppDatabase.withSingleConnection(url, logger: .init(label: "test")) { connection in
                let other = Data(repeating: 7, count: 32)
                try await connection.query(
                    "INSERT INTO setting (name, value) VALUES ('image-secret', \(other))", logger: .init(label: "test"))
                return ()
            }
            let refused = try await migrate(folders, url)
            #expect(refused.status == 2, "\(refused.stdout)\n\(refused.stderr)")
            #expect(refused.stderr.contains("already holds a different image-signing key"), "\(refused.stderr)")
            #expect(refused.stderr.contains("--replace-secret"))
            #expect(try await Self.rowCounts(url) == [0, 0, 0], "nothing copied")

            let replaced = try await migrate(folders, url, ["--replace-secret"])
            #expect(replaced.status == 0, "\(replaced.stdout)\n\(replaced.stderr)")
            #expect(replaced.stdout.contains("Image-signing key: replaced"))
            #expect(counts("image-signing key", in: replaced.stdout) == [1, 1])
            #expect(counts("galleries", in: replaced.stdout) == [1, 1])
        }
    }

    @Test func wrongInputEndsWithOneSentence() async throws {
        let server = try ServePostgresTests.server()
        let folders = Folders()
        try FileManager.default.createDirectory(at: folders.data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folders.base) }
        let environment = ["TESSERA_DATA": folders.data.path]

        let badURL = try await CLIProcess.run(["migrate", "--to", "mysql://x@y/z"], environment: environment)
        #expect(badURL.status == 2)
        #expect(badURL.stderr.contains("--to is not a PostgreSQL URL: its scheme must be"), "\(badURL.stderr)")

        let empty = try await CLIProcess.run(["migrate", "--to", server.urlText], environment: environment)
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("There is no Tessera database (tessera.sqlite) in"), "\(empty.stderr)")
        let missing = folders.base.appendingPathComponent("nowhere").path
        let nowhere = try await CLIProcess.run(
            ["migrate", "--to", server.urlText, "--data", missing], environment: environment)
        #expect(nowhere.status == 2)
        #expect(nowhere.stderr.contains("There is no data folder at \(missing)"), "\(nowhere.stderr)")

        _ = try await CLIProcess.run(["gallery", "create", "One"], environment: environment)
        let port = try LoopbackSocket.freePort()
        var closed = server
        closed.port = port
        let unreachable = try await CLIProcess.run(["migrate", "--to", closed.urlText], environment: environment)
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.contains("could not be reached"), "\(unreachable.stderr)")
        var wrong = server
        wrong.password = "not-the-password-42"
        let refused = try await CLIProcess.run(["migrate", "--to", wrong.urlText], environment: environment)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("refused user \"\(server.user)\""), "\(refused.stderr)")
        #expect(!refused.stderr.contains("not-the-password-42") && !refused.stdout.contains("not-the-password-42"))
    }

    /// How many gallery items have a picture hash in the SQLite database of the data folder `data`.
    static func hashedItems(inSQLite data: URL) async throws -> Int {
        let database = try AppDatabase.open(inDirectory: data)
        return try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(pictureHash) FROM galleryItem") ?? 0
        }
    }

    /// Gallery items in PostgreSQL with a picture hash.
    static func hashedItems(_ url: PostgresURL) async throws -> Int {
        try await PostgresAppDatabase.withSingleConnection(url, logger: .init(label: "test")) { connection in
            var hashed = 0
            for try await count in try await connection.query(
                "SELECT count(picture_hash) FROM gallery_item", logger: .init(label: "test")
            ).decode(Int.self) {
                hashed = count
            }
            return hashed
        }
    }

    /// Rows in PostgreSQL: galleries, gallery items, library photos.
    static func rowCounts(_ url: PostgresURL) async throws -> [Int] {
        try await PostgresAppDatabase.withSingleConnection(url, logger: .init(label: "test")) { connection in
            var counts: [Int] = []
            for table in ["gallery", "gallery_item", "library_photo"] {
                for try await count in try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: .init(label: "test")
                ).decode(Int.self) {
                    counts.append(count)
                }
            }
            return counts
        }
    }
}
