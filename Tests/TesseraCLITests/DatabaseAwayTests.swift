import AsyncHTTPClient
import Foundation
import Synchronization
import TesseraGalleries
import TesseraPostgres
import TesseraTestSupport
import Testing

/// PostgreSQL going away under load, with `tessera serve` as a process: gallery requests are answered
/// `503 database_unavailable` (none hangs: each is bounded by the client's 30 s), service comes back by itself
/// when the database does, and every change acknowledged before, during or after is there.
@Suite("tessera serve while PostgreSQL is away, run as a process")
struct DatabaseAwayTests {
    /// What the writer saw: galleries acknowledged (201), 503s with the right code, anything else.
    private struct Seen: Sendable {
        var acknowledged: [String] = []
        var unavailable = 0
        var acknowledgedSinceBack = 0
        var other: [String] = []
    }

    private final class Watch: Sendable {
        let seen = Mutex(Seen())
        let back = Atomic<Bool>(false)
    }

    @Test(.timeLimit(.minutes(5))) func galleryRequestsAre503WhileTheDatabaseIsAwayAndNothingAcknowledgedIsLost()
        async throws
    {
        let server = try ServePostgresTests.server()
        try await TestPostgres.withFreshDatabase(on: server) { url in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-away-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let process = try await ServerProcess.start(
                [],
                environment: [
                    "TESSERA_DATA": folder.path, "TESSERA_DATABASE_URL": ServePostgresTests.text(url),
                    "TESSERA_DATABASE_POOL": "2",
                ])
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let api = TesseraAPI(client: client, port: process.port)
            let watch = Watch()

            // One writer, one gallery after another, for as long as the test runs.
            let writer = Task {
                var number = 0
                while !Task.isCancelled {
                    number += 1
                    let name = "g\(number)"
                    let answer = try await api.send("POST", "/api/galleries", json: #"{"name":"\#(name)"}"#)
                    watch.seen.withLock { seen in
                        switch answer.status {
                        case 201:
                            seen.acknowledged.append(name)
                            if watch.back.load(ordering: .relaxed) { seen.acknowledgedSinceBack += 1 }
                        case 503 where answer.text.contains(#""code":"database_unavailable""#):
                            seen.unavailable += 1
                        default:
                            seen.other.append("\(answer.status) \(answer.text.prefix(200))")
                        }
                    }
                    if answer.status == 503 { try await Task.sleep(for: .milliseconds(100)) }
                }
            }
            func waitUntil(_ what: String, _ condition: (Seen) -> Bool) async throws {
                let deadline = ContinuousClock.now + .seconds(90)
                while ContinuousClock.now < deadline {
                    if watch.seen.withLock({ condition($0) }) { return }
                    try await Task.sleep(for: .milliseconds(100))
                }
                Issue.record("never saw \(what): \(watch.seen.withLock { $0 })")
            }

            try await waitUntil("five galleries made") { $0.acknowledged.count >= 5 }
            // Nobody may connect, and the server's connections are ended: as a database restart looks.
            try await TestPostgres.administer(server, "ALTER DATABASE \(url.database) ALLOW_CONNECTIONS false")
            try await TestPostgres.administer(
                server, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(url.database)'")
            try await waitUntil("three 503 database_unavailable") { $0.unavailable >= 3 }

            try await TestPostgres.administer(server, "ALTER DATABASE \(url.database) ALLOW_CONNECTIONS true")
            watch.back.store(true, ordering: .relaxed)
            try await waitUntil("service back by itself") { $0.acknowledgedSinceBack >= 5 }
            writer.cancel()
            _ = try? await writer.value

            let final = watch.seen.withLock { $0 }
            #expect(final.other.isEmpty, "only 201 and 503 database_unavailable: \(final.other)")
            let listed = try await api.send("GET", "/api/galleries")
            #expect(listed.status == 200)
            let names = Set(try JSONDecoder().decode([Gallery].self, from: Data(listed.text.utf8)).map(\.name))
            let lost = final.acknowledged.filter { !names.contains($0) }
            #expect(lost.isEmpty, "every acknowledged gallery is there; lost: \(lost)")
            try await client.shutdown()
            #expect(await process.stop() == 0)
        }
    }
}
