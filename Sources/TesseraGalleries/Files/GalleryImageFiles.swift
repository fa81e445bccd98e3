import Crypto
import Foundation
import TesseraCore

/// The galleries' own copies of their images: content-addressed files in `<data>/gallery-images/`, named by
/// the SHA-256 of their bytes (`ab/abcdef…`), so one image added to many galleries is stored once.
///
/// A file is written (temp file, fsync, rename, folder fsync) before the row that names it is committed,
/// so a row never points at a missing or torn file; a crash between the two leaves an unreferenced file,
/// which `removeUnreferenced` collects once it is old enough.
public struct GalleryImageFiles: Sendable {
    public let directory: URL
    /// Threads for the file work, so writes and fsyncs never hold the caller's (see `BlockingPool`).
    private let work: BlockingPool

    /// How old an unreferenced file must be before `removeUnreferenced` deletes it: another process on the
    /// same data folder (the CLI beside `tessera serve`) may have just written it and not yet committed
    /// the row that names it.
    public static let unreferencedGrace: TimeInterval = 3600

    public init(directory: URL, work: BlockingPool = BlockingPool(size: 2, name: "gallery-files")) {
        self.directory = directory
        self.work = work
    }

    /// Runs blocking file work (reads, writes, removals of these files) on the files' own threads.
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard let value = try await work.run(body) else { throw CancellationError() }
        return value
    }

    public static func hash(of data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: data) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    public func url(forHash hash: String) -> URL {
        DataFolder.hashed(hash, in: directory)
    }

    /// Stores `data` durably and returns its hash (`hash`, when the caller has made it already: it is the
    /// SHA-256 of megabytes). An identical file already there is kept, its time renewed, so a collection
    /// starting meanwhile in another process leaves it alone (see above).
    /// The file work (write, fsync, rename) runs on the files' own threads, off the caller's.
    @discardableResult
    public func store(_ data: Data, hash known: String? = nil) async throws -> String {
        let hash = known ?? Self.hash(of: data)
        let url = url(forHash: hash)
        // Renewing a file already there is one system call, made here: the hop to the files' threads and back
        // cost more than the call itself on a local disk (on a network volume it is one round trip).
        if utimensat(AT_FDCWD, url.path, nil, 0) == 0 { return hash }
        try await blocking {
            if utimensat(AT_FDCWD, url.path, nil, 0) != 0 {
                try AtomicFile.write(data, to: url, syncFolder: true)
            }
        }
        return hash
    }

    /// Deletes the files of images no item uses any more (a gallery deleted for good), except those
    /// stored or re-stored in the last minute: an add of the same image racing the deletion has renewed
    /// the file's time before committing its row, and keeps it. The start-up collection gets those later.
    public func remove(hashes: some Sequence<String>, now: Date = Date()) {
        let cutoff = now.addingTimeInterval(-60)
        for hash in hashes where ImageReference.isValidHash(hash) {
            let file = url(forHash: hash)
            let modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate]
            guard let modified = modified as? Date, modified < cutoff else { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Deletes files no row names (and leftover temporary files) older than `unreferencedGrace`: what a
    /// crash between writing a file and committing its row leaves behind. Returns how many were removed.
    @discardableResult
    public func removeUnreferenced(keeping referenced: Set<String>, now: Date = Date()) -> Int {
        guard let folders = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return 0 }
        let cutoff = now.addingTimeInterval(-Self.unreferencedGrace)
        var removed = 0
        for folder in folders {
            let folderURL = directory.appendingPathComponent(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folderURL.path)) ?? []
            where name.hasPrefix(AtomicFile.temporaryPrefix) || !referenced.contains(name) {
                let file = folderURL.appendingPathComponent(name)
                let modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate]
                guard let modified = modified as? Date, modified < cutoff else { continue }
                if (try? FileManager.default.removeItem(at: file)) != nil {
                    removed += 1
                }
            }
        }
        return removed
    }
}
