import Foundation
import TesseraCore

/// Adding images: gets an image's bytes (through the image proxy for a search result, the guarded fetcher
/// for a URL, the request for an upload), checks them, stores the copy, then the row.
extension GalleryService {
    /// Adds a search result. Its image comes through the image proxy from the item's own signed `full` URL
    /// (else `preview`, else `thumbnail`), so only images this server handed out are ever fetched. The
    /// signature is checked here, once; the image then travels by reference.
    public func add(
        item: Item, to id: GalleryID, at index: Int? = nil, ifRevision: Int? = nil, by viewer: GalleryViewer,
        allowNearDuplicate: Bool = false
    )
        async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int)
    {
        try Self.check(item)
        guard let url = item.largestImageAddress?.url, let path = SignedImagePath(url)
        else { throw .invalidItem("The item has no image address from this server.") }
        return try await add(
            item, .signed(path), to: id, at: index, ifRevision: ifRevision, by: viewer,
            allowNearDuplicate: allowNearDuplicate)
    }

    /// Adds a search result whose image the caller names by reference, unsigned: for a caller in this process
    /// that is trusted with what it names (the CLI on its own data folder), which need not sign an address
    /// for it to be checked again. `item` is kept as given.
    public func add(
        item: Item, image: ImageRequest, to id: GalleryID, at index: Int? = nil, ifRevision: Int? = nil,
        by viewer: GalleryViewer, allowNearDuplicate: Bool = false
    ) async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int) {
        try Self.check(item)
        return try await add(
            item, .trusted(image), to: id, at: index, ifRevision: ifRevision, by: viewer,
            allowNearDuplicate: allowNearDuplicate)
    }

    /// A search result's image: an address this server signed, or a reference a trusted caller gave.
    private enum ResultImage {
        case signed(SignedImagePath)
        case trusted(ImageRequest)
    }

    /// What is wrong with the item itself is said first (400), before who may add (404/403) or If-Match (412).
    private static func check(_ item: Item) throws(GalleryError) {
        guard item.title.count <= 1000, item.tags.count <= 500, item.metadata.count <= 500 else {
            throw .invalidItem("This item is too large to keep (title, tags or metadata).")
        }
        if let problem = Self.problem(sizesOf: item)
            ?? Self.problem(mediaPreview: item.mediaPreview, listing: item.listing)
        {
            throw .invalidItem(problem)
        }
    }

    private func add(
        _ item: Item, _ source: ResultImage, to id: GalleryID, at index: Int?, ifRevision: Int?,
        by viewer: GalleryViewer, allowNearDuplicate: Bool
    ) async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int) {
        try await authorize(id, viewer, .add)
        // The gallery's early check (a read on the database's queue) runs while the image is got and looked
        // at; it is awaited before anything is stored, and what it finds wrong is said first.
        async let writable = failure(ofEnsuringWritable: id, index: index, ifRevision: ifRevision)
        let image: Result<InspectedImage, GalleryError>
        do throws(GalleryError) {
            let request: ImageRequest
            let bytes: Data
            do {
                switch source {
                case .signed(let path): request = try images.verified(path)
                case .trusted(let given): request = given
                }
                try await checkStoredCopy(request.reference, viewer)
                bytes = try await images.bytes(of: request)
            } catch let error as GalleryError {
                throw error
            } catch let error as ImageProxyError {
                throw .proxy(error)
            } catch {
                throw .storage(underlying: error)
            }
            image = .success(try inspected(bytes, .result(item)))
        } catch {
            image = .failure(error)
        }
        if let failure = await writable { throw failure }
        let check = Self.checksNearDuplicates(viewer, allowNearDuplicate) ? id : nil
        let new = try await stored(try image.get(), sourceURL: item.pageURL, checking: check)
        return try await kept(new, in: id, at: index, ifRevision: ifRevision)
    }

    /// Adds the image at `url`, fetched with the guarded fetcher (private networks refused, size capped
    /// while streaming, magic numbers checked on the first bytes).
    public func add(
        url: String, to id: GalleryID, at index: Int? = nil, ifRevision: Int? = nil, by viewer: GalleryViewer,
        allowNearDuplicate: Bool = false
    )
        async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int)
    {
        guard url.count <= 4096 else { throw .invalidBody("That address is longer than 4,096 characters.") }
        try await authorize(id, viewer, .add)
        try await ensureWritable(id, index: index, ifRevision: ifRevision)
        let data: Data
        do {
            data = try await fetcher.image(at: url)
        } catch {
            throw .fetch(error)
        }
        let name = URL(string: url).map { ($0.lastPathComponent.removingPercentEncoding ?? $0.lastPathComponent) }
        let host = URL(string: url)?.host ?? "the web"
        let origin = Origin.imported(
            .web, title: Self.title(fromFileName: name) ?? "Image from \(host)", pageURL: url,
            metadata: [MetadataEntry("Imported from", url)] + Self.dropNote(viewer))
        let check = Self.checksNearDuplicates(viewer, allowNearDuplicate) ? id : nil
        let image = try await stored(try inspected(data, origin), sourceURL: url, checking: check)
        return try await kept(image, in: id, at: index, ifRevision: ifRevision)
    }

    /// Adds uploaded bytes (already capped by the caller at the configured size).
    public func add(
        upload data: Data, fileName: String?, to id: GalleryID, at index: Int? = nil, ifRevision: Int? = nil,
        by viewer: GalleryViewer, allowNearDuplicate: Bool = false
    ) async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int) {
        try await authorize(id, viewer, .add)
        try await ensureWritable(id, index: index, ifRevision: ifRevision)
        let origin = Origin.imported(
            .upload, title: Self.title(fromFileName: fileName) ?? "Uploaded image", pageURL: nil,
            metadata: (fileName.map { [MetadataEntry("File name", $0)] } ?? []) + Self.dropNote(viewer))
        let check = Self.checksNearDuplicates(viewer, allowNearDuplicate) ? id : nil
        let image = try await stored(try inspected(data, origin), sourceURL: nil, checking: check)
        return try await kept(image, in: id, at: index, ifRevision: ifRevision)
    }

    // MARK: - Steps

    /// What an image added through a drop link says of it, so the owner can tell (docs/accounts.md).
    static func dropNote(_ viewer: GalleryViewer) -> [MetadataEntry] {
        guard case .link(let grant) = viewer else { return [] }
        return [MetadataEntry("Added through", "drop link \(grant.link)")]
    }

    /// Fails early for a gallery that does not exist, is deleted, or has moved on: before any download of a URL
    /// or reading of an upload; beside the image proxy's answer for a search result (its image is one this
    /// server signed, usually in its caches), and awaited before anything is stored.
    private func ensureWritable(_ id: GalleryID, index: Int?, ifRevision: Int?) async throws(GalleryError) {
        if let index, index < 0 { throw .invalidIndex(index) }
        let state = try await store.state(of: id)
        if let ifRevision, ifRevision != state.revision {
            throw .revisionMismatch(expected: ifRevision, current: state.revision)
        }
        if state.deleted { throw .galleryDeleted }
    }

    /// A gallery's stored copy is added only by someone who may see it (as the image route serves it): a
    /// signed address kept from before, or from a link's page, does not copy another user's picture.
    private func checkStoredCopy(_ reference: ImageReference, _ viewer: GalleryViewer) async throws(GalleryError) {
        guard case .account = viewer,
            case .stored(let hash) = reference,
            try await !mayView(storedImage: hash, by: viewer)
        else { return }
        throw .proxy(.file(.noStoredCopy(ImageReference.stored(hash: hash).string)))
    }

    /// Where an image comes from: a search result, kept as it is, or an import (a URL or an upload), whose
    /// item is made once its bytes are stored: it is known by their hash and shows its own copy.
    private enum Origin {
        case result(Item)
        case imported(SourceID, title: String, pageURL: String?, metadata: [MetadataEntry])
    }

    /// `ensureWritable`'s error, or `nil`: `async let` does not carry typed throws.
    private func failure(ofEnsuringWritable id: GalleryID, index: Int?, ifRevision: Int?) async -> GalleryError? {
        do {
            try await ensureWritable(id, index: index, ifRevision: ifRevision)
            return nil
        } catch {
            return error
        }
    }

    /// An image's bytes once looked at: its header (an image within the pixel cap), the SHA-256 its copy is
    /// stored under, and the item it becomes.
    private struct InspectedImage {
        var data: Data
        var header: ImageHeader
        var hash: String
        var item: Item
    }

    /// Reads the header (refusing what is not an image or has too many pixels) and hashes the bytes.
    private func inspected(_ data: Data, _ origin: Origin) throws(GalleryError) -> InspectedImage {
        let header: ImageHeader
        do {
            header = try inspector.header(of: data)
        } catch {
            throw .imaging(error)
        }
        let hash = GalleryImageFiles.hash(of: data)
        return InspectedImage(
            data: data, header: header, hash: hash, item: item(of: origin, hash: hash, header: header))
    }

    /// For gallery `checking`, hashes the picture and refuses a near duplicate of an item it holds (before
    /// anything is stored: a refusal leaves nothing behind); then stores the copy.
    private func stored(_ image: InspectedImage, sourceURL: String?, checking gallery: GalleryID?)
        async throws(GalleryError) -> NewGalleryImage
    {
        // Made only for the check: an add that does not check leaves the item's hash to the first check that
        // needs it (`pictureHashes(of:in:)`), off this request's path.
        var picture: PerceptualHash?
        if let gallery {
            picture = await pictureHash(of: image.data)
            try await refuseNearDuplicate(of: image.item.id, picture: picture, in: gallery)
        }
        do {
            try await files.store(image.data, hash: image.hash)
        } catch {
            throw .storage(underlying: error)
        }
        let header = image.header
        return NewGalleryImage(
            item: image.item, sourceURL: sourceURL, hash: image.hash, format: header.format.mimeType,
            size: image.data.count, width: header.width, height: header.height, pictureHash: picture)
    }

    /// The item an image becomes: a search result as it is, an import known by its bytes' hash.
    private func item(of origin: Origin, hash: String, header: ImageHeader) -> Item {
        let item: Item
        switch origin {
        case .result(let result):
            item = result
        case .imported(let source, let title, let pageURL, var metadata):
            let copy = StoredImageRefs(hash: hash, width: header.width, height: header.height, linker: linker)
            metadata.add("Format", header.format.mimeType)
            metadata.add("Size", "\(header.width) × \(header.height)")
            item = Item(
                id: ItemID(source: source, nativeID: String(hash.prefix(16))), kind: .image, title: title,
                pageURL: pageURL, thumbnail: copy.thumbnail, preview: copy.preview, full: copy.original,
                metadata: metadata)
        }
        return item
    }

    /// What is wrong with an item's widths, heights or rating count as docs/openapi.yaml bounds them (0 to
    /// `Int.largestExactInJSON`), or `nil`.
    static func problem(sizesOf item: Item) -> String? {
        let bound = 0...Int.largestExactInJSON
        let images =
            [item.thumbnail, item.preview, item.full].compactMap { $0 } + item.sizes.map(\.ref)
            + (item.listing?.screenshots ?? [])
        for image in images {
            for side in [image.width, image.height] {
                if let side, !bound.contains(side) {
                    return "An image's width and height are whole numbers from 0 to \(bound.upperBound)."
                }
            }
        }
        if let count = item.listing?.ratingCount, !bound.contains(count) {
            return "A rating count is a whole number from 0 to \(bound.upperBound)."
        }
        return nil
    }

    /// What is wrong with an item's preview or listing as docs/openapi.yaml constrains them, or `nil`: the
    /// preview must be a `/media/…` path of this server, the rating 0 to 5, screenshots `/img/…` paths (or a
    /// link's `/s/{slug}/img/…`, as the document's Image allows).
    static func problem(mediaPreview: MediaPreview?, listing: StoreListing?) -> String? {
        // By bytes, as the document's pattern reads: a "/" followed by a combining mark is one Character.
        func segments(_ url: String) -> [Substring.UTF8View.SubSequence] {
            url.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        }
        if let media = mediaPreview {
            let parts = segments(media.url)
            guard parts.count == 4, parts[0].isEmpty, String(Substring(parts[1])) == "media" else {
                return "The item's media preview is not an address from this server (/media/…)."
            }
        }
        guard let listing else { return nil }
        if let rating = listing.rating, !(0...5).contains(rating) { return "A rating is from 0 to 5." }
        if let count = listing.ratingCount, count < 0 { return "A rating count cannot be negative." }
        let screenshots = listing.screenshots ?? []
        if screenshots.count > 50 { return "An item keeps at most 50 screenshots." }
        for shot in screenshots {
            guard shot.url.hasPrefix("/"), SignedImagePath(shot.url) != nil else {
                return "The item's screenshots are not addresses from this server (/img/…)."
            }
            if (shot.width ?? 0) < 0 || (shot.height ?? 0) < 0 { return "A screenshot's size cannot be negative." }
        }
        return nil
    }

    /// "sunset_over-the.sea.jpg" → "sunset over the.sea"; nil when nothing readable is left.
    static func title(fromFileName name: String?) -> String? {
        guard var name, !name.isEmpty, name != "/" else { return nil }
        if let dot = name.lastIndex(of: "."), dot > name.startIndex { name = String(name[..<dot]) }
        let words = name.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.isEmpty ? nil : String(words.prefix(200))
    }
}
