import Foundation
import Synchronization
import TesseraCore

/// The perceptual hash of each thumbnail the proxy made, by the image's source: in memory, and on disk in
/// the thumbnail's side file in the disk cache (sixteen hex digits; `DiskImageCache.writeSide`), so it is
/// read back without decoding anything, after a restart too, and goes when the thumbnail goes.
///
/// Keyed in memory by source alone, not by encoding: the JPEG and the WebP thumbnail of one source hash a bit
/// or two apart at most, and either one says what the picture looks like.
final class ThumbnailHashes: Sendable {
    private let memory: Mutex<CostLRU<String, PerceptualHash>>
    private let disk: DiskImageCache?

    /// - Parameter capacity: how many hashes stay in memory (each costs about its source's length).
    init(disk: DiskImageCache?, capacity: Int = 50_000) {
        self.memory = Mutex(CostLRU(capacity: capacity))
        self.disk = disk
    }

    /// The hash kept for `source`, from memory or else from the side file of one of its thumbnails (then
    /// kept in memory too). `thumbnailKeys`: the disk cache keys its thumbnails have.
    func hash(of source: String, thumbnailKeys: [String]) async -> PerceptualHash? {
        if let hit = memory.withLock({ $0.value(for: source) }) { return hit }
        guard let disk else { return nil }
        for key in thumbnailKeys {
            guard let data = await disk.side(for: key),
                let hash = PerceptualHash(hex: String(decoding: data, as: UTF8.self))
            else { continue }
            remember(hash, for: source)
            return hash
        }
        return nil
    }

    /// Keeps `hash` in memory at once; the side file of the thumbnail at `thumbnailKey` is written behind the
    /// caller.
    func store(_ hash: PerceptualHash, for source: String, thumbnailKey: String) {
        remember(hash, for: source)
        guard let disk else { return }
        Task { await disk.writeSide(Data(hash.description.utf8), for: thumbnailKey) }
    }

    private func remember(_ hash: PerceptualHash, for source: String) {
        memory.withLock { _ = $0.insert(hash, for: source, cost: 1) }
    }
}
