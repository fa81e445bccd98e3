import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// File work shared by backup and restore: streaming with a running SHA-256, whole-file writes that appear
/// under their name only when complete, and folder syncs.
enum BackupFiles {
    static let chunk = 1 << 20

    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    static func sha256(of data: Data) -> String {
        hex(SHA256.hash(data: data))
    }

    /// The SHA-256 of `file`, read in pieces, and its size.
    static func sha256(of file: URL) throws -> (hash: String, size: Int) {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var hasher = SHA256()
        var size = 0
        while let data = try handle.read(upToCount: chunk), !data.isEmpty {
            hasher.update(data: data)
            size += data.count
        }
        return (hex(hasher.finalize()), size)
    }

    /// Copies exactly `size` bytes of `file` to `out`, returning their SHA-256; a file of another size
    /// throws `SizeChanged`.
    static func copy(_ file: URL, size: Int, to out: FileHandle) throws -> String {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var hasher = SHA256()
        var copied = 0
        while copied < size, let data = try handle.read(upToCount: min(chunk, size - copied)), !data.isEmpty {
            hasher.update(data: data)
            try out.write(contentsOf: data)
            copied += data.count
        }
        guard copied == size, (try handle.read(upToCount: 1) ?? Data()).isEmpty else { throw SizeChanged() }
        return hex(hasher.finalize())
    }

    struct SizeChanged: Error {}

    /// The size of the file at `url`, or `nil` when there is none.
    static func size(of url: URL) -> Int? {
        var info = stat()
        guard stat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    static func isFolder(_ url: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Flushes a folder, so the names just made or renamed in it survive a power cut.
    static func syncFolder(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// A hard link of `source` at `destination`, or a copy where a link cannot be made (another file
    /// system). `false` when `source` is not there (any more).
    static func hardLink(_ source: URL, to destination: URL) -> Bool {
        if link(source.path, destination.path) == 0 { return true }
        guard errno != ENOENT else { return false }
        return (try? FileManager.default.copyItem(at: source, to: destination)) != nil
    }
}
