import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import TesseraCore
import TesseraPostgres
import TesseraTestSupport

/// `tessera-bench cluster` (`./scripts/bench cluster`, which starts the PostgreSQL cluster and nginx): gallery
/// adds and moves at 1 and 4 clients on SQLite (one server), PostgreSQL (one server) and PostgreSQL (two servers
/// behind nginx); event delivery from one server to another; library search at 100,000 photos on PostgreSQL.
/// Every server is `tessera serve` as a process of its own (release build); references measured in the same
/// run: a bare `SELECT 1` round trip, and `GET /api/health` straight and through nginx.
struct ClusterBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Gallery writes on SQLite, PostgreSQL and two servers behind nginx; events; library search.")

    @Option(
        name: .customLong("database-url"),
        help: ArgumentHelp(
            "A PostgreSQL user that may create databases (default: TESSERA_TEST_DATABASE_URL).", valueName: "url"))
    var databaseURL: String?

    @Option(help: ArgumentHelp("The tessera binary to run (default: .build/release/tessera).", valueName: "path"))
    var tessera: String?

    @Option(help: "Items added per client count (shared by the clients).")
    var adds = 400

    @Option(help: "Moves timed per client count.")
    var moves = 400

    @Option(help: "Changes whose event delivery is timed.")
    var events = 200

    @Option(help: "Synthetic photos in the PostgreSQL library index.")
    var photos = 100_000

    @Option(help: "Library searches timed.")
    var queries = 500

    /// One row of the table.
    struct Row {
        var what: String
        var setup: String
        var clients: String
        var times: [Duration]
        /// Operations per second over the whole run, when it means something.
        var perSecond: Double?
    }

    func run() async throws {
        guard let text = databaseURL ?? ProcessInfo.processInfo.environment["TESSERA_TEST_DATABASE_URL"] else {
            throw ValidationError(
                "No PostgreSQL: run ./scripts/bench cluster (it starts one), or give --database-url.")
        }
        let server = try PostgresURL(parsing: text)
        let binary = URL(fileURLWithPath: tessera ?? Self.defaultBinary.path)
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ValidationError("\(binary.path) is missing: swift build -c release --product tessera")
        }
        guard TestBalancer.available else {
            throw ValidationError("nginx is not installed (./scripts/bench cluster installs Debian's nginx)")
        }
        let standIns = try await StandInServer.start(StandInSet().list)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cluster-\(UUID())")
        defer { try? FileManager.default.removeItem(at: work) }
        var rows: [Row] = []
        var notes: [String] = []

        rows += [
            Row(
                what: "PostgreSQL SELECT 1 round trip (reference)", setup: "-", clients: "1",
                times: try await Self.selectOne(server, count: moves)),
            Row(
                what: "PostgreSQL one-row UPDATE + COMMIT (reference)", setup: "-", clients: "1",
                times: try await Self.commits(server, count: moves)),
        ]

        // SQLite, one server.
        do {
            let instance = try await BenchInstance.start(binary, standIns, client, work, name: "sqlite", database: nil)
            let base = "http://127.0.0.1:\(instance.port)"
            rows += try await galleryRows(client, base, setup: "SQLite, 1 server")
            rows.append(try await healthRow(client, base, setup: "SQLite, 1 server"))
            await instance.stop()
        }
        try await TestPostgres.withFreshDatabase(on: server) { url in
            let instance = try await BenchInstance.start(binary, standIns, client, work, name: "pg1", database: url)
            let base = "http://127.0.0.1:\(instance.port)"
            rows += try await galleryRows(client, base, setup: "PostgreSQL, 1 server")
            rows.append(try await healthRow(client, base, setup: "PostgreSQL, 1 server"))
            await instance.stop()
        }
        try await TestPostgres.withFreshDatabase(on: server) { url in
            let media = work.appendingPathComponent("shared-media")
            let first = try await BenchInstance.start(
                binary, standIns, client, work, name: "a", database: url, media: media)
            let second = try await BenchInstance.start(
                binary, standIns, client, work, name: "b", database: url, media: media)
            let balancer = try await TestBalancer.start(upstreams: [first.port, second.port])
            let base = "http://127.0.0.1:\(balancer.port)"
            rows += try await galleryRows(client, base, setup: "PostgreSQL, 2 servers + nginx")
            rows.append(try await healthRow(client, base, setup: "PostgreSQL, 2 servers + nginx"))
            let (delivery, note) = try await EventDelivery.measure(
                client, from: "http://127.0.0.1:\(first.port)", to: "http://127.0.0.1:\(second.port)", count: events)
            rows.append(
                Row(
                    what: "event: move on A → SSE event on B", setup: "PostgreSQL, 2 servers",
                    clients: "1", times: delivery))
            notes.append(note)
            await balancer.stop()
            await first.stop()
            await second.stop()
        }
        try await TestPostgres.withFreshDatabase(on: server) { url in
            let (library, note) = try await SharedLibrarySearch.measure(url, photos: photos, queries: queries)
            rows += library
            notes.append(note)
        }
        try await client.shutdown()
        await standIns.stop()
        print(Self.render(rows, binaryName: binary.path))
        for note in notes { print(note) }
        print(Self.goals(rows))
    }

    static var defaultBinary: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/release/tessera")
    }

    /// Adds at 1 and 4 clients (each into a gallery of its own), then moves in the 4-client gallery.
    func galleryRows(_ client: HTTPClient, _ base: String, setup: String) async throws -> [Row] {
        let search = try await GalleryBench.call(client, "GET", base + "/api/search?q=fox&scope=pixabay")
        guard let item = try JSONDecoder().decode(SearchResponse.self, from: search).sections.first?.items.first else {
            throw ValidationError("no search result from the stand-ins")
        }
        let itemJSON = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
        // The first add fetches the image through the proxy; later ones find it cached: warm up once.
        let warm = try await GalleryBench.createGallery(client, base, "warm-up")
        try await GalleryBench.call(
            client, "POST", base + "/api/galleries/\(warm)/items",
            body: #"{"item": \#(itemJSON), "allowNearDuplicate": true}"#)
        var rows: [Row] = []
        var filled = ""
        for clients in [1, 4] {
            let gallery = try await GalleryBench.createGallery(client, base, "adds-\(clients)")
            filled = gallery
            let started = ContinuousClock.now
            let times = try await GalleryBench.concurrently(clients, perClient: adds / clients) { _ in
                try await GalleryBench.call(
                    client, "POST", base + "/api/galleries/\(gallery)/items",
                    body: #"{"item": \#(itemJSON), "allowNearDuplicate": true}"#)
            }
            let elapsed = ContinuousClock.now - started
            rows.append(
                Row(
                    what: "gallery add", setup: setup, clients: "\(clients)", times: times,
                    perSecond: Double(times.count) / elapsed.seconds))
        }
        // Four clients each adding to a gallery of their own: what four people do; the rows above share one.
        var own: [String] = []
        for number in 0..<4 { own.append(try await GalleryBench.createGallery(client, base, "own-\(number)")) }
        let galleries = own
        let started = ContinuousClock.now
        let times = try await GalleryBench.concurrently(4, perClient: adds / 4) { number in
            try await GalleryBench.call(
                client, "POST", base + "/api/galleries/\(galleries[number])/items",
                body: #"{"item": \#(itemJSON), "allowNearDuplicate": true}"#)
        }
        rows.append(
            Row(
                what: "gallery add, a gallery each", setup: setup, clients: "4", times: times,
                perSecond: Double(times.count) / (ContinuousClock.now - started).seconds))
        let target = filled
        let detail = try await GalleryBench.call(client, "GET", base + "/api/galleries/\(target)")
        let ids = (try JSONDecoder().decode(GalleryIDs.self, from: detail).items ?? []).map(\.id)
        guard !ids.isEmpty else { throw ValidationError("the adds left no item") }
        for clients in [1, 4] {
            let started = ContinuousClock.now
            let times = try await GalleryBench.concurrently(clients, perClient: moves / clients) { _ in
                let index = Int.random(in: 0..<ids.count)
                return try await GalleryBench.call(
                    client, "POST", base + "/api/galleries/\(target)/items/\(ids.randomElement()!)/move",
                    body: #"{"index": \#(index)}"#)
            }
            let elapsed = ContinuousClock.now - started
            rows.append(
                Row(
                    what: "gallery move (\(ids.count) items)", setup: setup, clients: "\(clients)",
                    times: times, perSecond: Double(times.count) / elapsed.seconds))
        }
        return rows
    }

    /// The HTTP floor: the health route, which answers from memory (through nginx when `base` is nginx).
    func healthRow(_ client: HTTPClient, _ base: String, setup: String) async throws -> Row {
        let times = try await GalleryBench.concurrently(1, perClient: moves) { _ in
            try await GalleryBench.call(client, "GET", base + "/api/health")
        }
        return Row(what: "GET /api/health (reference)", setup: setup, clients: "1", times: times)
    }

    /// A bare round trip to the database on one connection: the floor under every PostgreSQL write.
    static func selectOne(_ url: PostgresURL, count: Int) async throws -> [Duration] {
        try await PostgresAppDatabase.withSingleConnection(url, logger: Logger(label: "bench")) { connection in
            var times: [Duration] = []
            for _ in 0..<count {
                let started = ContinuousClock.now
                _ = try await connection.query("SELECT 1", logger: Logger(label: "bench")).collect()
                times.append(ContinuousClock.now - started)
            }
            return times
        }
    }

    /// The smallest durable write: one row updated and committed (an fsync of the WAL), on a database of its own.
    static func commits(_ server: PostgresURL, count: Int) async throws -> [Duration] {
        try await TestPostgres.withFreshDatabase(on: server) { url in
            try await PostgresAppDatabase.withSingleConnection(url, logger: Logger(label: "bench")) { connection in
                let logger = Logger(label: "bench")
                _ = try await connection.query("CREATE TABLE floor (id int PRIMARY KEY, value int)", logger: logger)
                _ = try await connection.query("INSERT INTO floor VALUES (1, 0)", logger: logger)
                var times: [Duration] = []
                for value in 0..<count {
                    let started = ContinuousClock.now
                    _ = try await connection.query("UPDATE floor SET value = \(value) WHERE id = 1", logger: logger)
                    times.append(ContinuousClock.now - started)
                }
                return times
            }
        }
    }

    static func render(_ rows: [Row], binaryName: String) -> String {
        let table = TextTable([.left(48), .left(31), .right(7), .right(8), .right(8), .right(8)])
        let header = table.row(["what", "setup", "clients", "p50 ms", "p99 ms", "per s"])
        var text = "\nseveral servers on PostgreSQL (this machine, one run; the servers: \(binaryName))\n\(header)\n"
        text += String(repeating: "-", count: header.count) + "\n"
        for row in rows {
            text +=
                table.row([
                    row.what, row.setup, row.clients, ms(percentile(row.times, 0.5)), ms(percentile(row.times, 0.99)),
                    row.perSecond.map { String(format: "%.0f", $0) } ?? "",
                ]) + "\n"
        }
        return text
    }

    static func goals(_ rows: [Row]) -> String {
        func p99(_ what: String, _ setup: String, _ clients: String) -> Duration? {
            rows.first { $0.what.hasPrefix(what) && $0.setup.hasPrefix(setup) && $0.clients == clients }
                .map { percentile($0.times, 0.99) }
        }
        let checks: [(String, Duration?, Duration)] = [
            ("add p99 at 4 clients, PostgreSQL 1 server", p99("gallery add", "PostgreSQL, 1", "4"), .milliseconds(15)),
            ("add p99 at 4 clients, 2 servers + nginx", p99("gallery add", "PostgreSQL, 2", "4"), .milliseconds(15)),
            ("event delivery p99", p99("event", "PostgreSQL", "1"), .milliseconds(100)),
            ("library search p99", p99("library search", "PostgreSQL", "1"), .milliseconds(10)),
        ]
        return checks.map { name, value, goal in
            guard let value else { return "goal: \(name) < \(ms(goal)) ms → not measured" }
            return "goal: \(name) < \(ms(goal)) ms → \(value < goal ? "met" : "NOT met") (\(ms(value)) ms)"
        }.joined(separator: "\n")
    }
}

/// The ids of a gallery's items, all the benchmark reads of one.
struct GalleryIDs: Decodable {
    struct Item: Decodable { var id: String }
    var items: [Item]?
}
