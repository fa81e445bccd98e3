import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a file so a crash leaves either the whole new file under its name or none: a temporary file in
/// the same folder, flushed to disk, then renamed over the final name.
public enum AtomicFile {
    /// Names of temporary files; whoever owns the folder may delete leftovers with this prefix at start.
    public static let temporaryPrefix = ".tmp-"

    /// - Parameter syncFolder: also flush the folder after the rename, so the new name itself survives a
    ///   power cut (for data a user was told is saved; a cache can do without).
    public static func write(_ data: Data, to url: URL, syncFolder: Bool = false) throws {
        try write(data, to: url, attributes: nil, syncFolder: syncFolder)
    }

    /// The same, the file created with `permissions` (`0o600` for a key): it never exists with others.
    public static func write(_ data: Data, to url: URL, permissions: Int, syncFolder: Bool = false) throws {
        try write(data, to: url, attributes: [.posixPermissions: permissions], syncFolder: syncFolder)
    }

    private static func write(
        _ data: Data, to url: URL, attributes: [FileAttributeKey: Any]?, syncFolder: Bool
    ) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(temporaryPrefix + UUID().uuidString)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: attributes) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        if syncFolder {
            let descriptor = open(folder.path, O_RDONLY)
            if descriptor >= 0 {
                _ = fsync(descriptor)
                close(descriptor)
            }
        }
    }
}
