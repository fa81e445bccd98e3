import AsyncHTTPClient
import Foundation
import Synchronization
import TesseraGalleries
import TesseraPostgres
import TesseraTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What `scripts/cluster` starts, for the tests through the balancer: two `tessera serve` processes on one
/// PostgreSQL database, with one `TESSERA_SECRET` and one folder of gallery image copies (`TESSERA_MEDIA`),
/// and nginx in front (`TestBalancer`, the same configuration). Every test
/// client has one address, so the upload budget is off (`extra` environment may change that).
struct TestCluster {
    let servers: [ServerProcess]
    let balancer: TestBalancer
    let root: URL
    /// The database's URL, password and all, for a `tessera` command beside the servers.
    let databaseURL: String
    /// The servers' `TESSERA_SECRET`, which such a command needs too (it signs the image URLs it prints).
    let secret: String

    static func start(_ url: PostgresURL, extra: [String: String] = [:]) async throws -> TestCluster {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cluster-\(UUID())")
        let media = root.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let secret = UUID().uuidString + UUID().uuidString
        var servers: [ServerProcess] = []
        do {
            for n in 1...2 {
                let data = root.appendingPathComponent("server\(n)")
                try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
                servers.append(
                    try await ServerProcess.start(
                        [],
                        environment: [
                            "TESSERA_DATA": data.path, "TESSERA_MEDIA": media.path, "TESSERA_DATABASE_URL": url.urlText,
                            "TESSERA_SECRET": secret,
                            "TESSERA_TRUSTED_PROXIES": "127.0.0.1", "TESSERA_IMPORT_RATE": "off",
                        ].merging(extra) { _, new in new }))
            }
            let balancer = try await TestBalancer.start(upstreams: servers.map(\.port))
            return TestCluster(
                servers: servers, balancer: balancer, root: root, databaseURL: url.urlText,
                secret: secret)
        } catch {
            for server in servers { _ = await server.stop() }
            try? FileManager.default.removeItem(at: root)
            throw error
        }
    }

    /// Stops everything; the servers' exit statuses (0: a clean shutdown).
    func stop() async -> [Int32?] {
        await balancer.stop()
        var statuses: [Int32?] = []
        for server in servers { statuses.append(await server.stop()) }
        try? FileManager.default.removeItem(at: root)
        return statuses
    }
}

/// A gallery's server-sent events, read over a real connection and kept as they come, so a test can wait for
/// what it expects.
final class CollectedEvents: Sendable {
    struct Event: Sendable, Equatable {
        var name = "message"
        var id: Int?
        var data = ""
    }

    /// The shared client: a test that throws before `close` leaves no client to shut down.
    private let client = HTTPClient.shared
    private let events = Mutex<[Event]>([])
    private let reader = Mutex<Task<Void, Never>?>(nil)

    static func open(port: Int, gallery: GalleryID, lastEventID: Int? = nil) async throws -> CollectedEvents {
        let collected = CollectedEvents()
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/galleries/\(gallery)/events")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: "\(lastEventID)") }
        let response = try await collected.client.execute(request, timeout: .seconds(300))
        #expect(response.status == .ok)
        let task = Task { [collected] in
            var parser = ServerSentEventParser()
            do {
                for try await chunk in response.body {
                    let events = parser.feed(String(buffer: chunk)).map {
                        Event(name: $0.name, id: $0.id.flatMap { Int($0) }, data: $0.data)
                    }
                    collected.events.withLock { $0 += events }
                }
            } catch {}
        }
        collected.reader.withLock { $0 = task }
        return collected
    }

    var received: [Event] { events.withLock { $0 } }

    /// The events received once `done` holds of them, or all of them when `timeout` passes first.
    @discardableResult
    func wait(timeout: Duration = .seconds(60), until done: ([Event]) -> Bool) async throws -> [Event] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let now = received
            if done(now) { return now }
            try await Task.sleep(for: .milliseconds(20))
        }
        return received
    }

    /// Waits for the event with revision `revision`.
    @discardableResult
    func wait(forRevision revision: Int, timeout: Duration = .seconds(60)) async throws -> [Event] {
        try await wait(timeout: timeout) { $0.contains { ($0.id ?? 0) >= revision } }
    }

    func close() async {
        reader.withLock { $0 }?.cancel()
    }
}
