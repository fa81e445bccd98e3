import Foundation
import Logging
import Synchronization
import TesseraCore

/// Images kept on disk in the data folder, bounded by their bytes, least recently used out first.
///
/// One file per entry, named by the SHA-256 of its key, in 256 sub-folders. Writes go to a temporary file
/// renamed over the final name, not flushed: each file ends with its length and a checksum (`CacheFile`), and
/// one that does not match after a crash is a miss, deleted, never served torn; leftover temporary files are
/// deleted at start. The use order lives in memory;
/// at start it is rebuilt from the files' modification times (refreshed on a hit at most once a day), so
/// the cache survives restarts with its order roughly intact. File work runs on the cache's own threads
/// (`BlockingPool`), never on Swift's cooperative threads.
public final class DiskImageCache: Sendable {
    public let directory: URL
    private let files: Mutex<CostLRU<String, Date>>
    private let pool: BlockingPool
    /// Writes queued or running, and the most there may be: at the lowest priority on a machine kept busy they
    /// could pile up, holding their bytes, so past the bound a write is dropped (a cache may miss an entry).
    private let pendingWrites = Atomic(0)
    private let maxPendingWrites: Int
    private let logger: Logger
    /// Bytes each entry's file holds beyond the entry (its `CacheFile` trailer), counted in `totalBytes`.
    public static let entryOverhead = CacheFile.trailerLength
    private static let touchInterval: TimeInterval = 24 * 60 * 60
    private static let temporaryPrefix = AtomicFile.temporaryPrefix

    /// Opens (or creates) the cache in `directory` and indexes what is already there.
    ///
    /// - Parameter maxPendingWrites: writes waiting for the disk past which a new one is dropped.
    public static func open(
        directory: URL, capacityBytes: Int, maxPendingWrites: Int = 512,
        logger: Logger = Logger(label: "tessera.images.disk")
    ) async throws -> DiskImageCache {
        // The lowest priority: every write is behind an answer already sent, so it waits for CPU nobody else
        // wants, not the other way round (docs/images.md, "The disk cache without fsync").
        let pool = BlockingPool(size: 2, name: "image-cache", niceness: 19)
        let cache = try await pool.run {
            try DiskImageCache(
                directory: directory, capacityBytes: capacityBytes, maxPendingWrites: maxPendingWrites, pool: pool,
                logger: logger)
        }
        guard let cache else { throw CancellationError() }
        return cache
    }

    private init(directory: URL, capacityBytes: Int, maxPendingWrites: Int, pool: BlockingPool, logger: Logger)
        throws
    {
        self.directory = directory
        self.maxPendingWrites = maxPendingWrites
        self.pool = pool
        self.logger = logger
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        var found: [(name: String, size: Int, modified: Date)] = []
        var sideFiles: [(name: String, file: URL)] = []
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        for folder in try manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil) {
            guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in names {
                let file = folder.appendingPathComponent(name)
                if name.hasPrefix(Self.temporaryPrefix) {
                    try? manager.removeItem(at: file)
                    continue
                }
                if name.hasSuffix(Self.sideSuffix) {
                    sideFiles.append((String(name.dropLast(Self.sideSuffix.count)), file))
                    continue
                }
                guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true
                else { continue }
                found.append((name, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast))
            }
        }
        var lru = CostLRU<String, Date>(capacity: max(0, capacityBytes))
        var evicted: [String] = []
        for file in found.sorted(by: { $0.modified < $1.modified }) {
            evicted += lru.insert(file.modified, for: file.name, cost: file.size).map(\.key)
        }
        // A smaller cap than last time: trim now.
        for name in evicted { Self.remove(name, in: directory) }
        // A side file whose entry went while it was being written.
        for side in sideFiles where lru.peek(side.name) == nil { try? manager.removeItem(at: side.file) }
        files = Mutex(lru)
    }

    /// The bytes stored for `key`, or `nil`.
    public func read(_ key: String) async -> Data? {
        let name = Self.name(for: key)
        guard let stamp = files.withLock({ $0.value(for: name) }) else { return nil }
        let url = Self.path(for: name, in: directory)
        let refresh = Date().timeIntervalSince(stamp) > Self.touchInterval
        let payload =
            (try? await pool.run { () -> Data? in
                guard let payload = CacheFile.payload(of: try Data(contentsOf: url)) else {
                    // Torn by a crash, or written by another version: made again.
                    unlink(url.path)
                    return nil
                }
                if refresh {
                    try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
                }
                return payload
            }) ?? nil
        guard let payload else {
            // Deleted behind our back, unreadable or torn: forget it.
            _ = files.withLock { $0.removeValue(for: name) }
            return nil
        }
        return payload
    }

    /// Stores `data` for `key` (replacing it), then evicts the least recently used files over the cap.
    public func write(_ data: Data, for key: String) async {
        guard pendingWrites.add(1, ordering: .relaxed).newValue <= maxPendingWrites else {
            pendingWrites.subtract(1, ordering: .relaxed)
            logger.debug("image cache write dropped: too many waiting", metadata: ["waiting": "\(maxPendingWrites)"])
            return
        }
        defer { pendingWrites.subtract(1, ordering: .relaxed) }
        let name = Self.name(for: key)
        let url = Self.path(for: name, in: directory)
        do {
            guard try await pool.run({ () throws(CacheFileError) in try CacheFile.write(data, to: url.path) }) != nil
            else { return }
        } catch {
            logger.warning("image cache write failed", metadata: ["error": "\(error)"])
            return
        }
        let cost = data.count + CacheFile.trailerLength
        let evicted = files.withLock { $0.insert(Date(), for: name, cost: cost) }.map(\.key)
        guard !evicted.isEmpty else { return }
        let directory = directory
        _ = await pool.run {
            for name in evicted { Self.remove(name, in: directory) }
        }
    }

    // MARK: - Side files

    /// A few bytes kept beside the entry for `key` (a thumbnail's perceptual hash): not counted in the cap,
    /// deleted with the entry, and left out of `count` and `totalBytes`. `nil` when there is none.
    public func side(for key: String) async -> Data? {
        let url = Self.sidePath(for: Self.name(for: key), in: directory)
        return (try? await pool.run { CacheFile.payload(of: try Data(contentsOf: url)) }) ?? nil
    }

    /// Writes the side file of `key` (replacing it, with a trailer like an entry's); the entry itself may be
    /// written before or after.
    public func writeSide(_ data: Data, for key: String) async {
        let url = Self.sidePath(for: Self.name(for: key), in: directory)
        do {
            _ = try await pool.run { () throws(CacheFileError) in try CacheFile.write(data, to: url.path) }
        } catch {
            logger.warning("image cache side write failed", metadata: ["error": "\(error)"])
        }
    }

    static let sideSuffix = ".side"

    static func sidePath(for name: String, in directory: URL) -> URL {
        path(for: name, in: directory).appendingPathExtension(String(sideSuffix.dropFirst()))
    }

    /// Deletes an entry's file and its side file.
    private static func remove(_ name: String, in directory: URL) {
        try? FileManager.default.removeItem(at: path(for: name, in: directory))
        try? FileManager.default.removeItem(at: sidePath(for: name, in: directory))
    }

    /// Bytes held now (never above the cap once a write has finished).
    public var totalBytes: Int { files.withLock { $0.totalCost } }
    public var count: Int { files.withLock { $0.count } }

    static func name(for key: String) -> String {
        KeyHash.hex(key)
    }

    static func path(for name: String, in directory: URL) -> URL {
        DataFolder.hashed(name, in: directory)
    }

}
