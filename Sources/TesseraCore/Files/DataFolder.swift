import Foundation

/// The data folder (`TESSERA_DATA`): every file and folder Tessera keeps there, named once. The server, the
/// CLI, backup and restore and `tessera migrate` all find them through this type.
///
/// ```
/// tessera.sqlite          the SQLite database (WAL: -wal and -shm beside it while open)
/// image-secret            the key that signs image and media addresses, unless TESSERA_SECRET gives one
/// gallery-images/ab/ab…   gallery image copies by SHA-256, unless TESSERA_MEDIA puts them elsewhere
/// image-cache/ab/ab…      the image proxy's disk cache, when TESSERA_IMAGE_DISK_CACHE_MB is above 0
/// ```
public struct DataFolder: Sendable, Hashable {
    public let url: URL

    public init(_ url: URL) {
        self.url = url
    }

    /// Names relative to the folder: how backups list them, and what error messages show.
    public static let database = "tessera.sqlite"
    public static let imageSecret = "image-secret"
    public static let galleryImages = "gallery-images"
    public static let imageCache = "image-cache"

    public var databaseFile: URL { url.appendingPathComponent(Self.database) }
    public var imageSecretFile: URL { url.appendingPathComponent(Self.imageSecret) }
    /// The default home of gallery image copies (`TESSERA_MEDIA` moves them).
    public var galleryImagesFolder: URL { url.appendingPathComponent(Self.galleryImages) }
    public var imageCacheFolder: URL { url.appendingPathComponent(Self.imageCache) }

    /// Where a file named by its content hash lives in a folder of such files (gallery copies, the disk cache):
    /// under its first two hex digits, so no folder holds more than a few thousand files.
    public static func hashed(_ name: String, in folder: URL) -> URL {
        folder.appendingPathComponent(String(name.prefix(2))).appendingPathComponent(name)
    }

    /// A gallery image copy's path relative to the data folder, `gallery-images/ab/ab…`, as a backup lists it.
    public static func galleryImage(_ hash: String) -> String { "\(galleryImages)/\(hash.prefix(2))/\(hash)" }
}
