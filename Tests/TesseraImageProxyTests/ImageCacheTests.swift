import Foundation
import NIOCore
import Synchronization
import Testing

@testable import TesseraImageProxy

@Suite("Image caches")
struct ImageCacheTests {
    @Test func lruEvictsTheLeastRecentlyUsedByCost() {
        var lru = CostLRU<String, Int>(capacity: 10)
        lru.insert(1, for: "a", cost: 4)
        lru.insert(2, for: "b", cost: 4)
        #expect(lru.value(for: "a") == 1, "a is now the most recent")
        let evicted = lru.insert(3, for: "c", cost: 4)
        #expect(evicted.map(\.key) == ["b"])
        #expect(lru.keysOldestFirst == ["a", "c"])
        #expect(lru.totalCost == 8)
        #expect(lru.insert(9, for: "huge", cost: 11).map(\.key) == ["huge"], "larger than the cap: not stored")
        #expect(lru.peek("huge") == nil)
        lru.insert(4, for: "a", cost: 2)
        #expect(lru.totalCost == 6, "replacing an entry replaces its cost")
        #expect(lru.removeValue(for: "c") == 3)
        #expect(lru.keysOldestFirst == ["a"])
        // Slots are reused: many inserts keep the bound and the order.
        for index in 0..<1000 { lru.insert(index, for: "k\(index)", cost: 1) }
        #expect(lru.count == 10)
        #expect(lru.keysOldestFirst == (990..<1000).map { "k\($0)" })
    }

    @Test func memoryCacheStaysWithinItsBytes() {
        let cache = MemoryImageCache(capacityBytes: 10_000)
        for index in 0..<50 {
            cache.put(image(bytes: 1_000), for: "k\(index)")
            #expect(cache.totalBytes <= 10_000)
        }
        #expect(cache.count == 10_000 / (1_000 + 2 + MemoryImageCache.entryOverhead))
        #expect(cache.get("k49") != nil)
        #expect(cache.get("k0") == nil)
    }

    @Test func diskCacheEvictsAtItsCapAndSurvivesARestart() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try await DiskImageCache.open(directory: folder, capacityBytes: 3_500)
        for index in 0..<5 {
            await cache.write(Data(repeating: UInt8(index), count: 1_000), for: "key-\(index)")
        }
        #expect(cache.count == 3)
        #expect(cache.totalBytes == 3 * (1_000 + CacheFile.trailerLength), "each file's trailer counts")
        #expect(await cache.read("key-0") == nil)
        #expect(await cache.read("key-1") == nil)
        #expect(await cache.read("key-4") == Data(repeating: 4, count: 1_000))
        #expect(try filesOnDisk(folder).count == 3, "evicted files are deleted")

        // A torn write from a crash: a temporary file left behind. A new process cleans it and keeps the rest.
        let shard = folder.appendingPathComponent(String(DiskImageCache.name(for: "key-2").prefix(2)))
        try Data("half an ima".utf8).write(to: shard.appendingPathComponent(".tmp-crashed"))
        let reopened = try await DiskImageCache.open(directory: folder, capacityBytes: 3_500)
        #expect(reopened.count == 3)
        #expect(await reopened.read("key-2") == Data(repeating: 2, count: 1_000))
        #expect(try filesOnDisk(folder).allSatisfy { !$0.hasPrefix(".tmp-") })

