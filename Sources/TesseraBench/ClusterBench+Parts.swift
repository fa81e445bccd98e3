import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import Synchronization
import TesseraCore
import TesseraLibrary
import TesseraPostgres
import TesseraTestSupport

/// `tessera serve` as a process of its own, on a port picked for it, with the stand-ins as its services.
struct BenchInstance {
    let port: Int
    let process: SpawnedProcess

    static let secret = "cluster-bench-\(UUID().uuidString)"

    static func start(
        _ binary: URL, _ standIns: StandInServer, _ client: HTTPClient, _ work: URL, name: String,
        database: PostgresURL?, media: URL? = nil
    ) async throws -> BenchInstance {
        let folder = work.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var environment = standIns.environment.merging(BenchSettings.noFairUseLimits) { _, new in new }
        let current = ProcessInfo.processInfo.environment
        environment["PATH"] = current["PATH"] ?? "/usr/bin:/bin"
        environment["HOME"] = current["HOME"] ?? "/tmp"
        environment["TESSERA_DATA"] = folder.path
        environment["TESSERA_SAMPLES"] = "none"
        environment["TESSERA_SECRET"] = secret
        environment["TESSERA_LOG_LEVEL"] = "error"
        environment["TESSERA_TRUSTED_PROXIES"] = "127.0.0.1"
        if let database { environment["TESSERA_DATABASE_URL"] = database.urlText }
        if let media { environment["TESSERA_MEDIA"] = media.path }
        let port = try LoopbackSocket.freePort()
        let process = try SpawnedProcess(
            executable: binary, arguments: ["serve", "--port", "\(port)"], environment: environment,
            standardOutput: work.appendingPathComponent("\(name).out"),
            standardError: work.appendingPathComponent("\(name).log"))
        let instance = BenchInstance(port: port, process: process)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, process.isRunning {
            if (try? await GalleryBench.call(client, "GET", "http://127.0.0.1:\(port)/api/health")) != nil {
                return instance
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        await instance.stop()
        let log = (try? String(contentsOf: work.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? ""
        throw ValidationError("tessera serve (\(name)) did not become healthy: \(log.suffix(2000))")
    }

    func stop() async {
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// A change made through server A, timed until B's event stream of the gallery carries it: one change at a
/// time, from the moment the request leaves to the event's arrival (so the write itself is inside the figure).
enum EventDelivery {
    static func measure(_ client: HTTPClient, from first: String, to second: String, count: Int) async throws
        -> ([Duration], String)
    {
        let gallery = try await GalleryBench.createGallery(client, first, "events")
        let search = try await GalleryBench.call(client, "GET", first + "/api/search?q=fox&scope=pixabay")
        guard let item = try JSONDecoder().decode(SearchResponse.self, from: search).sections.first?.items.first else {
            throw ValidationError("no search result from the stand-ins")
        }
        let itemJSON = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
        var ids: [String] = []
        for _ in 0..<3 {
            let added = try await GalleryBench.call(
                client, "POST", first + "/api/galleries/\(gallery)/items",
                body: #"{"item": \#(itemJSON), "allowNearDuplicate": true}"#)
            ids.append(try JSONDecoder().decode(GalleryIDs.Item.self, from: added).id)
        }

        // B's stream: every event's revision and arrival, in order.
        let arrivals = AsyncStream.makeStream(of: (Int, ContinuousClock.Instant).self)
        let reader = Task {
            var request = HTTPClientRequest(url: second + "/api/galleries/\(gallery)/events")
            request.headers.add(name: "Accept", value: "text/event-stream")
            let response = try await client.execute(request, timeout: .hours(1))
            var parser = ServerSentEventParser()
            for try await buffer in response.body {
                let now = ContinuousClock.now
                for event in parser.feed(String(buffer: buffer)) {
                    if let revision = event.id.flatMap(Int.init) { arrivals.continuation.yield((revision, now)) }
                }
            }
            arrivals.continuation.finish()
        }
        defer { reader.cancel() }
        var iterator = arrivals.stream.makeAsyncIterator()
        // The snapshot every new stream starts with: B is listening from here on.
        guard await iterator.next() != nil else { throw ValidationError("B's event stream ended at once") }
        var times: [Duration] = []
        var writes: [Duration] = []
        for index in 0..<count {
            let sent = ContinuousClock.now
            let answer = try await GalleryBench.call(
                client, "POST", first + "/api/galleries/\(gallery)/items/\(ids[0])/move",
                body: #"{"index": \#(index % 2 == 0 ? 2 : 0)}"#)
            writes.append(ContinuousClock.now - sent)
            let revision = try JSONDecoder().decode(Moved.self, from: answer).revision
            while true {
                guard let (seen, at) = await iterator.next() else {
                    throw ValidationError("B's event stream ended after \(times.count) events")
                }
                if seen >= revision {
                    times.append(at - sent)
                    break
                }
            }
        }
        return (
            times,
            "event delivery: \(count) moves one at a time; each figure includes the move's own request on A "
                + "(p50 \(ms(percentile(writes, 0.5))) ms, p99 \(ms(percentile(writes, 0.99))) ms)"
        )
    }

    struct Moved: Decodable { var revision: Int }
}

/// Library search on the shared index: synthetic photos saved through `PostgresLibraryStore` (the indexer's own
/// writer, so every `tsvector` is made as in production), then `LocalSource.search` as the server runs it,
/// with the pool running; a `SELECT 1` through the same pool is the floor.
enum SharedLibrarySearch {
    static func measure(_ url: PostgresURL, photos: Int, queries: Int) async throws -> ([ClusterBench.Row], String) {
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let database = try await PostgresAppDatabase.open(url, poolSize: 4, logger: logger)
        return try await TestPostgres.running(database) { database in
            let store = PostgresLibraryStore(database: database, logger: logger)
            let library = SyntheticLibrary()
            let root = "/home/ann/Pictures"
            var random = SplitMix64(seed: 42)
            let started = ContinuousClock.now
            var batch: [LibraryPhoto] = []
            for index in 0..<photos {
                batch.append(library.photo(index, root: root, &random))
                if batch.count == 2000 || index == photos - 1 {
                    try await store.update(root: root, saving: batch, removing: [])
                    batch.removeAll(keepingCapacity: true)
                }
            }
            let inserted = ContinuousClock.now - started
            // What autovacuum does shortly after a bulk load: the planner's figures for the new rows.
            try await database.withConnection { connection in
                _ = try await connection.query("ANALYZE library_photo", logger: logger).collect()
            }
            let source = LocalSource(store: store, roots: [root])
            let texts = (0..<(queries + 50)).map { _ in library.query(&random) }
            var times: [Duration] = []
            var floor: [Duration] = []
            for (index, text) in texts.enumerated() {
                let searchStarted = ContinuousClock.now
                _ = try await source.search(text, in: .local, page: 1)
                let elapsed = ContinuousClock.now - searchStarted
                let pingStarted = ContinuousClock.now
                try await database.ping()
                let ping = ContinuousClock.now - pingStarted
                if index >= 50 {
                    times.append(elapsed)
                    floor.append(ping)
                }
            }
            let setup = "PostgreSQL, \(photos) photos"
            return (
                [
                    ClusterBench.Row(
                        what: "SELECT 1 through the pool (reference)", setup: setup, clients: "1", times: floor),
                    ClusterBench.Row(
                        what: "library search (page 1 and total)", setup: setup, clients: "1", times: times),
                ],
                "library: \(photos) synthetic photos saved through PostgresLibraryStore in "
                    + "\(String(format: "%.1f", inserted.seconds)) s (\(Int(Double(photos) / inserted.seconds)) a second), "
                    + "then ANALYZE; \(queries) one- and two-word prefix queries"
            )
        }
    }
}
