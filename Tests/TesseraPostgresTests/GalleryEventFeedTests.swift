import Foundation
import Logging
import PostgresNIO
import Synchronization
import TesseraCore
import TesseraGalleries
import TesseraPostgres
import TesseraTestSupport
import Testing

/// `PostgresGalleryEvents` on its own: changes arrive through `LISTEN/NOTIFY`, a reconnecting client's missed
/// changes come from the table, and a lost listening connection is made again without losing a change.
@Suite("PostgreSQL gallery events")
struct GalleryEventFeedTests {
    final class Received: Sendable {
        private let changes = Mutex<[GalleryChange]>([])
        func append(_ change: GalleryChange) { changes.withLock { $0.append(change) } }
        var all: [GalleryChange] { changes.withLock { $0 } }

        /// Waits (at most `timeout`) until `count` changes have arrived.
        func wait(for count: Int, timeout: Duration = .seconds(60)) async throws -> [GalleryChange] {
            let deadline = ContinuousClock.now + timeout
            while all.count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            return all
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func changesArriveInOrderAndAfterTheListeningConnectionIsLost() async throws {
        try await TestPostgres.withRunningDatabase(on: try requirePostgres()) { database in
            let feed = PostgresGalleryEvents(database: database, logger: quietLogger)
            let received = Received()
            feed.deliver { _, change in received.append(change) }
            let listening = Task { try await feed.run() }
            defer { listening.cancel() }
            let store = PostgresGalleryStore(database: database, linker: GalleryStoreContractTests.Linker())
            let gallery = try await store.create(name: "Watched")
            // The feed listens once it has connected: a rename a second until one is heard.
            var renames = 0
            while renames < 60, try await received.wait(for: 1, timeout: .seconds(1)).isEmpty {
                renames += 1
                _ = try await store.rename(gallery.id, to: "Watched \(renames)", ifRevision: nil)
            }
            let first = try #require(received.all.first?.revision)

            // Given the listening connection (every connection but this one) ended, as a database restart does.
            try await TestPostgres.administer(
                database.url,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database.url.database)'")
            // When changes are made meanwhile (the pool reconnects too: a few tries).
            var made: [Int] = []
            let deadline = ContinuousClock.now + .seconds(30)
            while made.count < 3, ContinuousClock.now < deadline {
                if let renamed = try? await store.rename(gallery.id, to: "Again \(made.count)", ifRevision: nil) {
                    made.append(renamed.revision)
                } else {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            // Then each arrives once, in order, after the ones before.
            #expect(made == [renames + 2, renames + 3, renames + 4])
            let all = try await received.wait(for: renames + 5 - first)
            #expect(all.compactMap(\.revision) == Array(first...(renames + 4)), "\(all)")

            // And the table answers a reconnecting client: the changes after its revision, in order.
            let missed = try await feed.changes(of: gallery.id, after: renames + 2)
            #expect(missed.compactMap(\.revision) == [renames + 3, renames + 4])
            #expect(missed.last == .renamed(revision: renames + 4, name: "Again 2"))
        }
    }
}
