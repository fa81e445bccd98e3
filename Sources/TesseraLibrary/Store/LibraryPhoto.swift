import Foundation
import GRDB
import TesseraCore
import TesseraImageProcessing

/// One photo file of a library, as the `libraryPhoto` table keeps it.
public struct LibraryPhoto: Sendable, Hashable {
    /// Stable across re-indexing of the same file (see `StableID`).
    public var id: String
    /// The library folder, as a real path (symlinks resolved).
    public var root: String
    /// The file's path below `root`, `/`-separated.
    public var path: String
    public var stamp: FileStamp
    public var format: String
    /// As displayed (EXIF orientation applied).
    public var width: Int?
    public var height: Int?
    /// The embedded title, else the file name made readable.
    public var title: String
    public var caption: String?
    /// Embedded keywords, as the file has them.
    public var keywords: [String]
    /// Words from the folders and the file name.
    public var tags: [String]
    public var creator: String?
    public var copyright: String?
    public var capturedAt: Date?
    public var camera: String?
    /// Every other field the file's metadata has, for the detail view.
    public var metadata: [MetadataEntry]
    public var indexedAt: Date
    /// Its colours, computed once at index time; `nil` for a row indexed before palettes were (the indexer
    /// reads such files again, docs/filters.md).
    public var palette: ColorPalette?

    public init(
        root: String, path: String, stamp: FileStamp, format: String, width: Int?, height: Int?, title: String,
        caption: String? = nil, keywords: [String] = [], tags: [String] = [], creator: String? = nil,
        copyright: String? = nil, capturedAt: Date? = nil, camera: String? = nil, metadata: [MetadataEntry] = [],
        indexedAt: Date, palette: ColorPalette? = nil
    ) {
        self.id = StableID.make(root: root, path: path)
        self.root = root
        self.path = path
        self.stamp = stamp
        self.format = format
        self.width = width
        self.height = height
        self.title = title
        self.caption = caption
        self.keywords = keywords
        self.tags = tags
        self.creator = creator
        self.copyright = copyright
        self.capturedAt = capturedAt
        self.camera = camera
        self.metadata = metadata
        self.indexedAt = indexedAt
        self.palette = palette
    }

    /// The file's absolute path.
    public var absolutePath: String { root == "/" ? "/" + path : root + "/" + path }

    /// The file's name, `IMG_2041.jpg`.
    public var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// The folder below the root, `2023/Holiday`; empty for files directly in the root.
    public var folder: String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}

// MARK: - Rows

extension LibraryPhoto: FetchableRecord {
    public init(row: Row) throws {
        id = row["id"]
        root = row["root"]
        path = row["path"]
        stamp = FileStamp(size: row["size"], modifiedNanoseconds: row["modified"])
        format = row["format"]
        width = row["width"]
        height = row["height"]
        title = row["title"]
        caption = row["caption"]
        keywords = Self.decode([String].self, row["keywords"]) ?? []
        tags = Self.decode([String].self, row["tags"]) ?? []
        creator = row["creator"]
        copyright = row["copyright"]
        capturedAt = (row["capturedAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        camera = row["camera"]
        metadata = (Self.decode([[String]].self, row["metadata"]) ?? []).compactMap { pair in
            pair.count == 2 ? MetadataEntry(pair[0], pair[1]) : nil
        }
        indexedAt = Date(timeIntervalSince1970: row["indexedAt"])
        palette = Self.palette(mask: row["colors"])
    }

    /// The columns `LibraryStore` writes, in `columnNames` order.
    static let columnNames = [
        "id", "root", "path", "size", "modified", "format", "width", "height", "title", "caption", "keywords",
        "tags", "creator", "copyright", "capturedAt", "camera", "metadata", "indexedAt", "colors", "licenseId",
        "licenseFamily", "commercialUse", "modificationAllowed",
    ]

    var columnValues: StatementArguments {
        [
            id, root, path, stamp.size, stamp.modifiedNanoseconds, format, width, height, title, caption,
            Self.encode(keywords), Self.encode(tags), creator, copyright, capturedAt?.timeIntervalSince1970, camera,
            Self.encode(metadata.map { [$0.label, $0.value] }), indexedAt.timeIntervalSince1970, colorMask,
            license.id.rawValue, license.id.family, license.allowsCommercialUse, license.allowsModification,
        ]
    }

    /// The text full-text search sees: keywords and tags as space-separated words.
    var searchText: (title: String, caption: String, keywords: String, tags: String) {
        (title, caption ?? "", keywords.joined(separator: ", "), tags.joined(separator: " "))
    }

    private static func encode<T: Encodable>(_ value: T) -> String {
        // Arrays of strings always encode.
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data("[]".utf8), as: UTF8.self)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String?) -> T? {
        guard let text else { return nil }
        return try? JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
