import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes the backup's archive entry by entry into a temporary file beside `destination`, which is renamed
/// into place only once complete and flushed: a crash or an error leaves no half backup under its name.
struct BackupWriter {
    private let handle: FileHandle
    private let destination: URL
    private let modified: Date
    private(set) var bytes = 0

    private init(handle: FileHandle, destination: URL, modified: Date) {
        self.handle = handle
        self.destination = destination
        self.modified = modified
    }

    /// Runs `body` to fill the archive, then ends it and puts it in place; returns its size.
    static func write(
        to destination: URL, modified: Date, _ body: (inout BackupWriter) throws(BackupError) -> Void
    ) throws(BackupError) -> Int {
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = try? FileHandle(forWritingTo: temporary)
        else {
            throw .write(path: destination.path, reason: "the folder \(folder.path) does not take new files")
        }
        var writer = BackupWriter(handle: handle, destination: destination, modified: modified)
        do throws(BackupError) {
            try body(&writer)
            try writer.append(TarArchive.end)
            do {
                try handle.synchronize()
                try handle.close()
            } catch {
                throw BackupError.write(path: destination.path, reason: error.localizedDescription)
            }
            guard rename(temporary.path, destination.path) == 0 else {
                throw BackupError.write(path: destination.path, reason: String(cString: strerror(errno)))
            }
            BackupFiles.syncFolder(folder)
            return writer.bytes
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// An entry whose bytes are in memory.
    mutating func add(_ name: String, data: Data, mode: Int) throws(BackupError) {
        try append(TarArchive.header(name: name, size: data.count, mode: mode, modified: modified))
        try append(data)
        try append(TarArchive.padding(after: data.count))
    }

    /// An entry copied from `file`, which must hold `size` bytes and, when `expected` is given, have that
    /// SHA-256 (an image copy's name): a damaged copy on disk stops the backup rather than hiding in it.
    mutating func add(_ name: String, file: URL, size: Int, expected: String?, mode: Int) throws(BackupError) {
        try append(TarArchive.header(name: name, size: size, mode: mode, modified: modified))
        let hash: String
        do {
            hash = try BackupFiles.copy(file, size: size, to: handle)
        } catch is BackupFiles.SizeChanged {
            throw .damagedImage(name)
        } catch {
            throw .write(path: destination.path, reason: "while copying \(name): \(error.localizedDescription)")
        }
        if let expected, hash != expected { throw .damagedImage(name) }
        bytes += size
        try append(TarArchive.padding(after: size))
    }

    private mutating func append(_ data: Data) throws(BackupError) {
        do {
            try handle.write(contentsOf: data)
        } catch {
            throw .write(path: destination.path, reason: error.localizedDescription)
        }
        bytes += data.count
    }
}
