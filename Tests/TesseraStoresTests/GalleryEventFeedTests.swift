import Foundation
import Logging
import PostgresNIO
import Synchronization
import TesseraCore
import TesseraGalleries
import TesseraTestSupport
import Testing

@testable import TesseraPostgres

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

    /// Runs `body` with a new database, a feed on it delivering into `received`, listening (or connecting) meanwhile.
    static func withListeningFeed(
        _ body: @escaping @Sendable (PostgresAppDatabase, PostgresGalleryEvents, Received) async throws -> Void
    ) async throws {
        try await TestPostgres.withRunningDatabase(on: try requirePostgres()) { database in
            let feed = PostgresGalleryEvents(database: database, logger: quietLogger)
            let received = Received()
            feed.deliver { _, change in received.append(change) }
            let listening = Task { try await feed.run() }
            defer { listening.cancel() }
            try await body(database, feed, received)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func changesArriveInOrderAndAfterTheListeningConnectionIsLost() async throws {
        try await Self.withListeningFeed { database, feed, received in
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

    /// The thousandth change is delivered as the first was: the receiver is called through as many frames (it
    /// once came back from its lock wrapped in two more thunks per event, so each call went deeper).
    @Test(.timeLimit(.minutes(2)))
    func theReceiverIsCalledAtTheSameDepthAfterManyEvents() async throws {
        try await TestPostgres.withRunningDatabase(on: try requirePostgres()) { database in
            let feed = PostgresGalleryEvents(database: database, logger: quietLogger)
            let frames = Mutex<[Int: Int]>([:])
            let received = Received()
            feed.deliver { _, change in
                if let revision = change.revision, revision == 2 || revision % 500 == 0 {
                    let count = Self.frames()
                    frames.withLock { $0[revision] = count }
                }
                received.append(change)
            }
            let listening = Task { try await feed.run() }
            defer { listening.cancel() }
            let store = PostgresGalleryStore(database: database, linker: GalleryStoreContractTests.Linker())
            let gallery = try await store.create(name: "Busy")
            while try await received.wait(for: 1, timeout: .seconds(1)).isEmpty {
                _ = try await store.rename(gallery.id, to: "Busy \(Int.random(in: 0..<1000))", ifRevision: nil)
            }
            let last = try await store.rename(gallery.id, to: "Start", ifRevision: nil).revision
            let target = ((last / 500) + 2) * 500
            for number in (last + 1)...target {
                _ = try await store.rename(gallery.id, to: "Busy \(number)", ifRevision: nil)
            }
            _ = try await received.wait(for: target - 1)
            let seen = frames.withLock { $0 }
            let depths = seen.sorted { $0.key < $1.key }.map(\.value)
            // 500 events apart: two thunks an event made that 1,000 frames more; a few either way are the
            // executor's.
            #expect(depths.count >= 2 && abs(depths[depths.count - 1] - depths[depths.count - 2]) <= 8, "\(seen)")
        }
    }

    /// A change that fits in its notification travels in it; a longer one (an item with many tags) is read
    /// from its row: both arrive as the server that made them told them.
    @Test(.timeLimit(.minutes(2)))
    func shortAndLongChangesBothArrive() async throws {
        try await Self.withListeningFeed { database, feed, received in
            let told = ChangeRecord()
            let store = PostgresGalleryStore(
                database: database, linker: GalleryStoreContractTests.Linker(),
                onChange: { _, change in told.append(change) })
            let gallery = try await store.create(name: "Sizes")
            while try await received.wait(for: 1, timeout: .seconds(1)).isEmpty {
                _ = try await store.rename(gallery.id, to: "Sizes \(Int.random(in: 0..<1000))", ifRevision: nil)
            }
            let heard = received.all.count
            var long = GalleryStoreContractTests.image(1)
            long.item.tags = (0..<400).map { "tag-number-\($0)-of-a-long-list" }
            _ = try await store.add(GalleryStoreContractTests.image(0), to: gallery.id, at: nil, ifRevision: nil)
            _ = try await store.add(long, to: gallery.id, at: 0, ifRevision: nil)
            _ = try await store.add(long, to: gallery.id, at: 1, ifRevision: nil)
            let stored = try StoredChange(told.all[told.all.count - 1]).encoded()
            #expect(stored.utf8.count > PostgresGalleryEvents.notifyLimit, "the long one does not fit")
            let arrived = try await received.wait(for: heard + 3)
            #expect(Array(arrived.suffix(3)) == Array(told.all.suffix(3)))
        }
    }

    /// The frames on the calling thread's stack, however many (glibc's `backtrace`; Foundation's
    /// `callStackReturnAddresses` stops at 128).
    static func frames() -> Int {
        typealias Backtrace = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int32) -> Int32
        guard let symbol = dlsym(nil, "backtrace") else { return 0 }
        var buffer = [UnsafeMutableRawPointer?](repeating: nil, count: 1 << 16)
        return Int(unsafeBitCast(symbol, to: Backtrace.self)(&buffer, Int32(buffer.count)))
    }

    /// An add at either end writes its event in the database's own call (`gallery_add_item`), one between two
    /// items in Swift: either way the other servers read the change this server told, revision, index and
    /// item alike; and an add to a gallery that is not there writes nothing.
    @Test func addsAtEitherEndAndBetweenWriteTheChangeTheServerTold() async throws {
        try await TestPostgres.withRunningDatabase(on: try requirePostgres()) { database in
            let told = ChangeRecord()
            let store = PostgresGalleryStore(
                database: database, linker: GalleryStoreContractTests.Linker(),
                onChange: { _, change in told.append(change) })
            let gallery = try await store.create(name: "Told")
            for (number, index) in [(0, nil), (1, nil), (2, 0), (3, 1), (4, 99), (5, 2)] as [(Int, Int?)] {
                _ = try await store.add(
                    GalleryStoreContractTests.image(number), to: gallery.id, at: index, ifRevision: nil)
            }
            let indexes = told.all.compactMap { change -> Int? in
                if case .added(_, let index, _) = change { return index }
                return nil
            }
            #expect(indexes == [0, 1, 0, 1, 4, 2])
            let feed = PostgresGalleryEvents(database: database, logger: quietLogger)
            #expect(try await feed.changes(of: gallery.id, after: 1) == told.all)
            let titles = try await store.gallery(gallery.id, items: true).items?.map(\.item.title)
            #expect(titles == ["Image 2", "Image 3", "Image 5", "Image 0", "Image 1", "Image 4"])

            let missing = GalleryID.random()
            await #expect(throws: GalleryError.galleryNotFound(missing.rawValue)) {
                _ = try await store.add(GalleryStoreContractTests.image(9), to: missing, at: nil, ifRevision: nil)
            }
            #expect(try await feed.changes(of: missing, after: 0).isEmpty)
            #expect(told.all.count == 6)
        }
    }
}
