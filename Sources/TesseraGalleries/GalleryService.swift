import Foundation
import Logging
import TesseraCore
import TesseraFetcher
import TesseraImages
import TesseraImaging

/// Galleries with their images: gets an image's bytes (through the image proxy for a search result, the
/// guarded fetcher for a URL, the request for an upload), checks them, stores the copy, then the row.
public final class GalleryService: Sendable {
    public let store: GalleryStore
    public let files: GalleryImageFiles
    private let proxy: ImageProxy
    private let fetcher: ImageFetcher
    private let processor: ImageProcessor
    private let linker: any ImageLinking
    private let logger: Logger

    public init(
        store: GalleryStore, files: GalleryImageFiles, proxy: ImageProxy, fetcher: ImageFetcher,
        processor: ImageProcessor, linker: any ImageLinking, logger: Logger
    ) {
        self.store = store
        self.files = files
        self.proxy = proxy
        self.fetcher = fetcher
        self.processor = processor
        self.linker = linker
        self.logger = logger
    }

    // MARK: - Adding

    /// Adds a search result. Its image comes through the image proxy from the item's own signed `full` URL
    /// (else `preview`, else `thumbnail`), so only images this server handed out are ever fetched.
    public func add(item: Item, to id: String, at index: Int? = nil, ifRevision: Int? = nil)
        async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int)
    {
        try await ensureWritable(id, index: index, ifRevision: ifRevision)
        guard item.title.count <= 1000, item.tags.count <= 500, item.metadata.count <= 500 else {
            throw .invalidItem("This item is too large to keep (title, tags or metadata).")
        }
        guard let url = item.full?.url ?? item.preview?.url ?? item.thumbnail?.url,
            let path = SignedImagePath(url)
        else { throw .invalidItem("The item has no image address from this server.") }
        let served: ServedImage
        do {
            served = try await proxy.image(
                variant: path.variant, signature: path.signature, encodedURL: path.encodedSource,
                acceptsWebP: false)
        } catch {
            throw Self.galleryError(error)
        }
        let data = Data(served.body.readableBytesView)
        let image = try await stored(data, .result(item), sourceURL: item.pageURL)
        return try await store.add(image, to: id, at: index, ifRevision: ifRevision)
    }

    /// Adds the image at `url`, fetched with the guarded fetcher (private networks refused, size capped
    /// while streaming, magic numbers checked on the first bytes).
    public func add(url: String, to id: String, at index: Int? = nil, ifRevision: Int? = nil)
        async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int)
    {
        try await ensureWritable(id, index: index, ifRevision: ifRevision)
        guard url.count <= 4096 else { throw .invalidBody("That address is longer than 4,096 characters.") }
        let data: Data
        do {
            data = try await fetcher.fetch(
                url, prefixLength: ImageSniffer.prefixLength, validatePrefix: { ImageSniffer.format(of: $0) != nil }
            ).data
        } catch {
            throw Self.importError(Self.galleryError(error))
        }
        let name = URL(string: url).map { ($0.lastPathComponent.removingPercentEncoding ?? $0.lastPathComponent) }
        let host = URL(string: url)?.host ?? "the web"
        let origin = Origin.imported(
            .web, title: Self.title(fromFileName: name) ?? "Image from \(host)", pageURL: url,
            metadata: [MetadataEntry("Imported from", url)])
        let image = try await stored(data, origin, sourceURL: url)
        return try await store.add(image, to: id, at: index, ifRevision: ifRevision)
    }

    /// Adds uploaded bytes (already capped by the caller at the configured size).
    public func add(upload data: Data, fileName: String?, to id: String, at index: Int? = nil, ifRevision: Int? = nil)
        async throws(GalleryError) -> (item: GalleryItem, index: Int, revision: Int)
    {
        try await ensureWritable(id, index: index, ifRevision: ifRevision)
        let origin = Origin.imported(
            .upload, title: Self.title(fromFileName: fileName) ?? "Uploaded image", pageURL: nil,
            metadata: fileName.map { [MetadataEntry("File name", $0)] } ?? [])
        let image = try await stored(data, origin, sourceURL: nil)
        return try await store.add(image, to: id, at: index, ifRevision: ifRevision)
    }

    // MARK: - Removing

    /// Removes an item. Its stored copy stays until the next start even when nothing uses it any more, so
    /// an Undo (adding the same item again, from that copy) still works; `collectGarbage` removes it then.
    public func remove(_ itemID: String, from id: String, ifRevision: Int? = nil) async throws(GalleryError) -> Int {
        try await store.remove(itemID, from: id, ifRevision: ifRevision)
    }

    public func deletePermanently(_ id: String, ifRevision: Int? = nil) async throws(GalleryError) {
        files.remove(hashes: try await store.deletePermanently(id, ifRevision: ifRevision))
    }

    /// Deletes image files no item names: what a crash between writing a file and its row leaves.
    public func collectGarbage() async {
        do {
            let removed = files.removeUnreferenced(keeping: try await store.referencedHashes())
            if removed > 0 {
                logger.info("gallery images: removed unreferenced files", metadata: ["count": "\(removed)"])
            }
        } catch {
            logger.warning("gallery images: could not collect unreferenced files", metadata: ["error": "\(error)"])
        }
    }

    // MARK: - Steps

    /// Fails early, before any download, for a gallery that does not exist, is deleted, or has moved on.
    private func ensureWritable(_ id: String, index: Int?, ifRevision: Int?) async throws(GalleryError) {
        if let index, index < 0 { throw .invalidIndex(index) }
        let gallery = try await store.gallery(id, items: false)
        if let ifRevision, ifRevision != gallery.revision {
            throw .revisionMismatch(expected: ifRevision, current: gallery.revision)
        }
        if gallery.deletedAt != nil { throw .galleryDeleted }
    }

    /// Where an image comes from: a search result, kept as it is, or an import (a URL or an upload), whose
    /// item is made once its bytes are stored: it is known by their hash and shows its own copy.
    private enum Origin {
        case result(Item)
        case imported(SourceID, title: String, pageURL: String?, metadata: [MetadataEntry])
    }

    /// Checks the bytes are an image within the pixel cap (header only), then stores the copy.
    private func stored(_ data: Data, _ origin: Origin, sourceURL: String?) async throws(GalleryError)
        -> NewGalleryImage
    {
        let header: ImageHeader
        do {
            header = try processor.header(of: data)
        } catch {
            throw Self.importError(Self.galleryError(error))
        }
        let hash: String
        do {
            hash = try files.store(data)
        } catch {
            throw GalleryError(status: 500, code: "storage_failed", message: "The image could not be saved: \(error)")
        }
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
        return NewGalleryImage(
            item: item, sourceURL: sourceURL, hash: hash, format: header.format.mimeType, size: data.count,
            width: header.width, height: header.height)
    }

    /// "sunset_over-the.sea.jpg" → "sunset over the.sea"; nil when nothing readable is left.
    static func title(fromFileName name: String?) -> String? {
        guard var name, !name.isEmpty, name != "/" else { return nil }
        if let dot = name.lastIndex(of: "."), dot > name.startIndex { name = String(name[..<dot]) }
        let words = name.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.isEmpty ? nil : String(words.prefix(200))
    }

    /// An import's failure, in the statuses the galleries API promises: 413 for too big, 415 for not an image.
    static func importError(_ error: GalleryError) -> GalleryError {
        let status =
            switch error.code {
            case "too_large", "too_many_pixels": 413
            case "not_an_image", "unreadable_image": 415
            default: error.status
            }
        return GalleryError(status: status, code: error.code, message: error.message)
    }

    // Stopgap for the error enums of issue 10: `ImageProxyError` no longer holds a status or code (the HTTP
    // edge maps it, in `APIError+Images.swift`); these give galleries the same ones until `GalleryError`
    // carries the image errors as cases and the edge maps them too.
    static func galleryError(_ error: ImageProxyError) -> GalleryError {
        switch error {
        case .unknownVariant: GalleryError(status: 404, code: "not_found", message: error.description)
        case .invalidSignature: GalleryError(status: 403, code: "invalid_signature", message: error.description)
        case .fetch(let error): galleryError(error)
        case .imaging(let error): galleryError(error)
        case .file(let file):
            switch file {
            case .notLocal: GalleryError(status: 403, code: "not_local", message: file.description)
            case .outsideLibrary: GalleryError(status: 403, code: "outside_library", message: file.description)
            case .notAFile: GalleryError(status: 403, code: "not_a_file", message: file.description)
            case .missing: GalleryError(status: 404, code: "not_found", message: file.description)
            case .noStoredCopy: GalleryError(status: 404, code: "image_not_found", message: file.description)
            }
        case .fileGone: GalleryError(status: 404, code: "image_not_found", message: error.description)
        case .internal:
            GalleryError(status: 500, code: "image_failed", message: "The image could not be prepared on the server.")
        }
    }

    static func galleryError(_ error: FetchError) -> GalleryError {
        let status =
            switch error {
            case .invalidURL, .unsupportedScheme, .refusedAddress: 403
            case .timeout: 504
            case .upstreamStatus(_, let upstream) where upstream == 404 || upstream == 410: 404
            default: 502
            }
        return GalleryError(status: status, code: error.code, message: error.message)
    }

    static func galleryError(_ error: ImagingError) -> GalleryError {
        switch error {
        case .notAnImage: GalleryError(status: 502, code: "not_an_image", message: error.description)
        case .tooManyPixels: GalleryError(status: 502, code: "too_many_pixels", message: error.description)
        case .unreadable: GalleryError(status: 502, code: "unreadable_image", message: error.description)
        case .failed: GalleryError(status: 500, code: "image_failed", message: "The image could not be processed.")
        }
    }
}
