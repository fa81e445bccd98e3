import Foundation
import Synchronization
import TesseraCore

/// The perceptual hash of each thumbnail the proxy made, by the image's source: in memory, and kept in the
/// database (`ThumbnailHashStoring`), so every server sharing a PostgreSQL database knows the hashes any of
/// them made, and a hash outlives its thumbnail's eviction and a restart. Without a database it is kept on
/// disk instead, in the thumbnail's side file in the disk cache (`PerceptualHash.sideFileText`: the hash's
/// version and sixteen hex digits, so one made another way is ignored and made again;
/// `DiskImageCache.writeSide`), gone when the thumbnail goes. Never both: the database has every hash a side
/// file would, and creating a second file per thumbnail cost as much CPU as the thumbnail's own file while a
/// search's thumbnails were made (docs/images.md, "The disk cache without fsync").
///
/// Keyed in memory by source alone, not by encoding: the JPEG and the WebP thumbnail of one source hash a bit
/// or two apart at most, and either one says what the picture looks like.
final class ThumbnailHashes: Sendable {
    /// How long a hash waits to be written with the others made meanwhile: a search page's thumbnails are made
    /// within a few hundred milliseconds, and a transaction each took CPU from the page being drawn (docs/
    /// duplicates.md, "The hash in the database"). A hash lost in a crash in that time is made again when asked for.
    static let writeDelay: Duration = .milliseconds(100)

    private let memory: Mutex<CostLRU<String, PerceptualHash>>
    private let disk: DiskImageCache?
    private let database: (any ThumbnailHashStoring)?
    /// Hashes not written to the database yet; the first one in starts the write.
    private let unwritten = Mutex<[String: PerceptualHash]>([:])
    private let writeDelay: Duration

    /// - Parameters:
    ///   - capacity: how many hashes stay in memory (each costs about its source's length).
    ///   - writeDelay: how long a hash waits for others to be written with (`writeDelay`).
    init(
        disk: DiskImageCache?, database: (any ThumbnailHashStoring)? = nil, capacity: Int = 50_000,
        writeDelay: Duration = ThumbnailHashes.writeDelay
    ) {
        self.memory = Mutex(CostLRU(capacity: capacity))
        self.writeDelay = writeDelay
        self.disk = disk
        self.database = database
    }

    /// The hash kept for `source`, from memory, else from the database, else (without one) from the side file of
    /// one of its thumbnails; then kept in memory too. `thumbnailKeys`: the disk cache keys its thumbnails have.
    func hash(of source: String, thumbnailKeys: [String]) async -> PerceptualHash? {
        if let hit = remembered(source) { return hit }
        if let database {
            guard let hash = await database.hash(of: source) else { return nil }
            remember(hash, for: source)
            return hash
        }
        if let disk {
            for key in thumbnailKeys {
                guard let data = await disk.side(for: key),
                    let hash = PerceptualHash(sideFileText: String(decoding: data, as: UTF8.self))
                else { continue }
                remember(hash, for: source)
                return hash
            }
        }
        return nil
    }

    /// The hashes kept for a page's pictures, `sources` with their thumbnails' disk cache keys: from memory,
    /// then the rest from the database in one query (then kept in memory too), or without one from side files.
    func hashes(of sources: [(source: String, thumbnailKeys: [String])]) async -> [String: PerceptualHash] {
        var found: [String: PerceptualHash] = [:]
        var missing: [(source: String, thumbnailKeys: [String])] = []
        memory.withLock { memory in
            for entry in sources {
                if let hit = memory.value(for: entry.source) {
                    found[entry.source] = hit
                } else {
                    missing.append(entry)
                }
            }
        }
        guard !missing.isEmpty else { return found }
        if let database {
            for (source, hash) in await database.hashes(of: missing.map(\.source)) {
                found[source] = hash
                remember(hash, for: source)
            }
        } else {
            for entry in missing {
                if let hash = await hash(of: entry.source, thumbnailKeys: entry.thumbnailKeys) {
                    found[entry.source] = hash
                }
            }
        }
        return found
    }

    /// The hash in memory for `source`, asking nothing else.
    func remembered(_ source: String) -> PerceptualHash? {
        memory.withLock { $0.value(for: source) }
    }

    /// Keeps `hash` in memory at once; the database row (with the others made within `writeDelay`; or without a
    /// database, the side file of the thumbnail at `thumbnailKey`) is written behind the caller.
    func store(_ hash: PerceptualHash, for source: String, thumbnailKey: String) {
        remember(hash, for: source)
        if let database {
            let first = unwritten.withLock { unwritten in
                let first = unwritten.isEmpty
                unwritten[source] = hash
                return first
            }
            guard first else { return }
            Task {
                try? await Task.sleep(for: self.writeDelay)
                let batch = self.unwritten.withLock { unwritten in
                    defer { unwritten = [:] }
                    return unwritten
                }
                await database.store(batch, now: Date())
            }
        } else if let disk {
            Task { await disk.writeSide(Data(hash.sideFileText.utf8), for: thumbnailKey) }
        }
    }

    private func remember(_ hash: PerceptualHash, for source: String) {
        memory.withLock { _ = $0.insert(hash, for: source, cost: 1) }
    }
}
