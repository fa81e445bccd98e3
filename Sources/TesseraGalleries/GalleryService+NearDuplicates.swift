import Foundation
import TesseraCore

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
            return try await inspector.perceptualHash(of: data)
        } catch {
            logger.debug("gallery image not hashed", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Throws `nearDuplicate` naming the gallery's current item that is the same picture: one with the same
    /// item id first, else the one whose hash is nearest within the threshold (the earliest of equals). Reads
    /// ids and hashes only (`pictures(of:)`), and the one item it names.
    func refuseNearDuplicate(of itemID: ItemID, picture: PerceptualHash?, in id: GalleryID)
        async throws(GalleryError)
    {
        let pictures = try await store.pictures(of: id)
        let key = itemID.description
        if let same = pictures.first(where: { $0.itemID == key }) { try await refuse(same.id, in: id) }
        guard let picture, !pictures.isEmpty else { return }
        let hashes = try await pictureHashes(of: pictures, in: id)
        var nearest: (id: GalleryItemID, distance: Int)?
        for item in pictures {
            guard let hash = hashes[item.id] else { continue }
            let distance = hash.distance(to: picture)
            if distance <= PictureGrouping.threshold, distance < (nearest?.distance ?? .max) {
                nearest = (item.id, distance)
            }
        }
        if let nearest { try await refuse(nearest.id, in: id) }
    }

    /// Throws `nearDuplicate` naming `itemID`, unless it was removed meanwhile (then nothing is in the way).
    private func refuse(_ itemID: GalleryItemID, in id: GalleryID) async throws(GalleryError) {
        let image: NewGalleryImage
        do {
            image = try await store.image(of: itemID, in: id)
        } catch .itemNotFound {
            return
        }
        let refs = StoredImageRefs(hash: image.hash, width: image.width, height: image.height, linker: linker)
        throw .nearDuplicate(NearDuplicate(id: itemID, title: image.item.title, thumbnail: refs.thumbnail.url))
    }

    /// Each item's kept hash; those without one (added before hashes were kept, or by an add that did not
    /// check) get it made from their stored copy now, and kept.
    private func pictureHashes(of pictures: [GalleryPicture], in id: GalleryID) async throws(GalleryError)
        -> [GalleryItemID: PerceptualHash]
    {
        var hashes = pictures.hashes
        for (item, hash) in try await hashMissing(pictures, in: id) { hashes[item] = hash }
        return hashes
    }

    /// Makes and keeps the hash of every item of `pictures` without one, from its stored copy; returns them.
    /// Stops between items when the task is cancelled.
    private func hashMissing(_ pictures: [GalleryPicture], in id: GalleryID) async throws(GalleryError)
        -> [GalleryItemID: PerceptualHash]
    {
        let missing = pictures.filter { $0.hash == nil }
        guard !missing.isEmpty else { return [:] }
        let stored = try await store.storedImages(of: id)
        var made: [GalleryItemID: PerceptualHash] = [:]
        for item in missing where !Task.isCancelled {
            guard let copy = stored[item.id], let hash = await pictureHash(ofStoredCopy: copy.hash) else { continue }
            made[item.id] = hash
            try await store.setPictureHash(hash, of: item.id, in: id)
        }
        return made
    }

    /// The perceptual hash of the stored copy named `hash`; nil when it cannot be read or decoded.
    private func pictureHash(ofStoredCopy hash: String) async -> PerceptualHash? {
        let url = files.url(forHash: hash)
        guard let data = try? await files.blocking({ try Data(contentsOf: url) }) else { return nil }
        return await pictureHash(of: data)
    }

    /// Hashes every item of every gallery (Recently deleted too) that has no hash yet, a batch at a time, so the
    /// first checking add into a gallery does not make them all in its request (after the migrations that began
    /// keeping hashes, or adds that did not check). The server runs it once at start, in the background, and it
    /// stops between items when cancelled; several servers may run it at once: each writes the same hash.
    /// Returns how many it made.
    @discardableResult
    public func hashMissingPictures() async -> Int {
        var made = 0
        var after: GalleryItemID?
        while !Task.isCancelled, let batch = try? await store.unhashedPictures(after: after, limit: 200),
            let last = batch.last
        {
            after = last.item
            for picture in batch where !Task.isCancelled {
                guard let hash = await pictureHash(ofStoredCopy: picture.imageHash) else { continue }
                do {
                    try await store.setPictureHash(hash, of: picture.item, in: picture.gallery)
                    made += 1
                } catch {
                    // Gone meanwhile: nothing to keep.
                    logger.debug(
                        "gallery picture not hashed", metadata: ["item": "\(picture.item)", "error": "\(error)"])
                }
            }
        }
        return made
    }

    /// Stores the new item with its picture hash, when one was made, in the add's own write.
    func kept(_ image: NewGalleryImage, in id: GalleryID, at index: Int?, ifRevision: Int?)
        async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int)
    {
        try await store.add(image, to: id, at: index, ifRevision: ifRevision)
    }
}
