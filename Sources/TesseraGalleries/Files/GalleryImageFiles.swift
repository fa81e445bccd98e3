import Crypto
import Foundation
import TesseraCore

/// The galleries' own copies of their images: content-addressed files in `<data>/gallery-images/`, named by
/// the SHA-256 of their bytes (`ab/abcdef…`), so one image added to many galleries is stored once.
///
/// A file is written (temp file, fsync, rename, folder fsync) before the row that names it is committed,
/// so a row never points at a missing or torn file; a crash between the two leaves an unreferenced file,
/// which `removeUnreferenced` collects.
public struct GalleryImageFiles: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public static func hash(of data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    public func url(forHash hash: String) -> URL {
        directory.appendingPathComponent(String(hash.prefix(2))).appendingPathComponent(hash)
    }

    /// Whether `hash` names a file this store could hold (64 lowercase hex digits): only such names are
    /// ever turned into paths.
    public static func isValidHash(_ hash: String) -> Bool {
        hash.utf8.count == 64 && hash.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Stores `data` durably and returns its hash; an identical file already there is kept as it is.
    public func store(_ data: Data) throws -> String {
        let hash = Self.hash(of: data)
        let url = url(forHash: hash)
        if !FileManager.default.fileExists(atPath: url.path) {
            try AtomicFile.write(data, to: url, syncFolder: true)
        }
        return hash
    }

    public func remove(hashes: some Sequence<String>) {
        for hash in hashes where Self.isValidHash(hash) {
            try? FileManager.default.removeItem(at: url(forHash: hash))
        }
    }

    /// Deletes files no row names (and leftover temporary files): what a crash between writing a file and
    /// committing its row leaves behind. Returns how many were removed.
    @discardableResult
    public func removeUnreferenced(keeping referenced: Set<String>) -> Int {
        guard let folders = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return 0 }
        var removed = 0
        for folder in folders {
            let folderURL = directory.appendingPathComponent(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folderURL.path)) ?? []
            where name.hasPrefix(AtomicFile.temporaryPrefix) || !referenced.contains(name) {
                if (try? FileManager.default.removeItem(at: folderURL.appendingPathComponent(name))) != nil {
                    removed += 1
                }
            }
        }
        return removed
    }
}
