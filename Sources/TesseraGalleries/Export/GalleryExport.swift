import Foundation
import TesseraCore

/// A gallery as a ZIP file: `gallery.json` (the gallery and its items, each naming its image file), the
/// stored images as `images/001-title.jpg`, in the gallery's order, and the credits to publish with them
/// (`CREDITS.txt`, `credits.html`: docs/licences.md, "Credits"). A restricted item's file (`Item.isRestricted`)
/// is left out unless its owner asked for a private copy (`includeRestricted`); the credits say which and
/// why (docs/galleries.md, "Export"). Streamed: `write` is called with
/// each piece as it is ready (`write(_:)`), or written to a file that appears whole or not at all
/// (`write(to:)`). File reads and writes run on the files' blocking pool, off the caller's thread.
///
/// An image is read twice in pieces of `chunkSize`: once for its checksum, which its ZIP header carries,
/// then into the archive. So however large the images, an export holds one piece at a time, and a caller
/// whose `write` waits for a slow client (backpressure) makes the export wait with it.
public struct GalleryExport: Sendable {
    /// What `gallery.json` holds for each item.
    struct ExportedItem: Encodable {
        let id: GalleryItemID
        /// `nil` for a restricted item whose file was left out.
        let file: String?
        let item: Item
        let restricted: Bool
        let sourceURL: String?
        let addedAt: String
    }

    struct Manifest: Encodable {
        let id: GalleryID
        let name: String
        let createdAt: String
        let updatedAt: String
        let revision: Int
        let exportedAt: String
        let items: [ExportedItem]
    }

    let gallery: Gallery
    let images: [GalleryItemID: StoredImage]
    let files: GalleryImageFiles
    /// Whether restricted items' files are written too: the owner's private copy.
    let includeRestricted: Bool
    static let chunkSize = 64 * 1024

    /// How many of the gallery's items are restricted: their files are left out unless `includeRestricted`.
    public var restrictedCount: Int { gallery.restrictedCount }

    /// The file name a download should get: the gallery's name made safe.
    public var fileName: String {
        let slug = Self.slug(gallery.name)
        return (slug.isEmpty ? "gallery" : slug) + ".zip"
    }

    /// Hands each piece of the archive to `write`, in order.
    public func write(_ write: (Data) async throws -> Void) async throws {
        var archive = ZipArchive()
        var exported: [ExportedItem] = []
        let items = gallery.items ?? []
        let digits = max(3, String(items.count).count)
        for (offset, entry) in items.enumerated() {
            guard let image = images[entry.id] else { continue }
            if entry.restricted, !includeRestricted {
                exported.append(
                    ExportedItem(
                        id: entry.id, file: nil, item: entry.item, restricted: true, sourceURL: entry.sourceURL,
                        addedAt: entry.addedAt))
                continue
            }
            let number = String(offset + 1)
            let prefix = String(repeating: "0", count: max(0, digits - number.count)) + number
            let slug = Self.slug(entry.item.title)
            let name = "images/\(prefix)\(slug.isEmpty ? "" : "-" + slug).\(Self.fileExtension(image.format))"
            try await copy(files.url(forHash: image.hash), as: name, into: &archive, write)
            exported.append(
                ExportedItem(
                    id: entry.id, file: name, item: entry.item, restricted: entry.restricted,
                    sourceURL: entry.sourceURL, addedAt: entry.addedAt))
        }
        let manifest = Manifest(
            id: gallery.id, name: gallery.name, createdAt: gallery.createdAt, updatedAt: gallery.updatedAt,
            revision: gallery.revision, exportedAt: Timestamp.text(Date().timeIntervalSince1970), items: exported)
        var credits = GalleryService.credits(of: gallery)
        credits.restrictedFiles = includeRestricted ? .included : .leftOut
        try await write(try archive.entry(name: "CREDITS.txt", data: Data(credits.text.utf8)))
        try await write(try archive.entry(name: "credits.html", data: Data(credits.html.utf8)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try await write(try archive.entry(name: "gallery.json", data: try encoder.encode(manifest)))
        try await write(archive.finish())
    }

    /// One file as an entry: its checksum first, then its bytes, a piece at a time.
    private func copy(
        _ file: URL, as name: String, into archive: inout ZipArchive, _ write: (Data) async throws -> Void
    ) async throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let files = files
        let (size, crc) = try await files.blocking {
            var (size, crc) = (0, UInt32(0))
            while let piece = try handle.read(upToCount: Self.chunkSize), !piece.isEmpty {
                size += piece.count
                crc = CRC32.update(crc, with: piece)
            }
            try handle.seek(toOffset: 0)
            return (size, crc)
        }
        try await write(try archive.header(name: name, size: size, crc: crc))
        var written = 0
        while written < size {
            let piece = try await files.blocking { try handle.read(upToCount: Self.chunkSize) ?? Data() }
            // Stored images never change (their name is their hash): a short file is a damaged one.
            guard !piece.isEmpty else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: file.path])
            }
            let wanted = piece.prefix(size - written)
            written += wanted.count
            try await write(wanted)
        }
    }

    /// Writes the archive to `destination`: next to it, flushed, then renamed into place, so the ZIP file is
    /// whole or not there at all (and one already there stays whole until replaced). Returns its size.
    public func write(to destination: URL) async throws -> Int {
        var size = 0
        try await AtomicFile.write(to: destination, syncFolder: true) { handle in
            try await write { data in
                try await files.blocking { try handle.write(contentsOf: data) }
                size += data.count
            }
        }
        return size
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
    /// The export of gallery `id` (deleted or not), ready to stream. `includeRestricted` (the owner's private
    /// copy, with every file) needs the owner: anyone else who may read the gallery gets `ownerOnly`.
    public func export(_ id: GalleryID, by viewer: GalleryViewer, includeRestricted: Bool = false)
        async throws(GalleryError) -> GalleryExport
    {
        try await authorize(id, viewer, .read)
        if includeRestricted {
            do {
                try await authorize(id, viewer, .own)
            } catch .readOnly {
                throw .ownerOnly
            }
        }
        let gallery = try await store.gallery(id)
        let images = try await store.storedImages(of: id)
        return GalleryExport(gallery: gallery, images: images, files: files, includeRestricted: includeRestricted)
    }
}
