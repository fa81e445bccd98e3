import Foundation
import GRDB
import TesseraCore

/// `tessera backup`: one file holding a consistent snapshot of a data folder, taken while a server may be
/// writing to it: the SQLite database (`VACUUM INTO`, a transaction's view of it), every gallery image copy
/// that snapshot names, and the image-signing key. Not carried: the sources' response cache (emptied in the
/// copy) and the thumbnail disk cache (`image-cache/`), which refill themselves (docs/deploy.md).
///
/// Image copies are content-addressed and never change, but one can be deleted (a gallery deleted for good,
/// the start-up collection). So before the snapshot every copy there is gets a hard link in a staging
/// folder, and right after it the few added meanwhile do too: nothing the snapshot names can go before it is
/// read. (A copy added between the two steps is as old as the copy of the database takes, and deletions spare
/// copies under a minute old; a miss stops the backup with `missingImages`, never a hole in it.)
public struct DataFolderBackup: Sendable {
    public let dataDirectory: URL
    /// Where the image copies are (`TESSERA_MEDIA`, else `gallery-images` in the data folder); in the backup
    /// they go under `gallery-images/` either way.
    public let mediaDirectory: URL
    /// `TESSERA_SECRET` is set: the key is that setting, not a file, and the backup says so.
    public let secretConfigured: Bool

    public init(dataDirectory: URL, mediaDirectory: URL? = nil, secretConfigured: Bool) {
        self.dataDirectory = dataDirectory
        self.mediaDirectory = mediaDirectory ?? dataDirectory.appendingPathComponent(BackupLayout.images)
        self.secretConfigured = secretConfigured
    }

    /// What a backup or a restore held.
    public struct Summary: Sendable, Equatable {
        public let galleries: Int
        public let items: Int
        public let imageCopies: Int
        /// The backup file's size.
        public let bytes: Int
        public let secret: BackupManifest.Secret
    }

    /// Writes the backup to `destination` (whole or not at all: written beside it, then renamed). Blocking.
    public func write(to destination: URL, now: Date = Date()) throws(BackupError) -> Summary {
        guard BackupFiles.isFolder(dataDirectory) else { throw .noDataFolder(dataDirectory.path) }
        let live = dataDirectory.appendingPathComponent(BackupLayout.database)
        guard BackupFiles.size(of: live) != nil else { throw .noDatabase(folder: dataDirectory.path) }
        try Self.checkDestination(destination)

        let staging = dataDirectory.appendingPathComponent(".backup-\(UUID().uuidString)")
        let stagedImages = staging.appendingPathComponent("images")
        do {
            try FileManager.default.createDirectory(at: stagedImages, withIntermediateDirectories: true)
        } catch {
            throw .write(path: staging.path, reason: error.localizedDescription)
        }
        defer { try? FileManager.default.removeItem(at: staging) }

        let images = mediaDirectory
        Self.stageEveryImage(in: images, to: stagedImages)
        let snapshot = staging.appendingPathComponent(BackupLayout.database)
        let contents = try SQLiteSnapshot.take(of: live, into: snapshot)
        var missing: [String] = []
        for hash in contents.hashes {
            let staged = stagedImages.appendingPathComponent(hash)
            if BackupFiles.size(of: staged) == nil,
                !BackupFiles.hardLink(
                    DataFolder.hashed(hash, in: images), to: staged)
            {
                missing.append(hash)
            }
        }
        if let first = missing.first {
            throw .missingImages(count: missing.count, example: BackupLayout.image(first))
        }

        let secretFile = dataDirectory.appendingPathComponent(BackupLayout.secret)
        let secret = (try? Data(contentsOf: secretFile)).flatMap { $0.count >= 32 ? $0 : nil }
        let secretState: BackupManifest.Secret = secret != nil ? .file : secretConfigured ? .configured : .none

        // The manifest goes first, so it lists every file with its size and hash before any of them.
        var files: [BackupManifest.File] = []
        do {
            let (hash, size) = try BackupFiles.sha256(of: snapshot)
            files.append(.init(path: BackupLayout.database, size: size, sha256: hash))
        } catch {
            throw .database(path: live.path, reason: "its copy could not be read back: \(error.localizedDescription)")
        }
        if let secret {
            files.append(
                .init(path: BackupLayout.secret, size: secret.count, sha256: BackupFiles.sha256(of: secret)))
        }
        for hash in contents.hashes {
            guard let size = BackupFiles.size(of: stagedImages.appendingPathComponent(hash)) else {
                throw .missingImages(count: 1, example: BackupLayout.image(hash))
            }
            files.append(.init(path: BackupLayout.image(hash), size: size, sha256: hash))
        }
        let manifest = BackupManifest(
            createdAt: now, galleries: contents.galleries, items: contents.items, imageCopies: contents.hashes.count,
            secret: secretState, files: files)

        let bytes = try BackupWriter.write(to: destination, modified: now) { (archive) throws(BackupError) in
            try archive.add(BackupManifest.entryName, data: Self.encode(manifest), mode: 0o644)
            try archive.add(BackupLayout.database, file: snapshot, size: files[0].size, expected: nil, mode: 0o600)
            if let secret { try archive.add(BackupLayout.secret, data: secret, mode: 0o600) }
            for file in files where file.path.hasPrefix(BackupLayout.images + "/") {
                try archive.add(
                    file.path, file: stagedImages.appendingPathComponent(file.sha256), size: file.size,
                    expected: file.sha256, mode: 0o644)
            }
        }
        return Summary(
            galleries: contents.galleries, items: contents.items, imageCopies: contents.hashes.count, bytes: bytes,
            secret: secretState)
    }

    private static func encode(_ manifest: BackupManifest) throws(BackupError) -> Data {
        do {
            return try manifest.encoded()
        } catch {
            throw .write(path: BackupManifest.entryName, reason: "\(error)")
        }
    }

    /// A hard link (or a copy) of every image copy now in `images`, named by its hash, in `staged`.
    static func stageEveryImage(in images: URL, to staged: URL) {
        let manager = FileManager.default
        for folder in (try? manager.contentsOfDirectory(atPath: images.path)) ?? [] where folder.count == 2 {
            let folderURL = images.appendingPathComponent(folder)
            for name in (try? manager.contentsOfDirectory(atPath: folderURL.path)) ?? []
            where ImageReference.isValidHash(name) && name.hasPrefix(folder) {
                _ = BackupFiles.hardLink(
                    folderURL.appendingPathComponent(name), to: staged.appendingPathComponent(name))
            }
        }
    }

    /// Refuses a destination that cannot take a file before any work is done.
    static func checkDestination(_ destination: URL) throws(BackupError) {
        let folder = destination.deletingLastPathComponent()
        guard BackupFiles.isFolder(folder) else {
            throw .badDestination("There is no folder \(folder.path) to write \(destination.lastPathComponent) in.")
        }
        if BackupFiles.isFolder(destination) {
            throw .badDestination("\(destination.path) is a folder; name the backup file to write.")
        }
    }
}
