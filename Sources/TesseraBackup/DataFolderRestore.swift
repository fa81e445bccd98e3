import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// `tessera restore`: rebuilds a data folder from a backup, checking every file against the manifest's size
/// and SHA-256 and the restored database against the image copies, in a temporary folder beside the
/// destination that takes its name only once all is checked and flushed. A damaged or cut backup leaves
/// nothing behind, and never a folder that looks usable.
public struct DataFolderRestore: Sendable {
    public let backup: URL
    public let destination: URL
    /// Moves a non-empty destination aside (to `<name>.replaced-<time>`) instead of refusing it.
    public let replace: Bool

    public init(backup: URL, destination: URL, replace: Bool) {
        self.backup = backup
        self.destination = destination
        self.replace = replace
    }

    public struct Summary: Sendable {
        public let contents: DataFolderBackup.Summary
        /// Where the folder that was there went, with `replace`.
        public let movedAside: URL?
    }

    /// Blocking.
    public func run(now: Date = Date()) throws(BackupError) -> Summary {
        let manager = FileManager.default
        var existing = false
        if manager.fileExists(atPath: destination.path) {
            guard BackupFiles.isFolder(destination) else {
                throw .badDestination("\(destination.path) is a file; name a folder to restore into.")
            }
            existing = !((try? manager.contentsOfDirectory(atPath: destination.path)) ?? []).isEmpty
            if existing, !replace { throw .destinationNotEmpty(destination.path) }
        }
        let parent = destination.deletingLastPathComponent()
        let temporary = parent.appendingPathComponent(
            ".\(destination.lastPathComponent).restoring-\(UUID().uuidString)")
        do {
            try manager.createDirectory(at: parent, withIntermediateDirectories: true)
            try manager.createDirectory(
                at: temporary, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .write(path: destination.path, reason: error.localizedDescription)
        }
        do throws(BackupError) {
            let contents = try unpack(into: temporary)
            var movedAside: URL?
            if existing {
                let stamp = Self.stamp(now)
                let aside = parent.appendingPathComponent("\(destination.lastPathComponent).replaced-\(stamp)")
                guard rename(destination.path, aside.path) == 0 else {
                    throw BackupError.write(path: aside.path, reason: String(cString: strerror(errno)))
                }
                movedAside = aside
            }
            // Over an empty folder too: rename(2) replaces an empty directory.
            guard rename(temporary.path, destination.path) == 0 else {
                throw BackupError.write(path: destination.path, reason: String(cString: strerror(errno)))
            }
            BackupFiles.syncFolder(parent)
            return Summary(contents: contents, movedAside: movedAside)
        } catch {
            try? manager.removeItem(at: temporary)
            throw error
        }
    }

    /// Writes every entry into `folder`, checked; then checks the database against the images.
    private func unpack(into folder: URL) throws(BackupError) -> DataFolderBackup.Summary {
        var reader = try BackupReader(backup)
        defer { reader.close() }
        guard let first = try? reader.next(), first.name == BackupManifest.entryName, first.isFile,
            first.size < 64 << 20, let data = try? reader.data(size: first.size),
            let manifest = try? BackupManifest.decode(data), manifest.format == BackupManifest.format
        else {
            throw .notABackup(backup.path)
        }
        guard manifest.version <= BackupManifest.currentVersion else {
            throw .unsupportedVersion(path: backup.path, version: manifest.version)
        }
        var expected: [String: BackupManifest.File] = [:]
        for file in manifest.files {
            guard BackupManifest.isAllowed(file.path), expected.updateValue(file, forKey: file.path) == nil else {
                throw reader.damaged("its manifest names \(file.path), which no backup holds")
            }
        }
        var folders: Set<String> = []
        while let entry = try reader.next() {
            guard entry.isFile, let file = expected.removeValue(forKey: entry.name), file.size == entry.size else {
                throw reader.damaged("it holds \(entry.name), which its manifest does not list (or not so)")
            }
            let target = folder.appendingPathComponent(entry.name)
            let parent = target.deletingLastPathComponent()
            if folders.insert(parent.path).inserted {
                do {
                    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
                } catch {
                    throw .write(path: parent.path, reason: error.localizedDescription)
                }
            }
            let mode = entry.name == BackupLayout.secret || entry.name == BackupLayout.database ? 0o600 : 0o644
            guard
                FileManager.default.createFile(
                    atPath: target.path, contents: nil, attributes: [.posixPermissions: mode]),
                let out = try? FileHandle(forWritingTo: target)
            else {
                throw .write(path: target.path, reason: "the folder does not take new files")
            }
            defer { try? out.close() }
            let hash = try reader.copy(size: entry.size, to: out, name: entry.name)
            guard hash == file.sha256 else {
                throw reader.damaged("\(entry.name) does not match its SHA-256 (expected \(file.sha256), read \(hash))")
            }
            do {
                try out.synchronize()
            } catch {
                throw .write(path: target.path, reason: error.localizedDescription)
            }
        }
        if let missing = expected.keys.sorted().first {
            throw reader.damaged(
                "\(expected.count) of the \(manifest.files.count) files its manifest lists are not in it (\(missing) first)"
            )
        }
        let images = Set(manifest.files.filter { $0.path.hasPrefix(BackupLayout.images + "/") }.map(\.sha256))
        try Self.check(folder.appendingPathComponent(BackupLayout.database), manifest, images, reader)
        for path in folders.sorted(by: >) { BackupFiles.syncFolder(URL(fileURLWithPath: path)) }
        BackupFiles.syncFolder(folder)
        return DataFolderBackup.Summary(
            galleries: manifest.galleries, items: manifest.items, imageCopies: images.count,
            bytes: BackupFiles.size(of: backup) ?? reader.offset,
            secret: manifest.secret)
    }

    /// The restored database is whole and names only image copies the backup holds.
    private static func check(
        _ database: URL, _ manifest: BackupManifest, _ images: Set<String>, _ reader: BackupReader
    ) throws(BackupError) {
        let found: (check: String, galleries: Int, items: Int, hashes: Set<String>)
        do {
            let queue = try DatabaseQueue(path: database.path)
            found = try queue.inDatabase { db in
                (
                    try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "",
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM gallery") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM galleryItem") ?? 0,
                    try String.fetchSet(db, sql: "SELECT DISTINCT imageHash FROM galleryItem")
                )
            }
            try queue.close()
        } catch {
            throw reader.damaged("its database cannot be read (\(SQLiteSnapshot.reason(error)))")
        }
        guard found.check == "ok" else { throw reader.damaged("its database is damaged (\(found.check))") }
        guard found.galleries == manifest.galleries, found.items == manifest.items else {
            throw reader.damaged("its database does not hold the galleries and items its manifest counts")
        }
        if let missing = found.hashes.subtracting(images).sorted().first {
            throw reader.damaged("its database names image copies it does not hold (\(missing) first)")
        }
    }

    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}