        // Reopened with a smaller cap: trimmed at once, oldest first.
        let smaller = try await DiskImageCache.open(directory: folder, capacityBytes: 1_100)
        #expect(smaller.count == 1)
        #expect(try filesOnDisk(folder).count == 1)
    }

    /// Entries are not flushed to disk (`CacheFile`): after a crash a file may be short, zeroed or another
    /// version's. Each is a miss, deleted, and forgotten; nothing wrong is ever read.
    @Test func diskCacheFilesThatDoNotMatchTheirTrailerAreMisses() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try await DiskImageCache.open(directory: folder, capacityBytes: 100_000)
        let bytes = Data((0..<3_001).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let damages: [(String, (Data) -> Data)] = [
            ("cut short", { $0.dropLast(5) }),
            ("zeroed", { Data(count: $0.count) }),
            (
                "a byte changed",
                {
                    var file = $0; file[1_234] ^= 0x10; return file
                }
            ),
            ("the bytes alone, as an older version wrote them", { $0.dropLast(CacheFile.trailerLength) }),
            ("empty", { _ in Data() }),
        ]
        for (index, (damage, change)) in damages.enumerated() {
            let key = "thumb|w|https://cdn.example/\(index).jpg"
            await cache.write(bytes, for: key)
            #expect(await cache.read(key) == bytes, "whole: read back as written")
            let file = DiskImageCache.path(for: DiskImageCache.name(for: key), in: folder)
            try change(try Data(contentsOf: file)).write(to: file)
            #expect(await cache.read(key) == nil, "\(damage): a miss")
            #expect(!FileManager.default.fileExists(atPath: file.path), "\(damage): deleted")
        }
        #expect(cache.count == 0 && cache.totalBytes == 0, "and forgotten")

        // Side files carry the same trailer: a damaged one is no hash at all.
        await cache.writeSide(Data("2:0123456789abcdef".utf8), for: "side")
        #expect(await cache.side(for: "side") == Data("2:0123456789abcdef".utf8))
        let side = DiskImageCache.sidePath(for: DiskImageCache.name(for: "side"), in: folder)
        try Data("2:0123456789abcdef".utf8).write(to: side)
        #expect(await cache.side(for: "side") == nil)
    }

    /// Writes run at the lowest priority; past `maxPendingWrites` waiting, a new one is dropped, not queued.
    @Test func diskCacheDropsWritesPastItsBound() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bounded = try await DiskImageCache.open(directory: folder, capacityBytes: 100_000, maxPendingWrites: 0)
        await bounded.write(Data("x".utf8), for: "dropped")
        #expect(await bounded.read("dropped") == nil && bounded.count == 0)

        let cache = try await DiskImageCache.open(
            directory: folder.appendingPathComponent("many"), capacityBytes: 1_000_000, maxPendingWrites: 8)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<64 { group.addTask { await cache.write(Data(count: 100), for: "k\(index)") } }
        }
        #expect(cache.count >= 8 && cache.count <= 64, "at least the bound's worth kept: \(cache.count)")
        await cache.write(Data("y".utf8), for: "after")
        #expect(await cache.read("after") == Data("y".utf8), "once they are done, writes are taken again")
    }

    @Test func diskCacheForgetsFilesDeletedBehindItsBack() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try await DiskImageCache.open(directory: folder, capacityBytes: 10_000)
        await cache.write(Data("x".utf8), for: "gone")
        try FileManager.default.removeItem(at: DiskImageCache.path(for: DiskImageCache.name(for: "gone"), in: folder))
        #expect(await cache.read("gone") == nil)
        #expect(cache.count == 0)
    }

    @Test func coalescerRunsOneWorkPerKeyInFlight() async throws {
        let coalescer = Coalescer<Int>()
        let runs = Counter()
        let gate = AsyncStream<Void>.makeStream()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await coalescer.run("same") {
                        runs.add()
                        for await _ in gate.stream { break }
                        return 42
                    }
                }
            }
            // Let every caller join before the work may finish.
            while coalescer.inFlightCount == 0 { await Task.yield() }
            try await Task.sleep(for: .milliseconds(50))
            gate.continuation.yield()
            for try await value in group { #expect(value == 42) }
        }
        #expect(runs.value == 1)
        #expect(coalescer.inFlightCount == 0)
        // Once done, the next call runs the work again (results live in the caches, not here).
        _ = try await coalescer.run("same") {
            runs.add()
            return 1
        }
        #expect(runs.value == 2)
    }

    private func image(bytes: Int) -> ServedImage {
        ServedImage(
            body: ByteBuffer(bytes: [UInt8](repeating: 1, count: bytes)), contentType: "image/jpeg", etag: "\"e\"")
    }

    private func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cache-\(UUID().uuidString)")
    }

    private func filesOnDisk(_ folder: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.contains("/") }
            .map { String($0.split(separator: "/").last!) }
    }
}

private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
