import Foundation
import TesseraCore
import TesseraPostgres
import TesseraSQLite
import TesseraTestSupport
import Testing

/// The response cache's contract, on both engines: the same tests, once with SQLite in a data folder and once
/// with PostgreSQL. (What only SQLite does, its write queue on disk, is in TesseraSQLiteTests.)
@Suite("Response cache on both engines")
struct ResponseCacheContractTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Runs `body` with a factory of stores on one empty database: each call is another "server" on it.
    private func withCaches(
        _ engine: Engine,
        _ body:
            @escaping @Sendable (_ open: @escaping @Sendable () throws -> any ResponseCacheStoring) async throws -> Void
    ) async throws {
        switch engine {
        case .sqlite:
            try await withTemporaryFolder { folder in
                try await body {
                    SQLiteResponseCache(database: try AppDatabase.open(inDirectory: folder), logger: quietLogger)
                }
            }
        case .postgres:
            let server = try requirePostgres()
            try await TestPostgres.withRunningDatabase(on: server) { database in
                try await body { PostgresResponseCache(database: database, logger: quietLogger) }
            }
        }
    }

    @Test(arguments: Engine.allCases)
    func storesUntilExpiryAndReplaces(engine: Engine) async throws {
        try await withCaches(engine) { open in
            let store = try open()
            await store.store(Data("one".utf8), for: "k", source: .pixabay, expiresAt: now.addingTimeInterval(60))
            #expect(await store.body(for: "k", now: now) == Data("one".utf8))
            #expect(await store.body(for: "k", now: now.addingTimeInterval(61)) == nil)
            await store.store(Data("two".utf8), for: "k", source: .pixabay, expiresAt: now.addingTimeInterval(120))
            #expect(await store.body(for: "k", now: now.addingTimeInterval(61)) == Data("two".utf8))
            #expect(try await store.count() == 1)
            #expect(await store.body(for: "other", now: now) == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func expiryHoldsOnceWritten(engine: Engine) async throws {
        try await withCaches(engine) { open in
            let store = try open()
            await store.store(Data("soon".utf8), for: "k", source: .flickr, expiresAt: now.addingTimeInterval(10))
            await store.flush()
            // Read back from the database, not the write queue.
            let reopened = try open()
            #expect(await reopened.body(for: "k", now: now.addingTimeInterval(9)) == Data("soon".utf8))
            #expect(await reopened.body(for: "k", now: now.addingTimeInterval(10)) == nil)
        }
    }

    @Test(arguments: Engine.allCases)
    func purgeRemovesOnlyExpiredAnswers(engine: Engine) async throws {
        try await withCaches(engine) { open in
            let store = try open()
            await store.store(Data("old".utf8), for: "old", source: .flickr, expiresAt: now.addingTimeInterval(-1))
            await store.store(Data("new".utf8), for: "new", source: .flickr, expiresAt: now.addingTimeInterval(60))
            #expect(try await store.purgeExpired(now: now) == 1)
            #expect(try await store.count() == 1)
            #expect(await store.body(for: "new", now: now) == Data("new".utf8))
        }
    }

    @Test(arguments: Engine.allCases)
    func binaryBodiesComeBackByteForByte(engine: Engine) async throws {
        try await withCaches(engine) { open in
            let body = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let store = try open()
            await store.store(body, for: "bytes", source: .wikimedia, expiresAt: now.addingTimeInterval(60))
            await store.flush()
            #expect(try await open().body(for: "bytes", now: now) == body)
        }
    }

    /// What one server stored, a server opened later on the same database answers.
    @Test(arguments: Engine.allCases)
    func aSecondServerOnTheSameDatabaseReadsTheAnswers(engine: Engine) async throws {
        try await withCaches(engine) { open in
            let first = try open()
            for index in 0..<20 {
                await first.store(
                    Data("\(index)".utf8), for: "k\(index)", source: .openverse, expiresAt: now.addingTimeInterval(60))
            }
            await first.flush()
            let second = try open()
            for index in 0..<20 {
                #expect(await second.body(for: "k\(index)", now: now) == Data("\(index)".utf8))
            }
            #expect(try await second.count() == 20)
        }
    }
}
