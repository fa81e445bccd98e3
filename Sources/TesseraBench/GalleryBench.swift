import ArgumentParser
import AsyncHTTPClient
import Foundation
import GRDB
import Logging
import NIOCore
import TesseraCore
import TesseraGalleries
import TesseraSQLite
import TesseraServer
import TesseraTestSupport

/// Gallery writes over HTTP: adding 1,000 items, and moving items in a 10,000-item gallery, by one client
/// and by four at once; next to the floor under them, a bare one-row SQLite update with the same settings.
struct GalleryBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "galleries",
        abstract: "Gallery adds and moves over HTTP (1 and 4 clients), next to a bare SQLite update.")

    @Option(help: "Items added in the add test.")
    var adds = 1000

    @Option(help: "Items in the gallery the moves happen in.")
    var size = 10_000

    @Option(help: "Moves timed per client count.")
    var moves = 400

    mutating func run() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-galleries-\(UUID())")
        defer { try? FileManager.default.removeItem(at: work) }
        var quiet = Logger(label: "bench")
        quiet.logLevel = .error
        let standIns = try await StandInServer.start(StandInSet().list)
        var settings = standIns.environment
        settings["TESSERA_DATA"] = work.appendingPathComponent("data").path
        settings["TESSERA_PORT"] = "0"
        settings["TESSERA_SAMPLES"] = "none"
        settings.merge(BenchSettings.noFairUseLimits) { _, off in off }
        let environment = try await AppEnvironment.live(try AppConfiguration(environment: settings), logger: quiet)
        let appPort = PortBox()
        let app = buildApplication(environment) { await appPort.set($0) }
        let running = BackgroundService(app, logger: quiet)
        let base = "http://127.0.0.1:\(await appPort.wait())"
        let client = HTTPClient(eventLoopGroupProvider: .singleton)

        // The item every add uses: a search result, its image cached by the first add.
        let search = try await Self.call(client, "GET", base + "/api/search?q=fox&scope=pixabay")
        let answer = try JSONDecoder().decode(SearchResponse.self, from: search)
        guard let item = answer.sections.first?.items.first else { throw ValidationError("no search result") }
        let itemJSON = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)

        // Adds: one client, then four sharing the same number of adds.
        var rows: [(String, [Duration])] = []
        var totals: [(String, Duration)] = []
        var filled = ""
        for clients in [1, 4] {
            let gallery = try await Self.createGallery(client, base, "adds-\(clients)")
            filled = gallery
            let started = ContinuousClock.now
            // One stand-in picture added many times: asked to add it anyway, so no near-duplicate check (and
            // no hash) is made; its stored copy is already there after the first add.
            let times = try await Self.concurrently(clients, perClient: adds / clients) { _ in
                try await Self.call(
                    client, "POST", base + "/api/galleries/\(gallery)/items",
                    body: #"{"item": \#(itemJSON), "allowNearDuplicate": true}"#)
            }
            totals.append(("\(adds) adds, \(clients) client\(clients == 1 ? "" : "s")", ContinuousClock.now - started))
            rows.append(("add an item, \(clients) client\(clients == 1 ? "" : "s")", times))
        }

        // Moves in a big gallery: filled through the service (the same code the API calls, minus HTTP).
        let big = try await Self.createGallery(client, base, "big")
        let galleries = environment.galleries
        guard let filledID = GalleryID(filled), let bigID = GalleryID(big),
            let image = try await galleries.gallery(filledID, by: .everyone).items?.first
        else { throw ValidationError("the adds left no item") }
        for _ in 0..<size {
            _ = try await galleries.copy(image.id, of: filledID, to: bigID, by: .everyone)
        }
        let ids = try await galleries.gallery(bigID, by: .everyone).items?.map(\.id) ?? []
        for clients in [1, 4] {
            let times = try await Self.concurrently(clients, perClient: moves / clients) { _ in
                let id = ids.randomElement()!
                let index = Int.random(in: 0..<ids.count)
                return try await Self.call(
                    client, "POST", base + "/api/galleries/\(big)/items/\(id)/move", body: #"{"index": \#(index)}"#)
            }
            rows.append(("move an item in \(size) items, \(clients) client\(clients == 1 ? "" : "s")", times))
        }
        rows.append(
            (
                "(HTTP floor) GET /api/health",
                try await Self.concurrently(1, perClient: moves) { _ in
                    try await Self.call(client, "GET", base + "/api/health")
                }
            ))
        rows.append(("(SQLite floor) one-row UPDATE + COMMIT", try await Self.bareUpdates(environment.database, moves)))
        try await client.shutdown()
        try await running.stop()
        await standIns.stop()

        printTable(title: "gallery writes over HTTP (release build, this machine, same run)", rows: rows)
        print("")
        for (what, total) in totals {
            print("\(what): \(ms(total)) ms in all (\(String(format: "%.0f", Double(adds) / total.seconds)) adds/s)")
        }
    }

    /// The floor: the smallest durable write this database can do, with the same pool and settings.
    static func bareUpdates(_ database: AppDatabase, _ count: Int) async throws -> [Duration] {
        try await database.writer.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS benchFloor (id INTEGER PRIMARY KEY, value INTEGER)")
            try db.execute(sql: "INSERT OR REPLACE INTO benchFloor VALUES (1, 0)")
        }
        var times: [Duration] = []
        for value in 0..<count {
            let started = ContinuousClock.now
            try await database.writer.write { db in
                try db.execute(sql: "UPDATE benchFloor SET value = ? WHERE id = 1", arguments: [value])
            }
            times.append(ContinuousClock.now - started)
        }
        return times
    }

    static func createGallery(_ client: HTTPClient, _ base: String, _ name: String) async throws -> String {
        let data = try await call(client, "POST", base + "/api/galleries", body: #"{"name": "\#(name)"}"#)
        return try JSONDecoder().decode(Gallery.self, from: data).id.rawValue
    }

    /// Runs `clients` loops at once, each one untimed call then `perClient` timed ones; returns every timed call's time.
    static func concurrently(
        _ clients: Int, perClient: Int, _ body: @escaping @Sendable (Int) async throws -> Data
    ) async throws -> [Duration] {
        try await withThrowingTaskGroup(of: [Duration].self) { group in
            for number in 0..<clients {
                group.addTask {
                    // Each client's first call opens its HTTP connection: made once, not timed.
                    _ = try await body(number)
                    var times: [Duration] = []
                    for _ in 0..<perClient {
                        let started = ContinuousClock.now
                        _ = try await body(number)
                        times.append(ContinuousClock.now - started)
                    }
                    return times
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    @discardableResult
    static func call(_ client: HTTPClient, _ method: String, _ url: String, body: String? = nil) async throws -> Data {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        if let body {
            request.body = .bytes(ByteBuffer(string: body))
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let data = Data(buffer: try await response.body.collect(upTo: 64 * 1024 * 1024))
        guard (200..<300).contains(Int(response.status.code)) else {
            throw ValidationError(
                "\(method) \(url) answered \(response.status): \(String(decoding: data, as: UTF8.self))")
        }
        return data
    }
}
