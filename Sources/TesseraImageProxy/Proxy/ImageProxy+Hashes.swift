import Foundation
import TesseraCore
import TesseraImageProcessing

extension ImageProxy {
    /// The perceptual hash of the thumbnail this proxy made of `source` (an image address as its service gave
    /// it, before signing), while it is kept in memory or in the disk cache; `nil` otherwise. Never fetches
    /// or decodes anything.
    public func thumbnailHash(source: String) async -> PerceptualHash? {
        await hashes.hash(of: source, thumbnailKeys: Self.thumbnailKeys(source))
    }

    /// The disk cache keys of `source`'s thumbnails: JPEG or WebP, and JPEG only.
    static func thumbnailKeys(_ source: String) -> [String] {
        [webPMode, "j"].map { cacheKey(.thumb, mode: $0, reference: source) }
    }

    /// The perceptual hash of an item's thumbnail, if one was made and is kept: its `thumbnail` URL either
    /// signed (`/img/thumb/...`, checked like a request; a bad signature or another variant is `nil`) or as
    /// its service gave it.
    public func thumbnailHash(for item: Item) async -> PerceptualHash? {
        guard let source = thumbnailSource(of: item) else { return nil }
        return await thumbnailHash(source: source)
    }

    /// The hashes known now for the thumbnails of `items`' pictures (made by the prefetch, by browsers, by
    /// another server on the database), by item; one database query for the page. Fetches nothing.
    public func thumbnailHashes(of items: [Item]) async -> [ItemID: PerceptualHash] {
        var sources: [ItemID: String] = [:]
        for item in items where item.kind == .image && sources[item.id] == nil {
            if let source = thumbnailSource(of: item) { sources[item.id] = source }
        }
        let known = await hashes.hashes(of: Set(sources.values).map { ($0, Self.thumbnailKeys($0)) })
        return sources.compactMapValues { known[$0] }
    }

    /// The image address an item's thumbnail is made from: its `thumbnail` URL either signed (`/img/thumb/...`,
    /// checked like a request; a bad signature or another variant is `nil`) or as its service gave it.
    private func thumbnailSource(of item: Item) -> String? {
        guard let url = item.thumbnail?.url else { return nil }
        guard let signed = SignedImagePath(url) else { return url }
        guard signed.variant == ImageVariant.thumb.rawValue else { return nil }
        return try? verified(.thumb, signed.signature, signed.encodedSource)
    }

    /// Keeps a thumbnail's hash, unless one is kept already (for one just `made` in its render: unless memory has
    /// one), else hashed from its bytes (a thumbnail read back from disk without a hash kept for it, or one whose
    /// pixels could not be hashed).
    /// A thumbnail that cannot be hashed is still served: the picture then joins groups by identity only.
    func recordHash(ofThumbnail data: Data, made: PerceptualHash? = nil, source: String, key: String) async {
        if let made {
            // Just made, so only memory is asked first, not the database on the answer's path of every new
            // thumbnail: a row kept before for this source is the same picture's, and is replaced.
            if hashes.remembered(source) == nil { hashes.store(made, for: source, thumbnailKey: key) }
            return
        }
        guard await hashes.hash(of: source, thumbnailKeys: Self.thumbnailKeys(source)) == nil else { return }
        do {
            hashes.store(try await processor.perceptualHash(of: data), for: source, thumbnailKey: key)
        } catch {
            logger.debug("thumbnail not hashed", metadata: ["source": "\(source)", "error": "\(error)"])
        }
    }
}
