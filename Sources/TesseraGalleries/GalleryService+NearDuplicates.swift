import Foundation
import TesseraCore
import TesseraImageProcessing

/// Near duplicates on adding (docs/galleries.md, "Near duplicates"): an image that is the same picture as an
/// item the gallery already holds (same item id, or perceptual hashes within `PictureGrouping.threshold`) is
/// refused with `nearDuplicate` unless the person asked to add it anyway.
extension GalleryService {
    /// Whether an add checks: not when asked to add anyway, and never through a drop link (a visitor cannot
    /// be asked).
    static func checksNearDuplicates(_ viewer: GalleryViewer, _ allowNearDuplicate: Bool) -> Bool {
        if case .link = viewer { return false }
        return !allowNearDuplicate
    }

    /// The picture's perceptual hash, or `nil` when it cannot be made (the image is then compared by item id
    /// only; it was already checked to be an image this server takes).
    func pictureHash(of data: Data) async -> PerceptualHash? {
        do {
            return try await processor.perceptualHash(of: data)
        } catch {
            logger.debug("gallery image not hashed", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Throws `nearDuplicate` naming the gallery's current item that is the same picture: one with the same
    /// item id first, else the one whose hash is nearest within the threshold (the earliest of equals).
    func refuseNearDuplicate(of itemID: ItemID, picture: PerceptualHash?, in id: GalleryID)
        async throws(GalleryError)
    {
        let items = try await store.gallery(id, items: true).items ?? []
        if let same = items.first(where: { $0.item.id == itemID }) { throw .nearDuplicate(NearDuplicate(same)) }
        guard let picture, !items.isEmpty else { return }
        let hashes = try await pictureHashes(of: items, in: id)
        var nearest: (item: GalleryItem, distance: Int)?
        for item in items {
            guard let hash = hashes[item.id] else { continue }
            let distance = hash.distance(to: picture)
            if distance <= PictureGrouping.threshold, distance < (nearest?.distance ?? .max) {
                nearest = (item, distance)
            }
        }
        if let nearest { throw .nearDuplicate(NearDuplicate(nearest.item)) }
    }

    /// Each item's kept hash; those without one (added before hashes were kept) get it made from their stored
    /// copy now, and kept.
    private func pictureHashes(of items: [GalleryItem], in id: GalleryID) async throws(GalleryError)
        -> [GalleryItemID: PerceptualHash]
    {
        var hashes = try await store.pictureHashes(of: id)
        let missing = items.filter { hashes[$0.id] == nil }
        guard !missing.isEmpty else { return hashes }
        let stored = try await store.storedImages(of: id)
        for item in missing {
            guard let copy = stored[item.id] else { continue }
            let url = files.url(forHash: copy.hash)
            guard let data = try? await files.blocking({ try Data(contentsOf: url) }),
                let hash = await pictureHash(of: data)
            else { continue }
            hashes[item.id] = hash
            try await store.setPictureHash(hash, of: item.id, in: id)
        }
        return hashes
    }

    /// Stores the new item with its picture hash, when one was made, in the add's own write.
    func kept(_ image: NewGalleryImage, in id: GalleryID, at index: Int?, ifRevision: Int?)
        async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int)
    {
        try await store.add(image, to: id, at: index, ifRevision: ifRevision)
    }
}

extension NearDuplicate {
    init(_ item: GalleryItem) {
        self.init(id: item.id, title: item.item.title, thumbnail: item.image.thumbnail.url)
    }
}
