import Foundation
import GRDB
import TesseraCore
import TesseraLibrary

/// A `libraryPhoto` row and back: the columns `SQLiteLibraryStore` writes and reads.
extension LibraryPhoto: FetchableRecord {
    public init(row: Row) throws {
        var photo = LibraryPhoto(
            root: row["root"], path: row["path"],
            stamp: FileStamp(size: row["size"], modifiedNanoseconds: row["modified"]), format: row["format"],
            width: row["width"], height: row["height"], title: row["title"], caption: row["caption"],
            keywords: Self.decode([String].self, row["keywords"]) ?? [],
            tags: Self.decode([String].self, row["tags"]) ?? [], creator: row["creator"],
            copyright: row["copyright"],
            capturedAt: (row["capturedAt"] as Double?).map(Date.init(timeIntervalSince1970:)), camera: row["camera"],
            metadata: (Self.decode([[String]].self, row["metadata"]) ?? []).compactMap { pair in
                pair.count == 2 ? MetadataEntry(pair[0], pair[1]) : nil
            },
            indexedAt: Date(timeIntervalSince1970: row["indexedAt"]), palette: Self.palette(mask: row["colors"]))
        // The id as stored: the row is the truth, whatever `StableID` would make of its root and path.
        photo.id = row["id"]
        self = photo
    }

    /// The columns `SQLiteLibraryStore` writes, in `columnNames` order.
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
