import TesseraCore

extension GalleryService {
    /// The credits of gallery `id` (deleted or not): every item's attribution in the gallery's order, with
    /// the warnings (docs/licences.md, "Credits").
    public func credits(_ id: GalleryID, by viewer: GalleryViewer) async throws(GalleryError)
        -> (gallery: Gallery, credits: Credits)
    {
        try await authorize(id, viewer, .read)
        let gallery = try await store.gallery(id)
        return (gallery, Self.credits(of: gallery))
    }

    /// The credits of a gallery read with its items.
    public static func credits(of gallery: Gallery) -> Credits {
        Credits(
            title: gallery.name,
            entries: (gallery.items ?? []).map { entry in
                Credits.Entry(
                    id: entry.id.rawValue, attribution: Attribution(item: entry.item), restricted: entry.restricted)
            })
    }
}
