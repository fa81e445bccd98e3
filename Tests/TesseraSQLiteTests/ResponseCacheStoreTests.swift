import Foundation
import TesseraCore
import TesseraSQLite
import Testing

@Suite("Response cache in SQLite")
struct ResponseCacheStoreTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func storesUntilExpiryAndReplaces() async throws {
        let store = SQLiteResponseCache(database: try AppDatabase.inMemory())
        await store.store(Data("one".utf8), for: "k", source: .pixabay, expiresAt: now.addingTimeInterval(60))
        #expect(await store.body(for: "k", now: now) == Data("one".utf8))
        #expect(await store.body(for: "k", now: now.addingTimeInterval(61)) == nil)
        await store.store(Data("two".utf8), for: "k", source: .pixabay, expiresAt: now.addingTimeInterval(120))
        #expect(await store.body(for: "k", now: now.addingTimeInterval(61)) == Data("two".utf8))
        #expect(try await store.count() == 1)
    }

    @Test func answersAreReadableBeforeTheyReachTheDisk() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-db-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.open(inDirectory: folder)
        let store = SQLiteResponseCache(database: database)
        for index in 0..<50 {
            await store.store(
                Data("\(index)".utf8), for: "k\(index)", source: .pixabay, expiresAt: now.addingTimeInterval(60))
            #expect(await store.body(for: "k\(index)", now: now) == Data("\(index)".utf8))
        }
        #expect(try await store.count() == 50, "count waits for the queue")
        let onDisk = try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM responseCache")
        }
        #expect(onDisk == 50)
    }

    @Test func purgeRemovesOnlyExpiredAnswers() async throws {
        let store = SQLiteResponseCache(database: try AppDatabase.inMemory())
        await store.store(Data("old".utf8), for: "old", source: .flickr, expiresAt: now.addingTimeInterval(-1))
        await store.store(Data("new".utf8), for: "new", source: .flickr, expiresAt: now.addingTimeInterval(60))
        #expect(try await store.purgeExpired(now: now) == 1)
        #expect(try await store.count() == 1)
    }

    @Test func survivesReopeningTheDataFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-db-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let store = SQLiteResponseCache(database: try AppDatabase.open(inDirectory: folder))
            await store.store(Data("kept".utf8), for: "k", source: .openverse, expiresAt: now.addingTimeInterval(60))
            await store.flush()
        }
        let reopened = SQLiteResponseCache(database: try AppDatabase.open(inDirectory: folder))
        #expect(await reopened.body(for: "k", now: now) == Data("kept".utf8))
    }
}
