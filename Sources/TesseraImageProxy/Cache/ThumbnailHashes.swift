import Foundation
import Synchronization
import TesseraCore

/// The perceptual hash of each thumbnail the proxy made, by the image's source: in memory, and on disk
/// beside the thumbnail as an entry of its own in the disk cache (`phash|{source}`, sixteen hex digits),
/// so it is read back without decoding anything, after a restart too.
///
/// Keyed by source alone, not by encoding: the JPEG and the WebP thumbnail of one source hash a bit or two
/// apart at most, and either one says what the picture looks like.
final class ThumbnailHashes: Sendable {
    private let memory: Mutex<CostLRU<String, PerceptualHash>>
    private let disk: DiskImageCache?

    /// - Parameter capacity: how many hashes stay in memory (each costs about its source's length).
    init(disk: DiskImageCache?, capacity: Int = 50_000) {
        self.memory = Mutex(CostLRU(capacity: capacity))
        self.disk = disk
    }

    static func diskKey(_ source: String) -> String {
        "phash|\(source)"
    }

    /// The hash kept for `source`, from memory or else from disk (then kept in memory too).
    func hash(of source: String) async -> PerceptualHash? {
        if let hit = memory.withLock({ $0.value(for: source) }) { return hit }
        guard let disk, let data = await disk.read(Self.diskKey(source)),
            let hash = PerceptualHash(hex: String(decoding: data, as: UTF8.self))
        else { return nil }
        remember(hash, for: source)
        return hash
    }

    /// Keeps `hash` in memory at once; the disk write runs behind the caller.
    func store(_ hash: PerceptualHash, for source: String) {
        remember(hash, for: source)
        guard let disk else { return }
        Task { await disk.write(Data(hash.description.utf8), for: Self.diskKey(source)) }
    }

    private func remember(_ hash: PerceptualHash, for source: String) {
        memory.withLock { _ = $0.insert(hash, for: source, cost: 1) }
    }
}
