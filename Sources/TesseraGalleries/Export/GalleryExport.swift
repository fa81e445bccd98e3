import Foundation
import TesseraCore

/// A gallery as a ZIP file: `gallery.json` (the gallery and its items, each naming its image file) and
/// the stored images as `images/001-title.jpg`, in the gallery's order. Streamed: `write` is called with
/// each piece as it is ready.
public struct GalleryExport: Sendable {
    /// What `gallery.json` holds for each item.
    struct ExportedItem: Encodable {
        let id: String
        let file: String
        let item: Item
        let sourceURL: String?
        let addedAt: String
    }

    struct Manifest: Encodable {
        let id: String
        let name: String
        let createdAt: String
        let updatedAt: String
        let revision: Int
        let exportedAt: String
        let items: [ExportedItem]
    }

    let gallery: Gallery
    let formats: [String: String]
    let files: GalleryImageFiles
    let hashes: [String: String]

    /// The file name a download should get: the gallery's name made safe.
    public var fileName: String {
        let slug = Self.slug(gallery.name)
        return (slug.isEmpty ? "gallery" : slug) + ".zip"
    }

    public func write(_ write: (Data) async throws -> Void) async throws {
        var archive = ZipArchive()
        var exported: [ExportedItem] = []
        let items = gallery.items ?? []
        let digits = max(3, String(items.count).count)
        for (offset, entry) in items.enumerated() {
            guard let hash = hashes[entry.id] else { continue }
            let number = String(offset + 1)
            let prefix = String(repeating: "0", count: max(0, digits - number.count)) + number
            let slug = Self.slug(entry.item.title)
            let name = "images/\(prefix)\(slug.isEmpty ? "" : "-" + slug).\(Self.fileExtension(formats[entry.id]))"
            let data = try Data(contentsOf: files.url(forHash: hash))
            try await write(try archive.entry(name: name, data: data))
            exported.append(
                ExportedItem(
                    id: entry.id, file: name, item: entry.item, sourceURL: entry.sourceURL, addedAt: entry.addedAt))
        }
        let manifest = Manifest(
            id: gallery.id, name: gallery.name, createdAt: gallery.createdAt, updatedAt: gallery.updatedAt,
            revision: gallery.revision, exportedAt: Timestamp.text(Date().timeIntervalSince1970), items: exported)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try await write(try archive.entry(name: "gallery.json", data: try encoder.encode(manifest)))
        try await write(archive.finish())
    }

    static func slug(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        let words = folded.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : " "
        }
        return String(String(words).split(separator: " ").joined(separator: "-").prefix(60))
    }

    static func fileExtension(_ mimeType: String?) -> String {
        switch mimeType {
        case "image/png": "png"
        case "image/gif": "gif"
        case "image/webp": "webp"
        case "image/avif": "avif"
        case "image/heic": "heic"
        default: "jpg"
        }
    }
}

extension GalleryService {
    /// The export of gallery `id` (deleted or not), ready to stream.
    public func export(_ id: String) async throws(GalleryError) -> GalleryExport {
        let gallery = try await store.gallery(id)
        let stored = try await store.storedImages(of: id)
        return GalleryExport(
            gallery: gallery, formats: stored.mapValues(\.format), files: files, hashes: stored.mapValues(\.hash))
    }
}
