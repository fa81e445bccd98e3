import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a file so a crash leaves either the whole new file under its name or none: a temporary file in
/// the same folder, flushed to disk, then renamed over the final name.
public enum AtomicFile {
    /// Names of temporary files; whoever owns the folder may delete leftovers with this prefix at start.
    public static let temporaryPrefix = ".tmp-"

    /// Writes `data` as the file at `url`.
    ///
    /// - Parameter syncFolder: also flush the folder after the rename, so the new name itself survives a
    ///   power cut (for data a user was told is saved; a cache can do without).
    public static func write(_ data: Data, to url: URL, syncFolder: Bool = false) throws {
        try write(data, to: url, attributes: nil, syncFolder: syncFolder)
    }

    /// The same, the file created with `permissions` (`0o600` for a key): it never exists readable by others.
    public static func write(_ data: Data, to url: URL, permissions: Int, syncFolder: Bool = false) throws {
        try write(data, to: url, attributes: [.posixPermissions: permissions], syncFolder: syncFolder)
    }

    private static func write(
        _ data: Data, to url: URL, attributes: [FileAttributeKey: Any]?, syncFolder: Bool
    ) throws {
        let pending = try Pending(for: url, attributes: attributes)
        do {
            try pending.handle.write(contentsOf: data)
            try pending.commit(syncFolder: syncFolder)
        } catch {
            pending.discard()
            throw error
        }
    }

    /// Writes the file at `url` piece by piece: `body` writes to the temporary file's handle (a streamed
    /// export need not hold the whole file in memory); the file appears under `url` only once `body`
    /// returns. Anything `body` throws leaves no file behind and an old one there untouched.
    public static func write(
        to url: URL, syncFolder: Bool = false, _ body: (FileHandle) async throws -> Void
    ) async throws {
        let pending = try Pending(for: url)
        do {
            try await body(pending.handle)
            try pending.commit(syncFolder: syncFolder)
        } catch {
            pending.discard()
            throw error
        }
    }

    /// The temporary file until it is renamed into place or removed.
    private struct Pending {
        let url: URL
        let temporary: URL
        let handle: FileHandle

        init(for url: URL, attributes: [FileAttributeKey: Any]? = nil) throws {
            let folder = url.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let temporary = folder.appendingPathComponent(AtomicFile.temporaryPrefix + UUID().uuidString)
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: attributes) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            do {
                handle = try FileHandle(forWritingTo: temporary)
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                throw error
            }
            self.url = url
            self.temporary = temporary
        }

        func commit(syncFolder: Bool) throws {
            try handle.synchronize()
            try handle.close()
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
            if syncFolder {
                let descriptor = open(url.deletingLastPathComponent().path, O_RDONLY)
                if descriptor >= 0 {
                    _ = fsync(descriptor)
                    close(descriptor)
                }
            }
        }

        func discard() {
            try? handle.close()
            try? FileManager.default.removeItem(at: temporary)
        }
    }
}
