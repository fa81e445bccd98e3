import Foundation
import Synchronization
import TesseraCore
import TesseraSQLite
import Testing

@testable import TesseraImageProxy

@Suite("Thumbnail hashes kept beside the cached thumbnails")
struct ThumbnailHashesTests {
    private let source = "https://cdn.example/photo.jpg"
    private let key = "thumb|j|https://cdn.example/photo.jpg"
    private let hash = PerceptualHash(bits: 0x0123_4567_89ab_cdef)

    private func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tessera-hashes-\(UUID())")
    }

    /// Waits (boundedly) for a side file written behind `store` to land.
    private func side(_ disk: DiskImageCache, _ key: String) async throws -> Data? {
        for _ in 0..<400 {
            if let data = await disk.side(for: key) { return data }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    @Test func aHashIsReadBackFromDiskAfterARestart() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = try await DiskImageCache.open(directory: folder, capacityBytes: 10_000)
        await disk.write(Data(repeating: 7, count: 500), for: key)
        let first = ThumbnailHashes(disk: disk)
        #expect(await first.hash(of: source, thumbnailKeys: [key]) == nil)
        first.store(hash, for: source, thumbnailKey: key)
        #expect(await first.hash(of: source, thumbnailKeys: []) == hash, "known at once, before the disk write ends")
        let stored = try #require(try await side(disk, key))
        #expect(String(decoding: stored, as: UTF8.self) == "2:0123456789abcdef", "the version, sixteen hex digits")
        let entry = 500 + CacheFile.trailerLength
        #expect(disk.count == 1 && disk.totalBytes == entry, "a side file is not an entry and costs nothing")

        // A new process: only the disk cache's files carry the hash over.
        let reopened = try await DiskImageCache.open(directory: folder, capacityBytes: 10_000)
        #expect(reopened.count == 1 && reopened.totalBytes == entry)
        #expect(await ThumbnailHashes(disk: reopened).hash(of: source, thumbnailKeys: ["other", key]) == hash)
        #expect(
            await ThumbnailHashes(disk: reopened).hash(of: "https://cdn.example/other.jpg", thumbnailKeys: []) == nil)
    }

    /// A side file from before `PerceptualHash.version` 2 (sixteen hex digits alone) is a hash made another
    /// way: ignored, so the thumbnail is hashed again and the new hash replaces it.
    @Test func aHashMadeTheOldWayIsIgnoredAndReplaced() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = try await DiskImageCache.open(directory: folder, capacityBytes: 10_000)
        await disk.write(Data(repeating: 7, count: 500), for: key)
        await disk.writeSide(Data("0123456789abcdef".utf8), for: key)
        let hashes = ThumbnailHashes(disk: disk)
        #expect(await hashes.hash(of: source, thumbnailKeys: [key]) == nil)
        hashes.store(hash, for: source, thumbnailKey: key)
        for _ in 0..<400 where await disk.side(for: key) != Data("2:0123456789abcdef".utf8) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(await ThumbnailHashes(disk: disk).hash(of: source, thumbnailKeys: [key]) == hash)
    }

    @Test func aSideFileGoesWithItsEntry() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = try await DiskImageCache.open(directory: folder, capacityBytes: 1_000)
        await disk.write(Data(repeating: 1, count: 600), for: key)
        ThumbnailHashes(disk: disk).store(hash, for: source, thumbnailKey: key)
        #expect(try await side(disk, key) != nil)
        await disk.write(Data(repeating: 2, count: 600), for: "thumb|j|next")
        #expect(await disk.read(key) == nil, "evicted: over the cap")
        #expect(await disk.side(for: key) == nil, "and its hash with it")

        // A side file without its entry (the entry went while the side file was written) goes at start.
        await disk.writeSide(Data("2:00000000000000ff".utf8), for: "thumb|j|gone")
        #expect(await disk.side(for: "thumb|j|gone") != nil)
        let reopened = try await DiskImageCache.open(directory: folder, capacityBytes: 1_000)
        #expect(await reopened.side(for: "thumb|j|gone") == nil)
        #expect(reopened.count == 1)
    }

    /// With a database (every server has one) the hash goes there and not beside the thumbnail: the database
    /// outlives evictions and restarts, and a second file per thumbnail cost as much as the thumbnail's own.
    @Test func withADatabaseNoSideFileIsWritten() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = try await DiskImageCache.open(
            directory: folder.appendingPathComponent("cache"), capacityBytes: 10_000)
        let database = SQLiteThumbnailHashes(database: try AppDatabase.open(inDirectory: folder))
        await disk.write(Data(repeating: 7, count: 500), for: key)
        let hashes = ThumbnailHashes(disk: disk, database: database)
        hashes.store(hash, for: source, thumbnailKey: key)
        for _ in 0..<400 where await database.hash(of: source) == nil { try await Task.sleep(for: .milliseconds(50)) }
        #expect(await database.hash(of: source) == hash)
        #expect(await disk.side(for: key) == nil, "nothing beside the thumbnail")

        // A new process with the same database and cache: the hash is read from the database.
        let reopened = ThumbnailHashes(
            disk: disk, database: SQLiteThumbnailHashes(database: try AppDatabase.open(inDirectory: folder)))
        #expect(await reopened.hash(of: source, thumbnailKeys: [key]) == hash)
        #expect(await reopened.hashes(of: [(source, [key])]) == [source: hash])
    }

    /// A search page's thumbnails are made together, and their hashes go to the database in one write, not a
    /// transaction each; a hash made after that write goes in the next.
    @Test func hashesMadeTogetherAreWrittenTogether() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = CountingHashStore(SQLiteThumbnailHashes(database: try AppDatabase.open(inDirectory: folder)))
        // Long enough that the five below are certainly made within it.
        let hashes = ThumbnailHashes(disk: nil, database: database, writeDelay: .seconds(1))
        let made = (0..<5).map { ("https://cdn.example/\($0).jpg", PerceptualHash(bits: UInt64($0) << 40 | 1)) }
        for (source, hash) in made { hashes.store(hash, for: source, thumbnailKey: "thumb|j|\(source)") }
        #expect(hashes.remembered(made[0].0) == made[0].1, "in memory at once")
        let sources = made.map(\.0)
        for _ in 0..<400 where await database.hashes(of: sources).count < 5 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(await database.hashes(of: sources) == Dictionary(uniqueKeysWithValues: made))
        #expect(database.batches == [5], "one write for the five")

        hashes.store(PerceptualHash(bits: 42), for: "https://cdn.example/late.jpg", thumbnailKey: "late")
        for _ in 0..<400 where await database.hash(of: "https://cdn.example/late.jpg") == nil {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(await database.hash(of: "https://cdn.example/late.jpg") == PerceptualHash(bits: 42))
        #expect(database.batches == [5, 1])
    }

    @Test func withoutADiskCacheHashesStayInMemory() async {
        let hashes = ThumbnailHashes(disk: nil, capacity: 2)
        for number in 0..<3 {
            hashes.store(PerceptualHash(bits: UInt64(number)), for: "s\(number)", thumbnailKey: "k\(number)")
        }
        #expect(
            await hashes.hash(of: "s0", thumbnailKeys: ["k0"]) == nil, "the oldest went to stay within the capacity")
        #expect(await hashes.hash(of: "s2", thumbnailKeys: []) == PerceptualHash(bits: 2))
    }
}

/// The SQLite store, counting the hashes of each write it is asked for.
private final class CountingHashStore: ThumbnailHashStoring {
    private let store: SQLiteThumbnailHashes
    private let written = Mutex<[Int]>([])
    var batches: [Int] { written.withLock { $0 } }

    init(_ store: SQLiteThumbnailHashes) { self.store = store }

    func hash(of source: String) async -> PerceptualHash? { await store.hash(of: source) }
    func hashes(of sources: [String]) async -> [String: PerceptualHash] { await store.hashes(of: sources) }
    func store(_ hashes: [String: PerceptualHash], now: Date) async {
        written.withLock { $0.append(hashes.count) }
        await store.store(hashes, now: now)
    }
    func purge(before cutoff: Date) async throws -> Int { try await store.purge(before: cutoff) }
}
