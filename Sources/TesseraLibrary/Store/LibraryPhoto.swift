import Foundation
import TesseraCore

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
